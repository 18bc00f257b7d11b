// stdio faults through the real runtime: a server that cannot start (module not found), one that
// prints junk and exits, one that dies in the middle of a call, and many redeploys. Each message
// ends at Catch with the exit code and the server's own last words; the retry loop writes one log
// line, not a stack per retry; redeploys leave no child process and no file descriptor behind.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromRuntime, helper, load, nextMessage, send, setEnv, sleep, startRuntime, stopRuntime } from '../helpers/runtime';

const ROOT = join(__dirname, '..', '..');
const REDEPLOYS = Number(process.env.RELIABILITY_REDEPLOYS ?? 30);
const statusNode = require(fromRuntime('@node-red/nodes/core/common/25-status.js'));

// Plain JS for `node -e`, run from the repository root so the SDK resolves.
const MCP_SERVER = (tools: string) => `
const { McpServer } = require('@modelcontextprotocol/server');
const { StdioServerTransport } = require('@modelcontextprotocol/server/stdio');
const server = new McpServer({ name: 'stdio-peer', version: '1.0.0' });
server.registerTool('ping', { description: 'answers pong' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
${tools}
server.connect(new StdioServerTransport());
`;
const CRASHES_IN_TOOL = MCP_SERVER(
  `server.registerTool('crash', { description: 'dies' }, async () => { console.error('Error: crashed in tool'); process.exit(7); });`,
);
const JUNK_THEN_EXIT = `
if (process.env.STARTS) require('fs').appendFileSync(process.env.STARTS, 'x');
process.stdout.write('hello, this is not JSON-RPC\\n');
console.error('starting up');
setTimeout(() => { console.error('Error: config file /etc/peer.conf missing'); process.exit(3); }, 100);
`;

// Reports which of the variables a Python server might need (or must never see) it got, then fails.
const REPORTS_ENV = `
const names = ['VIRTUAL_ENV', 'LANG', 'MCP_TOKEN', 'NODE_RED_CREDENTIAL_SECRET', 'MY_SERVICE_API_KEY', 'MIRROR_URL', 'MINE'];
console.error('Error: saw ' + names.filter((n) => n in process.env).join(',') + ';');
process.exit(1);
`;

