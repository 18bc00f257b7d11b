// Runs the official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16, client mode)
// against our client: the suite starts a mock server on localhost, runs `<client command> <url>` with
// MCP_CONFORMANCE_SCENARIO set, scores the traffic and writes <outputDir>/<scenario>-<ts>/checks.json.
// The suite needs Node 22; scripts/test-tools.mjs puts it and a Node 22 binary into the git-ignored
// .tools/conformance, so the project's node_modules and Node 20 stay as they are. Our client itself
// runs on the machine's Node (process.execPath), through tsx, as the product would.
//
// CLI: npx tsx test/peers/conformance/run.ts [--scenario initialize] [--client path/to/client.ts]
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureTestTools } from '../../helpers/test-tools';

export const REPO_ROOT = resolve(__dirname, '..', '..', '..');
export const TOOLS_DIR = join(REPO_ROOT, '.tools', 'conformance');
export const NODE22 = join(REPO_ROOT, '.tools', 'node22', 'node_modules', '.bin', 'node');
export const CONFORMANCE_CLI = join(TOOLS_DIR, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
export const DEFAULT_CLIENT = join(__dirname, 'client.ts');
export const REQUIRED_SCENARIOS = ['initialize', 'tools_call', 'sse-retry'] as const;

export interface ConformanceCheck {
  id: string;
  name: string;
  description?: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | string;
  errorMessage?: string;
  details?: unknown;
}

export interface ConformanceRun {
  scenario: string;
  exitCode: number;
  /** Every check the suite recorded, from checks.json. */
  checks: ConformanceCheck[];
  /** The checks that decide pass/fail (SUCCESS, FAILURE, WARNING), as the suite counts them. */
  scored: ConformanceCheck[];
  failures: ConformanceCheck[];
  resultDir: string;
  /** The suite's console output (its own stdout+stderr), for failure messages. */
  output: string;
  /** What our client wrote, as the suite saved it. */
  clientStdout: string;
  clientStderr: string;
}

export function conformanceInstalled(): boolean {
  return existsSync(NODE22) && existsSync(CONFORMANCE_CLI);
}

/** The shell command the suite runs (it appends the server URL). */
export function clientCommand(clientPath: string = DEFAULT_CLIENT): string {
  const loader = pathToFileURL(require.resolve('tsx')).href;
  return [process.execPath, '--import', loader, clientPath].map(shellQuote).join(' ');
}

export async function runConformance(scenario: string, opts: { clientPath?: string; outputDir?: string; timeoutMs?: number } = {}): Promise<ConformanceRun> {
  if (!conformanceInstalled()) throw new Error('conformance suite missing from .tools/conformance: run node scripts/test-tools.mjs');
  const outputDir = opts.outputDir ?? mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  const args = [
    CONFORMANCE_CLI,
    'client',
    '--command',
    clientCommand(opts.clientPath),
    '--scenario',
    scenario,
    '--timeout',
    String(opts.timeoutMs ?? 30000),
    '--output-dir',
    outputDir,
  ];
  const { code, output } = await new Promise<{ code: number; output: string }>((resolvePromise) => {
    execFile(NODE22, args, { cwd: outputDir, timeout: (opts.timeoutMs ?? 30000) + 30000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const exit = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolvePromise({ code: exit, output: `${stdout}${stderr}` });
    });
  });

  const resultDir = latestResultDir(outputDir, scenario);
  if (!resultDir) throw new Error(`conformance wrote no results for ${scenario} (exit ${code}):\n${output}`);
  const checks = JSON.parse(readFileSync(join(resultDir, 'checks.json'), 'utf8')) as ConformanceCheck[];
  const scored = checks.filter((c) => c.status === 'SUCCESS' || c.status === 'FAILURE' || c.status === 'WARNING');
  return {
    scenario,
    exitCode: code,
    checks,
    scored,
    failures: checks.filter((c) => c.status === 'FAILURE'),
    resultDir,
    output,
    clientStdout: readIfExists(join(resultDir, 'stdout.txt')),
    clientStderr: readIfExists(join(resultDir, 'stderr.txt')),
  };
}

function latestResultDir(outputDir: string, scenario: string): string | undefined {
  const candidates = readdirSync(outputDir)
    .filter((name) => name.startsWith(`${scenario}-`) && existsSync(join(outputDir, name, 'checks.json')))
    .map((name) => join(outputDir, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  return candidates[0];
}

function readIfExists(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { scenario: { type: 'string', multiple: true }, client: { type: 'string' } } });
  if (!conformanceInstalled()) ensureTestTools();
  let failed = false;
  for (const scenario of values.scenario ?? [...REQUIRED_SCENARIOS]) {
    const run = await runConformance(scenario, { clientPath: values.client ? resolve(values.client) : undefined });
    const passed = run.scored.filter((c) => c.status === 'SUCCESS').length;
    process.stdout.write(`${scenario}: ${passed}/${run.scored.length} checks passed (exit ${run.exitCode}) — ${run.resultDir}\n`);
    for (const check of run.scored.filter((c) => c.status !== 'SUCCESS')) {
      process.stdout.write(`  ${check.status} ${check.id}: ${check.errorMessage ?? ''}\n`);
    }
    if (run.failures.length > 0 || run.exitCode !== 0) {
      failed = true;
      if (run.clientStderr) process.stdout.write(`  client stderr:\n${run.clientStderr}\n`);
    }
  }
  process.exitCode = failed ? 1 : 0;
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
