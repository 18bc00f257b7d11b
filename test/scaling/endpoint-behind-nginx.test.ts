// Two real Node-REDs with the same flow (an mcp-endpoint with `instance: ${NODE_RED_INSTANCE}` and
// one tool that counts its calls in global context) behind Debian's nginx, configured as
// docs/scaling.md tells users: 2025-revision requests carrying a session id go to the instance
// named at the start of that id (the other one as backup), everything else round robin.
// 20 clients of each protocol era: the 2026-07-28 ones are the SDK's own client, the 2025 ones our
// McpSession (what an mcp-server node uses), which re-initializes once when a session is lost.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpSession } from '../../src/mcp/session';
import { freePort } from '../peers/free-port';
import { startNodeRed, type FlowNode, type NodeRedProcess } from '../helpers/node-red';
import { skipBecause } from '../helpers/skip';
import { nginxMissing, startNginx, type Nginx } from './nginx';
import { deviceUpstreams, mcpUpstreams } from './nginx-config';

const TOKEN = 'scaling-test-token';
const CLIENTS_PER_ERA = 20;

function flow(): FlowNode[] {
  return [
    { id: 'sc-tab', type: 'tab', label: 'scaled tools' },
    {
      id: 'sc-endpoint',
      type: 'mcp-endpoint',
      z: 'sc-tab',
      name: 'scaled',
      path: '/mcp',
      instance: '${NODE_RED_INSTANCE}',
      anonymous: false,
      credentials: { tokens: TOKEN },
    },
    {
      id: 'sc-in',
      type: 'mcp-tool-in',
      z: 'sc-tab',
      endpoint: 'sc-endpoint',
      name: 'where',
      description: 'Says which Node-RED answered, and counts the call there.',
      inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
      wires: [['sc-count']],
    },
    {
      id: 'sc-count',
      type: 'function',
      z: 'sc-tab',
      name: 'count',
      func: "const calls = (global.get('calls') || 0) + 1;\nglobal.set('calls', calls);\nmsg.payload = { instance: env.get('NODE_RED_INSTANCE'), calls, n: msg.payload.n };\nreturn msg;",
      outputs: 1,
      wires: [['sc-out']],
    },
    { id: 'sc-out', type: 'mcp-tool-out', z: 'sc-tab', wires: [] },
  ];
}

interface Caller {
  era: '2025' | '2026';
  call(n: number): Promise<{ instance: string }>;
  close(): Promise<void>;
}

