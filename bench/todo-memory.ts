// Memory of the todo server's embedded database, measured in one run, systems interleaved, the
// median of ROUNDS rounds each. Each system starts in a fresh folder (a user's first start), takes
// 100 todos and a listing, and idles; the kernel's figures for the process are read from /proc:
// VmHWM (the peak resident set, first start included) and VmRSS after IDLE_MS of idling.
//
// - sqlite: the todo server itself (dist/servers/todo/main.js over stdio, as Node-RED starts it).
// - pglite: the storage earlier versions used, PGlite with the same table and rows in a process
//   that also loads the MCP server SDK, without the MCP layer (that version is gone from the tree).
// - pglite-small: the same with PGlite's own memory settings turned down (the smallest initial
//   WebAssembly memory it accepts, 128 MiB; 1 MB of shared buffers, 64 kB of work memory).
// - floor: Node alone with the MCP server SDK loaded, idle: what any MCP server in Node costs.
//
// Run: npm run bench:todo-memory (after npm run build). Prints a table and the ratios to the goal
// of 64 MB idle and 128 MB peak.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { median } from './measure';

const ROOT = join(__dirname, '..');
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const IDLE_MS = 3000;
const TODOS = 100;

const mb = (kb: number) => kb / 1024;
function memory(pid: number): { peak: number; rss: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { peak: mb(field('VmHWM')), rss: mb(field('VmRSS')) };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function sqliteRound(node: string): Promise<{ peak: number; rss: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-todo-sqlite-'));
  const transport = new StdioClientTransport({
    command: node,
    args: [join(ROOT, 'dist', 'servers', 'todo', 'main.js'), 'stdio'],
    env: { PATH: process.env.PATH ?? '', TODO_DATA_DIR: dir },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  try {
    await client.connect(transport);
    for (let i = 0; i < TODOS; i++) await client.callTool({ name: 'create_todo', arguments: { title: `todo ${i}`, tags: ['bench'] } });
    await client.callTool({ name: 'list_todos', arguments: { status: 'all', limit: 100 } });
    await sleep(IDLE_MS);
    return memory(transport.pid!);
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const PGLITE_SCRIPT = (small: boolean) => `
require('@modelcontextprotocol/server');
import('@electric-sql/pglite').then(async ({ PGlite }) => {
  const db = await PGlite.create(process.argv[1], ${small ? `{ initialMemory: 128 * 1024 * 1024, postgresqlconf: ['shared_buffers = 1MB', 'work_mem = 64kB'] }` : '{}'});
  await db.exec("CREATE TABLE IF NOT EXISTS todos (todo_id text PRIMARY KEY, title text NOT NULL, description text, due_date timestamptz, priority text NOT NULL DEFAULT 'medium', status text NOT NULL DEFAULT 'pending', tags text[] NOT NULL DEFAULT '{}', created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now())");
  for (let i = 0; i < ${TODOS}; i++) await db.query('INSERT INTO todos (todo_id, title, tags) VALUES ($1, $2, $3)', ['todo_' + i, 'todo ' + i, ['bench']]);
  await db.query("SELECT * FROM todos WHERE tags @> $1::text[] ORDER BY due_date ASC NULLS LAST LIMIT 100", [['bench']]);
  process.stdout.write('ready\\n');
  setTimeout(() => db.close().then(() => process.exit(0)), 60000);
});`;

async function pgliteRound(node: string, small: boolean): Promise<{ peak: number; rss: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-todo-pglite-'));
  const child = spawn(node, ['-e', PGLITE_SCRIPT(small), dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
      child.once('exit', (code) => reject(new Error(`pglite exited ${code}`)));
    });
    await sleep(IDLE_MS);
    return memory(child.pid!);
  } finally {
    child.kill();
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

const FLOOR_SCRIPT = `require('@modelcontextprotocol/server'); process.stdout.write('ready\\n'); setTimeout(() => {}, 60000);`;

async function floorRound(node: string): Promise<{ peak: number; rss: number }> {
  const child = spawn(node, ['-e', FLOOR_SCRIPT], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve) => child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve()));
    await sleep(IDLE_MS);
    return memory(child.pid!);
  } finally {
    child.kill();
    await new Promise((r) => child.once('exit', r));
  }
}

async function main(): Promise<void> {
  const { floorNode } = await import('../scripts/node-runtimes.mjs');
  const node = await floorNode(ROOT, 'bench:todo-memory');
  const systems = {
    sqlite: () => sqliteRound(node),
    pglite: () => pgliteRound(node, false),
    'pglite-small': () => pgliteRound(node, true),
    floor: () => floorRound(node),
  };
  const seen: Record<string, { peak: number[]; rss: number[] }> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of Object.entries(systems)) {
      const m = await run();
      (seen[name] ??= { peak: [], rss: [] }).peak.push(m.peak);
      seen[name].rss.push(m.rss);
      console.log(`round ${round + 1} ${name}: peak ${m.peak.toFixed(0)} MB, idle ${m.rss.toFixed(0)} MB`);
    }
  }
  console.log(`\ntodo server embedded database, median of ${ROUNDS} rounds (Node ${node === process.execPath ? process.version : '22 from .tools/node22'}):`);
  console.log('system        peak MB  idle MB  peak/128  idle/64  peak vs pglite');
  const base = median(seen.pglite.peak);
  for (const [name, m] of Object.entries(seen)) {
    const peak = median(m.peak);
    const idle = median(m.rss);
    console.log(
      `${name.padEnd(13)} ${peak.toFixed(0).padStart(7)}  ${idle.toFixed(0).padStart(7)}  ${(peak / 128).toFixed(2).padStart(8)}  ${(idle / 64).toFixed(2).padStart(7)}  ${(peak / base).toFixed(2).padStart(14)}`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
