// bench/soak: a long-running house, measured from outside. A real Node-RED (node_modules/node-red/red.js,
// temp user dir with this package linked, started with --expose-gc) serves an HTTP endpoint
// `POST /soak/call` -> mcp-call-tool "echo" over Streamable HTTP -> http response (errors through
// Catch -> http response 500). The bench drives SOAK_CALLS calls (default 40,000) with
// SOAK_CONCURRENCY in flight (default 16) and reports:
//   answered / wrong / failed / lost (no answer within SOAK_CALL_TIMEOUT_MS, default 30 s),
//   MaxListenersExceededWarning (and any other process warning) lines in Node-RED's output,
//   Node-RED's heap after GC before and after the run,
//   and, as the same-run baseline, the cost per call relative to `POST /soak/plain` (http in ->
//   http response, no MCP) measured in the same process right before.
// Exit code 1 when a warning appeared, a call was lost or wrong, or the heap grew by 10 MB or more.
//   npm run build && SOAK_CALLS=2000 node --import tsx bench/soak.ts
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/peers/free-port';
import { startHostileHttpServer } from '../test/peers/hostile-http-server';

const home = require('../scripts/node-red-home.cjs') as { RED_JS: string; SETTINGS_FILE: string; prepareUserDir(dir: string): unknown };

const CALLS = Number(process.env.SOAK_CALLS ?? 40_000);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 16);
const CALL_TIMEOUT_MS = Number(process.env.SOAK_CALL_TIMEOUT_MS ?? 30_000);
const BASELINE_CALLS = Math.min(2000, Math.max(200, Math.round(CALLS / 20)));
const HEAP_LIMIT_MB = 10;

