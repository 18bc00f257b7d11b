#!/bin/sh
# The conformance suite release with server scenarios for 2026-07-28 (0.2.0-alpha.12; 0.1.16, used by
# the client-mode runner, stops at 2025-11-25) and the Node 22 it needs, into .tools/conformance-server.
set -eu
sh "$(dirname "$0")/../../../scripts/install-tools.sh" conformance-server @modelcontextprotocol/conformance@0.2.0-alpha.12 node@22
