#!/bin/sh
# The official MCP conformance suite (client mode) and the Node 22 it needs (conformance >= 0.1.14
# imports fs.globSync), into .tools/conformance.
set -eu
sh "$(dirname "$0")/../../../scripts/install-tools.sh" conformance @modelcontextprotocol/conformance@0.1.16 node@22
