#!/bin/sh
# The Home Assistant add-on's runtime, Node-RED 5 on Node 24, from the npm registry into the
# git-ignored .tools/nr5 folder (never the project's node_modules): `node@24` ships the binary as
# .tools/nr5/node_modules/.bin/node, `node-red@5` its red.js. test/install/ runs against it when present.
set -eu
repo_root=$(cd "$(dirname "$0")/../.." && pwd)
prefix="$repo_root/.tools/nr5"
mkdir -p "$prefix"
[ -f "$prefix/package.json" ] || printf '{\n  "name": "nr5-tools",\n  "private": true\n}\n' > "$prefix/package.json"
npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error node@24 node-red@5
"$prefix/node_modules/.bin/node" --version
node -e "console.log('node-red', require('$prefix/node_modules/node-red/package.json').version)"