async function main(): Promise<void> {
  const peer = await startHostileHttpServer();
  const userDir = mkdtempSync(join(tmpdir(), 'mcp-gemini-soak-'));
  home.prepareUserDir(userDir);
  // Our settings plus two functions the heap probe needs (a function node has no process or gc).
  const settingsFile = join(userDir, 'soak-settings.cjs');
  writeFileSync(
    settingsFile,
    `module.exports = { ...require(${JSON.stringify(home.SETTINGS_FILE)}), functionGlobalContext: { gc: global.gc, memoryUsage: () => process.memoryUsage() } };\n`,
  );
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--expose-gc', home.RED_JS, '--userDir', userDir, '--settings', settingsFile], {
    env: { ...process.env, PORT: String(port), NODE_RED_HOST: '127.0.0.1', NODE_RED_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const collect = (chunk: Buffer) =>
    output.push(
      ...chunk
        .toString('utf8')
        .split('\n')
        .filter((l) => l.trim()),
    );
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  try {
    await waitReady(base, output);
    await deploy(base, peer.url);
    await warmUp(base);

    const plain = await drive(base, '/soak/plain', BASELINE_CALLS);
    const before = await heapAfterGc(base);
    const soak = await drive(base, '/soak/call', CALLS);
    const after = await heapAfterGc(base);

    const warnings = output.filter((l) => /MaxListenersExceededWarning/.test(l)).length;
    const otherWarnings = output.filter((l) => /\(node:\d+\) \w*Warning/.test(l) && !/MaxListenersExceededWarning/.test(l));
    const growthMb = (after - before) / 1e6;
    const perCall = soak.ms / soak.answered;
    const perPlain = plain.ms / plain.answered;
    console.log(`soak: ${CALLS} calls through Node-RED (red.js) -> mcp-call-tool -> Streamable HTTP, ${CONCURRENCY} in flight`);
    console.log(`  answered ${soak.answered}, wrong ${soak.wrong}, failed (Catch) ${soak.failed}, lost ${soak.lost}`);
    if (soak.firstFailure) console.log(`  first failure: ${soak.firstFailure}`);
    console.log(
      `  MaxListenersExceededWarning lines: ${warnings}; other process warnings: ${otherWarnings.length}${otherWarnings[0] ? ` (${otherWarnings[0]})` : ''}`,
    );
    console.log(`  Node-RED heap after GC: ${(before / 1e6).toFixed(1)} MB before, ${(after / 1e6).toFixed(1)} MB after (growth ${growthMb.toFixed(1)} MB)`);
    console.log(`  ${(soak.ms / 1000).toFixed(1)} s, ${((soak.answered / soak.ms) * 1000).toFixed(0)} calls/s`);
    console.log(`  baseline (same run, http in -> http response, ${BASELINE_CALLS} calls): ${perPlain.toFixed(2)} ms/call wall at ${CONCURRENCY} in flight`);
    console.log(`  ratio soak/baseline per call: ${(perCall / perPlain).toFixed(2)}x`);
    const ok = warnings === 0 && soak.lost === 0 && soak.wrong === 0 && soak.failed === 0 && growthMb < HEAP_LIMIT_MB;
    console.log(ok ? 'PASS' : 'FAIL');
    process.exitCode = ok ? 0 : 1;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await peer.stop();
    rmSync(userDir, { recursive: true, force: true });
  }
}

function flow(mcpUrl: string) {
  const z = 'soak';
  return [
    { id: z, type: 'tab', label: 'soak' },
    { id: 'soakServer', type: 'mcp-server', transport: 'http', url: mcpUrl, protocolVersion: '2025-06-18', timeout: 30 },
    { id: 'callIn', type: 'http in', z, url: '/soak/call', method: 'post', wires: [['callTool']] },
    { id: 'callTool', type: 'mcp-call-tool', z, server: 'soakServer', tool: 'echo', wires: [['reply'], []] },
    { id: 'plainIn', type: 'http in', z, url: '/soak/plain', method: 'post', wires: [['plainText']] },
    { id: 'plainText', type: 'function', z, func: 'msg.payload = msg.payload.text; return msg;', wires: [['reply']] },
    { id: 'failed', type: 'catch', z, scope: null, uncaught: false, wires: [['failure']] },
    { id: 'failure', type: 'function', z, func: 'msg.statusCode = 500; msg.payload = msg.error.message; return msg;', wires: [['reply']] },
    { id: 'heapIn', type: 'http in', z, url: '/soak/heap', method: 'get', wires: [['heap']] },
    {
      id: 'heap',
      type: 'function',
      z,
      func: "const gc = global.get('gc'); for (let i = 0; i < 3; i++) gc(); msg.payload = String(global.get('memoryUsage')().heapUsed); return msg;",
      wires: [['reply']],
    },
    { id: 'reply', type: 'http response', z },
  ];
}

interface DriveResult {
  answered: number;
  wrong: number;
  failed: number;
  lost: number;
  ms: number;
  firstFailure?: string;
}

async function drive(base: string, path: string, total: number): Promise<DriveResult> {
  const r: DriveResult = { answered: 0, wrong: 0, failed: 0, lost: 0, ms: 0 };
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      const text = `call ${next++}`;
      try {
        const res = await fetch(base + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ text }),
          signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
        });
        const body = await res.text();
        if (res.status !== 200) {
          r.failed++;
          r.firstFailure ??= `HTTP ${res.status} ${body.slice(0, 200)}`;
        } else if (body !== text) r.wrong++;
        else r.answered++;
      } catch (err) {
        r.lost++;
        r.firstFailure ??= `no answer: ${(err as Error).message}`;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  r.ms = performance.now() - started;
  return r;
}

async function warmUp(base: string): Promise<void> {
  const r = await drive(base, '/soak/call', 200);
  if (r.answered !== 200) throw new Error(`warm-up failed: ${JSON.stringify(r)}`);
}

async function heapAfterGc(base: string): Promise<number> {
  const res = await fetch(`${base}/soak/heap`);
  return Number(await res.text());
}

async function deploy(base: string, mcpUrl: string): Promise<void> {
  const res = await fetch(`${base}/flows`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Node-RED-Deployment-Type': 'full' },
    body: JSON.stringify(flow(mcpUrl)),
  });
  if (res.status !== 204 && res.status !== 200) throw new Error(`deploy failed: HTTP ${res.status} ${await res.text()}`);
  // The http in routes exist once the new flow has started.
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const probe = await fetch(`${base}/soak/heap`).catch(() => undefined);
    if (probe?.status === 200) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the soak flow did not start within 20 s');
}

async function waitReady(base: string, output: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const res = await fetch(`${base}/settings`).catch(() => undefined);
    if (res?.status === 200 && output.some((l) => l.includes('Started flows') || l.includes('Stopped flows'))) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Node-RED did not come up within 60 s:\n${output.join('\n')}`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