function flow(server: Record<string, unknown>, tool = 'ping') {
  return [
    { id: 'srv', type: 'mcp-server', transport: 'stdio', command: process.execPath, cwd: ROOT, timeout: 10, ...server },
    { id: 'call', type: 'mcp-call-tool', server: 'srv', tool, wires: [['out'], []] },
    { id: 'list', type: 'mcp-list-tools', server: 'srv', wires: [['out']] },
    { id: 'out', type: 'helper' },
    { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', type: 'helper' },
    { id: 'watch', type: 'status', scope: ['call'], wires: [['statuses']] },
    { id: 'statuses', type: 'helper' },
  ];
}

/** Live (not zombie) stdio servers started by this process (the nodes under test). */
function childProcesses(): number[] {
  const mine = String(process.pid);
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // state ppid ...
      const ours = readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('McpServer'); // not tsx's esbuild
      if (fields[1] === mine && fields[0] !== 'Z' && ours) out.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

const openFds = () => readdirSync('/proc/self/fd').length;

describe('stdio faults end at Catch with the exit code and last stderr line', function () {
  this.timeout(120000);
  let dir: string;
  before(startRuntime);
  after(stopRuntime);
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'stdio-faults-'));
  });
  afterEach(async () => {
    await helper.unload();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a server whose module is missing: "exited with code 1: Error: Cannot find module …" in the error and the status', async () => {
    await load(flow({ args: ['/nonexistent/mcp-server.js'] }), {}, [statusNode]);
    const statuses: string[] = [];
    helper.getNode('statuses').on('input', (m: any) => statuses.push(m.status.text));
    const caught = nextMessage('caught');
    send('call', { payload: {} });
    const msg = await caught;
    assert.match(msg.error.message, /\/nonexistent\/mcp-server\.js: exited with code 1: Error: Cannot find module '\/nonexistent\/mcp-server\.js'/);
    assert.ok(
      statuses.some((s) => /^exited with code 1: Error: Cannot find module '\/nonexistent/.test(s)),
      `statuses: ${statuses.join(', ')}`,
    );
  });

  it('junk on stdout, then exit 3: the error quotes its last stderr line; retries log one line, not one per stderr line', async () => {
    const starts = join(dir, 'starts');
    await load(flow({ args: ['-e', JUNK_THEN_EXIT], env: { STARTS: starts } }), {}, [statusNode]);
    const caught = nextMessage('caught');
    send('call', { payload: {} });
    const msg = await caught;
    assert.match(msg.error.message, /exited with code 3: Error: config file \/etc\/peer\.conf missing/);
    // Let the reconnect loop try twice more (1 s, then 2 s later), then read what it logged.
    while (!existsSync(starts) || readFileSync(starts, 'utf8').length < 3) await sleep(100);
    await sleep(300);
    // What a user's log shows at the default level (info, 40, and more severe); debug lines are off.
    const lines = helper
      .log()
      .args.filter((a: any[]) => a[0]?.level <= 40)
      .map((a: any[]) => String(a[0]?.msg ?? ''));
    const failureLines = lines.filter((l: string) => l.includes('exited with code 3'));
    assert.equal(failureLines.length, 1, `one line for the repeated failure:\n${failureLines.join('\n')}`);
    assert.match(failureLines[0], /retrying in \d+ s/);
    // (the failure line quotes the -e script itself, so look at the other lines)
    assert.equal(
      lines.filter((l: string) => l.includes('starting up') && !l.includes('exited with code')).length,
      0,
      'stderr of a server that never spoke MCP is not logged per retry',
    );
  });

  it('a relative command that does not exist says which folder it was looked up in', async () => {
    await load([
      { id: 'srv', type: 'mcp-server', transport: 'stdio', command: './servers/missing-server.sh', cwd: dir, timeout: 10 },
      { id: 'list', type: 'mcp-list-tools', server: 'srv', wires: [['out']] },
      { id: 'out', type: 'helper' },
      { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
      { id: 'caught', type: 'helper' },
    ]);
    const caught = nextMessage('caught');
    send('list', {});
    const msg = await caught;
    assert.match(
      msg.error.message,
      /was looked up relative to .*\(the Working dir\), that is .*servers\/missing-server\.sh: give an absolute path or set Working dir/,
    );
    assert.ok(msg.error.message.includes(dir), msg.error.message);
  });

  describe("the server's environment", () => {
    let restore: () => void;
    before(() => {
      restore = setEnv({
        VIRTUAL_ENV: '/opt/venv',
        LANG: 'de_DE.UTF-8',
        MCP_TOKEN: 'endpoint-token-in-env',
        NODE_RED_CREDENTIAL_SECRET: 'credential-secret-in-env',
        MY_SERVICE_API_KEY: 'service-key-in-env',
        MIRROR_URL: 'https://user:hunter2@mirror.example/simple',
      });
    });
    after(() => restore());

    it('by default the server gets only the short list and its own entries, and the error names what it got', async () => {
      await load(flow({ args: ['-e', REPORTS_ENV], env: { MINE: 'x' } }));
      const caught = nextMessage('caught');
      send('call', { payload: {} });
      const msg = await caught;
      assert.match(msg.error.message, /Error: saw MINE;/);
      assert.match(msg.error.message, /the server got only HOME, .*MINE.*PATH.*tick "Inherit Node-RED's environment"/);
    });

    it("with Inherit Node-RED's environment it gets VIRTUAL_ENV and the locale, never a secret", async () => {
      await load(flow({ args: ['-e', REPORTS_ENV], env: { MINE: 'x' }, inheritEnv: true }));
      const caught = nextMessage('caught');
      send('call', { payload: {} });
      const msg = await caught;
      assert.match(msg.error.message, /Error: saw VIRTUAL_ENV,LANG,MINE;/);
      assert.match(msg.error.message, /Node-RED's environment without its secrets/);
    });
  });

  it('a server that dies during a call: the call fails naming the exit and the tool', async () => {
    await load(flow({ args: ['-e', CRASHES_IN_TOOL] }, 'crash'));
    const caught = nextMessage('caught');
    send('call', { payload: {} });
    const msg = await caught;
    assert.match(msg.error.message, /tools\/call "crash" failed: the server exited with code 7: Error: crashed in tool/);
  });

  it(`${REDEPLOYS} redeploys leave one server process and no file descriptors behind`, async () => {
    const serverFlow = (i: number) => flow({ name: `deploy ${i}`, args: ['-e', MCP_SERVER('')] });
    await load(serverFlow(0));
    const first = nextMessage('out');
    send('list', {});
    await first;
    const fdsAfterFirst = openFds();
    for (let i = 1; i <= REDEPLOYS; i++) {
      await load(serverFlow(i)); // unload (closes the session, kills the group) and start anew
      const listed = nextMessage('out');
      send('list', {});
      assert.equal((await listed).payload.length, 1);
    }
    const alive = childProcesses();
    assert.equal(
      alive.length,
      1,
      `only the current deploy has a server process: ${alive.map((p) => readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ').slice(0, 80)).join(' | ')}`,
    );
    const fdsNow = openFds();
    assert.ok(fdsNow <= fdsAfterFirst + 4, `file descriptors: ${fdsAfterFirst} after the first deploy, ${fdsNow} after ${REDEPLOYS} more`);
    await helper.unload();
    assert.deepEqual(childProcesses(), [], 'no server process outlives its node');
  });
});
