#!/bin/sh
# The Home Assistant add-on's runtime, Node-RED 5 on Node 24, into .tools/nr5 (`node@24` ships the
# binary as .tools/nr5/node_modules/.bin/node, `node-red@5` its red.js). test/install/ and
# `npm run test:node24` run against it.
set -eu
sh "$(dirname "$0")/../../scripts/install-tools.sh" nr5 node@24 node-red@5