async function modernClient(url: string): Promise<Caller> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } });
  const client = new Client({ name: 'scaling-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } } as never);
  await client.connect(transport);
  return {
    era: '2026',
    async call(n) {
      const r = await client.callTool({ name: 'where', arguments: { n } });
      if (r.isError) throw new Error(JSON.stringify(r.content));
      return JSON.parse((r.content as Array<{ text: string }>)[0].text);
    },
    close: () => client.close(),
  };
}

async function sessionClient(url: string, i: number): Promise<Caller> {
  const session = new McpSession({ id: `c${i}`, name: `client ${i}`, transport: 'http', url, token: TOKEN, timeoutMs: 10_000, protocolVersion: '2025-11-25' });
  return {
    era: '2025',
    async call(n) {
      const r = await session.callTool('where', { n });
      if (r.isError) throw new Error(JSON.stringify(r.content));
      return JSON.parse((r.content as Array<{ text: string }>)[0].text);
    },
    close: () => session.close(),
  };
}

/** Until the killed process is reaped (a zombie counts as alive here): the kernel still holds its sockets. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function globalCalls(nr: NodeRedProcess): Promise<number> {
  const res = await nr.request('GET', '/context/global/calls');
  const stored = res.body?.memory ?? res.body;
  return Number(stored?.msg ?? 0);
}

describe('scaling: the MCP endpoint on two Node-REDs behind nginx', function () {
  this.timeout(120_000);
  const missing = nginxMissing();
  let a: NodeRedProcess | undefined;
  let b: NodeRedProcess | undefined;
  let nginx: Nginx | undefined;
  let url = '';

  before(async function () {
    if (missing) return skipBecause(this, 'the MCP endpoint behind nginx', missing);
    [a, b] = await Promise.all([startNodeRed({ env: { NODE_RED_INSTANCE: 'a' } }), startNodeRed({ env: { NODE_RED_INSTANCE: 'b' } })]);
    await Promise.all([a.deploy(flow()), b.deploy(flow())]);
    const port = await freePort();
    nginx = await startNginx({
      http: `${mcpUpstreams({ a: new URL(a.url).host, b: new URL(b.url).host })}
  server {
    listen 127.0.0.1:${port};
    location /mcp {
      proxy_pass http://$mcp_upstream;
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header Connection "";
      proxy_buffering off;
      proxy_read_timeout 1h;
    }
  }`,
    });
    url = `http://127.0.0.1:${port}/mcp`;
    // Both endpoints answer before the run starts (the deploys above return before the nodes start).
    for (const nr of [a, b]) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const c = await modernClient(`${nr.url}/mcp`).catch(() => undefined);
        if (
          c &&
          (await c.call(0).then(
            () => true,
            () => false,
          ))
        ) {
          await c.close();
          break;
        }
        await c?.close();
        if (Date.now() > deadline) throw new Error(`${nr.url}/mcp never answered`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  });

  after(async () => {
    await nginx?.stop();
    await Promise.all([a?.stop(), b?.stop()]);
  });

  async function clients(): Promise<Caller[]> {
    return Promise.all([
      ...Array.from({ length: CLIENTS_PER_ERA }, () => modernClient(url)),
      ...Array.from({ length: CLIENTS_PER_ERA }, (_, i) => sessionClient(url, i)),
    ]);
  }

  it('1,000 tool calls from 20 clients of each era: none fails, no session is lost, both instances serve', async () => {
    const before = { a: await globalCalls(a!), b: await globalCalls(b!) };
    const callers = await clients();
    const perClient = 1000 / callers.length;
    const served: Record<string, Record<string, number>> = { '2025': {}, '2026': {} };
    const failures: string[] = [];
    await Promise.all(
      callers.map(async (c) => {
        for (let n = 0; n < perClient; n++) {
          try {
            const { instance } = await c.call(n);
            served[c.era][instance] = (served[c.era][instance] ?? 0) + 1;
          } catch (err) {
            failures.push(`${c.era}: ${(err as Error).message}`);
          }
        }
      }),
    );
    await Promise.all(callers.map((c) => c.close()));
    const counted = { a: (await globalCalls(a!)) - before.a, b: (await globalCalls(b!)) - before.b };
    console.log(
      `      served: 2026 era ${JSON.stringify(served['2026'])}, 2025 era ${JSON.stringify(served['2025'])}; counted in the flows a=${counted.a} b=${counted.b}`,
    );
    assert.deepEqual(failures, [], nginx!.errors());
    assert.equal(counted.a + counted.b, 1000, 'every call counted once, in one flow');
    assert.ok(counted.a > 100 && counted.b > 100, 'both instances served calls');
    for (const era of ['2025', '2026']) assert.ok(served[era].a > 0 && served[era].b > 0, `${era}-era calls reached both instances`);
    assert.doesNotMatch(nginx!.errors(), /no live upstreams/);
  });

  it('one instance killed mid-run: 2026-era clients go on at once, 2025-era ones re-initialize on the other, no call lost without an error', async () => {
    const callers = await clients();
    const ROUNDS = 10;
    let killedAt = Infinity;
    let killSentAt = Infinity;
    const outcomes: Array<{ client: Caller; era: string; startedAt: number; ok: boolean; instance?: string; error?: string }> = [];
    let round = 0;
    const killing = (async () => {
      while (round < 3) await new Promise((r) => setTimeout(r, 10));
      process.kill(-b!.pid, 'SIGKILL');
      killSentAt = performance.now();
      // Gone once reaped: its sockets closed with it. Until then the kernel still accepts
      // connections for it, and those requests fail with an error (nginx: 502).
      while (alive(b!.pid)) await new Promise((r) => setTimeout(r, 1));
      killedAt = performance.now();
    })();
    await Promise.all(
      callers.map(async (c, i) => {
        for (let n = 0; n < ROUNDS; n++) {
          if (i === 0) round = n;
          const startedAt = performance.now();
          // Every call settles: a result or an error to its caller, within the request timeout.
          let timer: NodeJS.Timeout | undefined;
          const outcome = await Promise.race([
            c.call(n).then(
              (r) => ({ ok: true, instance: r.instance }),
              (err: Error) => ({ ok: false, error: err.message }),
            ),
            new Promise<{ ok: false; error: string }>((r) => (timer = setTimeout(() => r({ ok: false, error: 'HUNG' }), 30_000))),
          ]);
          clearTimeout(timer);
          outcomes.push({ client: c, era: c.era, startedAt, ...outcome });
        }
      }),
    );
    await killing;
    await Promise.all(callers.map((c) => c.close().catch(() => undefined)));
    const afterKill = outcomes.filter((o) => o.startedAt > killedAt);
    const dying = outcomes.filter((o) => o.startedAt <= killedAt && !o.ok);
    const failedAfter = afterKill.filter((o) => !o.ok);
    if (process.env.SCALING_DEBUG)
      for (const o of failedAfter) console.log(`        ${o.era} +${(o.startedAt - killedAt).toFixed(1)} ms: ${o.error?.slice(0, 160)}`);
    console.log(
      `      ${outcomes.length} calls; b took ${(killedAt - killSentAt).toFixed(0)} ms to die after SIGKILL; ${dying.length} calls in flight or sent meanwhile failed with an error; ` +
        `${afterKill.length} started after, ${failedAfter.length} of them failed`,
    );
    assert.equal(outcomes.length, callers.length * ROUNDS);
    assert.ok(!outcomes.some((o) => o.error === 'HUNG'), 'no call hangs');
    assert.ok(afterKill.length > 100, 'the run went on after the kill');
    assert.deepEqual(
      failedAfter.map((o) => `${o.era}: ${o.error}`),
      [],
      nginx!.errors(),
    );
    assert.ok(
      afterKill.every((o) => o.instance === 'a'),
      'after the kill only a answers',
    );
    for (const era of ['2025', '2026'])
      assert.ok(
        afterKill.some((o) => o.era === era),
        `${era}-era clients called after the kill`,
      );
  });
});

describe('scaling: docs/scaling.md', () => {
  it('shows users the nginx configuration the scaling tests run (endpoint and devices)', () => {
    const page = readFileSync(join(__dirname, '../../docs/scaling.md'), 'utf8');
    assert.ok(
      page.includes(mcpUpstreams({ a: 'nodered-a:1880', b: 'nodered-b:1880' })),
      'the map and upstreams of docs/scaling.md differ from test/scaling/nginx-config.ts',
    );
    const devices = deviceUpstreams({ websocket: { a: 'nodered-a:1880', b: 'nodered-b:1880' }, gateway: { a: 'nodered-a:1884', b: 'nodered-b:1884' } });
    for (const [name, block] of Object.entries(devices))
      assert.ok(page.includes(block), `the devices' ${name} block of docs/scaling.md differs from test/scaling/nginx-config.ts`);
  });
});
