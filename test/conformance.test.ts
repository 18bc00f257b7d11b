// The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16, client mode) against
// our engine's McpSession (test/peers/conformance/client.ts). The suite needs Node 22, which
// scripts/test-tools.mjs (npm test's first step) installs with the suite into the git-ignored
// .tools/conformance (from the npm registry) the first time; results go to a temp dir, never the repo.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTestTools } from './helpers/test-tools';
import { REQUIRED_SCENARIOS, conformanceInstalled, runConformance, type ConformanceCheck } from './peers/conformance/run';

// The suite's only timing check: "slightly late" (under 2x the server's retry value) is a WARNING
// that a busy CI machine can cause; "too early" or "very late" stay FAILUREs and fail the test.
const TIMING_CHECK = 'client-sse-retry-timing';

function describeCheck(c: ConformanceCheck): string {
  return `${c.status} ${c.id}${c.errorMessage ? `: ${c.errorMessage}` : ''}`;
}

describe('MCP conformance suite (client mode) against McpSession', function () {
  let outputDir: string;

  before(async function () {
    this.timeout(300000);
    if (!conformanceInstalled()) ensureTestTools();
    outputDir = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  });

  after(function () {
    if (outputDir) rmSync(outputDir, { recursive: true, force: true });
  });

  for (const scenario of REQUIRED_SCENARIOS) {
    it(`passes every check of scenario ${scenario}`, async function () {
      this.timeout(120000);
      const run = await runConformance(scenario, { outputDir });
      const context = `\n${run.output}\nclient stdout:\n${run.clientStdout}\nclient stderr:\n${run.clientStderr}`;
      assert.ok(run.scored.length > 0, `no scored checks for ${scenario}${context}`);
      const notPassed = run.scored.filter((c) => c.status !== 'SUCCESS');
      for (const c of notPassed.filter((c) => c.id === TIMING_CHECK && c.status === 'WARNING')) {
        console.log(`      (tolerated) ${describeCheck(c)}`);
      }
      const failing = notPassed.filter((c) => !(c.id === TIMING_CHECK && c.status === 'WARNING'));
      assert.deepEqual(failing.map(describeCheck), [], `${scenario} checks not passed${context}`);
      assert.equal(run.exitCode, 0, `conformance exited ${run.exitCode}${context}`);
    });
  }
});
