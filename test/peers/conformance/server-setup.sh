#!/bin/sh
# Installs the conformance suite release that has server scenarios for 2026-07-28 (0.2.0-alpha.12;
# 0.1.16, used by the client-mode runner, stops at 2025-11-25) and the Node 22 it needs into the
# git-ignored .tools/conformance-server, never into the project's node_modules.
set -eu
repo_root=$(cd "$(dirname "$0")/../../.." && pwd)
prefix="$repo_root/.tools/conformance-server"
mkdir -p "$prefix"
[ -f "$prefix/package.json" ] || printf '{\n  "name": "conformance-server-tools",\n  "private": true\n}\n' > "$prefix/package.json"
npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error \
  @modelcontextprotocol/conformance@0.2.0-alpha.12 node@22
"$prefix/node_modules/.bin/node" --version
