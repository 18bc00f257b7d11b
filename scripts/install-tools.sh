#!/bin/sh
# Installs npm packages (a Node runtime from `node@N`, a test tool) into a git-ignored folder under
# .tools/, never into the project's node_modules: the folder's own package.json makes npm treat it
# as the project. Prints the version of the Node it brought.
#   scripts/install-tools.sh <folder under .tools> <package@version>...
set -eu
repo_root=$(cd "$(dirname "$0")/.." && pwd)
prefix="$repo_root/.tools/$1"
shift
mkdir -p "$prefix"
[ -f "$prefix/package.json" ] || printf '{\n  "name": "tools-%s",\n  "private": true\n}\n' "$(basename "$prefix")" > "$prefix/package.json"
npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "$@"
"$prefix/node_modules/.bin/node" --version
