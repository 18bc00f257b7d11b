#!/bin/sh
# Installs the official MCP conformance suite and the Node 22 it needs (conformance >= 0.1.14
# imports fs.globSync) into the git-ignored .tools/conformance folder, never into the project's
# node_modules. Both come from the npm registry; `node@22` ships the binary as
# .tools/conformance/node_modules/.bin/node.
set -eu
repo_root=$(cd "$(dirname "$0")/../../.." && pwd)
prefix="$repo_root/.tools/conformance"
mkdir -p "$prefix"
# Its own package.json makes npm treat the folder as the project, so the repo's is never touched.
[ -f "$prefix/package.json" ] || printf '{\n  "name": "conformance-tools",\n  "private": true\n}\n' > "$prefix/package.json"
npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error \
  @modelcontextprotocol/conformance@0.1.16 node@22
"$prefix/node_modules/.bin/node" --version
