// Runs the official MCP conformance suite in SERVER mode (@modelcontextprotocol/conformance
// 0.2.0-alpha.12 under Node 22, from .tools/conformance-server, installed by scripts/test-tools.mjs) against a URL,
// one scenario at a time, and reads each scenario's checks.json.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const REPO_ROOT = resolve(__dirname, '..', '..', '..');
const TOOLS_DIR = join(REPO_ROOT, '.tools', 'conformance-server');
// The Node 22 of .tools/conformance: one Node binary per version in .tools (test/tools.json).
const NODE22 = join(REPO_ROOT, '.tools', 'node22', 'node_modules', '.bin', 'node');
const CLI = join(TOOLS_DIR, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

/** Scenarios that apply to an endpoint serving tools only (no resources, prompts, logging, completion, sampling, elicitation). */
/** The tool scenarios both revisions share. */
const TOOL_SCENARIOS = [
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-error',
  'tools-call-with-progress',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];
/** The tasks extension (io.modelcontextprotocol/tasks, 2026-07-28): Long-running flow tools. */
const TASK_SCENARIOS = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-status-notifications',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];
export const SERVER_SCENARIOS: Record<'2025-11-25' | '2026-07-28', string[]> = {
  '2025-11-25': ['server-initialize', 'server-session-lifecycle', 'ping', ...TOOL_SCENARIOS],
  '2026-07-28': ['server-stateless', ...TOOL_SCENARIOS, 'caching', 'http-header-validation', ...TASK_SCENARIOS],
};
// Not run: http-custom-header-server-validation (x-mcp-header tool annotations, SEP-2243, are not
// something mcp-tool-in declares), and every resources/prompts/logging/completion/sampling/
// elicitation/input-required scenario (the endpoint serves tools only).

/**
 * Checks that FAIL only because they need something a tools-only endpoint does not have: the suite
 * marks them "Not testable" (a diagnostic tool that uses a client capability, elicitation) or probes
 * prompts/resources the endpoint does not declare. Anything else failing fails the spec.
 */
export const NOT_APPLICABLE: Record<string, string> = {
  'sep-2575-server-rejects-undeclared-capability': 'no tool needs a client capability (test_missing_capability)',
  'sep-2575-missing-capability-http-400': 'no tool needs a client capability (test_missing_capability)',
  'sep-2575-http-server-no-independent-requests-on-stream': 'no tool uses elicitation (test_streaming_elicitation)',
  'sep-2549-prompts-list-caching-hints': 'the endpoint serves no prompts (prompts/list is -32601)',
  'sep-2549-resources-list-caching-hints': 'the endpoint serves no resources (resources/list is -32601)',
  'sep-2549-resources-templates-list-caching-hints': 'the endpoint serves no resource templates',
  'sep-2663-server-returns-missing-capability-when-required':
    'no flow tool requires a task: a Long-running mcp-tool-in stays callable the ordinary way by clients without the tasks extension',
};

export interface ServerCheck {
  id: string;
  status: string;
  description?: string;
  errorMessage?: string;
}

export interface ServerScenarioRun {
  scenario: string;
  exitCode: number;
  checks: ServerCheck[];
  failures: ServerCheck[];
  output: string;
}

export const serverConformanceInstalled = () => existsSync(NODE22) && existsSync(CLI);

export function runServerScenario(url: string, scenario: string, specVersion: string, timeoutMs = 60000): Promise<ServerScenarioRun> {
  const outputDir = mkdtempSync(join(tmpdir(), 'mcp-conformance-server-'));
  // Extension scenarios (tasks-*) sit beside the spec's timeline: the suite runs them on request only.
  const args = [
    CLI,
    'server',
    '--url',
    url,
    '--scenario',
    scenario,
    '--spec-version',
    specVersion,
    ...(scenario.startsWith('tasks-') ? ['--force'] : []),
    '-o',
    outputDir,
  ];
  return new Promise((resolvePromise) => {
    execFile(NODE22, args, { cwd: REPO_ROOT, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const checks: ServerCheck[] = [];
      for (const dir of readdirSync(outputDir)) {
        const file = join(outputDir, dir, 'checks.json');
        if (existsSync(file)) checks.push(...(JSON.parse(readFileSync(file, 'utf8')) as ServerCheck[]));
      }
      // The suite writes a folder per scenario run; once read, nothing needs it (a run leaves no temp dirs).
      rmSync(outputDir, { recursive: true, force: true });
      const exitCode = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolvePromise({ scenario, exitCode, checks, failures: checks.filter((c) => c.status === 'FAILURE'), output: `${stdout}\n${stderr}` });
    });
  });
}
