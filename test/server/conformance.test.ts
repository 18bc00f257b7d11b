// The official MCP conformance suite, server mode, against mcp-endpoint in the real runtime (auth
// off: the suite has no server-auth scenarios), for 2025-11-25 and 2026-07-28. Every scenario that
// applies to a tools-only server must pass with no FAILURE check.
import assert from 'node:assert/strict';
import { NOT_APPLICABLE, SERVER_SCENARIOS, runServerScenario, serverConformanceInstalled } from '../peers/conformance/server-run';
import { ensureTestTools } from '../helpers/test-tools';
import { conformanceFlow } from './conformance-flow';
import { baseUrl, loadFlow, startEndpointRuntime, stopEndpointRuntime } from './harness';

describe('conformance suite (server mode) against mcp-endpoint', function () {
  this.timeout(120000);
  before(async function () {
    if (!serverConformanceInstalled()) ensureTestTools();
    await startEndpointRuntime();
    await loadFlow(conformanceFlow());
  });
  after(stopEndpointRuntime);

  for (const [version, scenarios] of Object.entries(SERVER_SCENARIOS)) {
    for (const scenario of scenarios) {
      it(`${version} ${scenario}`, async () => {
        // localhost, not 127.0.0.1: dns-rebinding-protection needs a localhost URL to test against.
        const run = await runServerScenario(baseUrl.replace('127.0.0.1', 'localhost') + '/mcp', scenario, version);
        assert.ok(run.checks.length > 0, `no checks recorded:\n${run.output}`);
        const failures = run.failures.filter((f) => !(f.id in NOT_APPLICABLE));
        assert.deepEqual(
          failures.map((f) => `${f.id}: ${f.errorMessage}`),
          [],
          run.output,
        );
        const passed = run.checks.filter((c) => c.status === 'SUCCESS').length;
        process.stdout.write(`      ${passed} SUCCESS, ${run.failures.length - failures.length} not applicable, ${run.checks.length} checks\n`);
      });
    }
  }
});
