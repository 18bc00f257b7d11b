// Importing an example to look at it must not open anything to the network. Every example is
// deployed as imported (nothing set up) into a real Node-RED: every endpoint refuses clients with
// 401, every device listener refuses devices, and the nodes' status says what to set and where.
// Then the tab variables the comments name are set, and the same doors open to that token only.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { XiaozhiWsDevice, lichuangDev } from '../peers/xiaozhi-device';
import { EXAMPLES_DIR, readExample, startNodeRed, withTabCredentials, type FlowNode, type NodeRedProcess } from '../helpers/node-red';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
};

async function initialize(nr: NodeRedProcess, path: string, token?: string): Promise<number> {
  const res = await fetch(`${nr.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(INITIALIZE),
  });
  await res.arrayBuffer();
  return res.status;
}

/** Whether a device presenting `token` (or none) is let in at `path`. */
async function deviceAdmitted(nr: NodeRedProcess, path: string, token?: string): Promise<boolean> {
  try {
    const device = await XiaozhiWsDevice.connect({
      url: `${nr.url.replace('http', 'ws')}${path}`,
      deviceId: 'aa:00:00:00:00:09',
      token,
      fixture: lichuangDev(),
    });
    device.close();
    return true;
  } catch {
    return false;
  }
}

async function until<T>(what: string, probe: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('examples: nothing opens to the network on import', function () {
  this.timeout(120_000);
  let nr: NodeRedProcess;
  const names = readdirSync(EXAMPLES_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''));
  const all: FlowNode[] = names.flatMap((n) => readExample(n));
  const endpoints = all.filter((n) => n.type === 'mcp-endpoint');
  const listeners = all.filter((n) => n.type === 'esp32-listener');

  before(async () => {
    nr = await startNodeRed();
  });
  after(async () => {
    await nr?.stop();
  });

  it('no example ships an anonymous endpoint or listener', () => {
    assert.ok(endpoints.length >= 2 && listeners.length >= 4, `${endpoints.length} endpoints, ${listeners.length} listeners`);
    assert.deepEqual(
      [...endpoints, ...listeners].filter((n) => n.anonymous !== false).map((n) => `${n.type} ${n.id}`),
      [],
    );
  });

  it('deployed as imported: every endpoint answers 401, every WebSocket listener refuses devices, and the status names the tab variable to set', async () => {
    await nr.deploy(all);
    for (const ep of endpoints)
      assert.equal(
        await until(
          `${ep.path} mounted`,
          () => initialize(nr, ep.path),
          (s) => s !== 404,
        ),
        401,
        `${ep.path} without a token`,
      );
    for (const ep of endpoints) assert.equal(await initialize(nr, ep.path, 'a-guessed-token'), 401, `${ep.path} with a guessed token`);
    // The 401 a client's user reads names the variable the endpoint's owner must set, not "add a token to the node".
    for (const ep of endpoints.filter((n) => JSON.stringify(n).includes('MCP_TOKEN'))) {
      const res = await fetch(`${nr.url}${ep.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      const said = (await res.json()).message;
      assert.match(said, /takes its token from MCP_TOKEN, which is not set/, `${ep.path}: ${said}`);
    }
    const wsListeners = listeners.filter((l) => l.transport === 'websocket' && !l.port);
    for (const l of wsListeners) {
      assert.equal(await deviceAdmitted(nr, l.path), false, `${l.path} without a token`);
      assert.equal(await deviceAdmitted(nr, l.path, 'a-guessed-token'), false, `${l.path} with a guessed token`);
    }
    // What the user sees on the canvas: the users of each closed door say what to do.
    const toolIn = all.find((n) => n.type === 'mcp-tool-in' && endpoints.some((e) => e.id === n.endpoint))!;
    const esp32In = all.filter((n) => n.type === 'esp32-mcp-in' && listeners.some((l) => l.id === n.listener && l.credentials?.tokens));
    assert.ok(esp32In.length >= 2, 'the voice examples have esp32-mcp-in nodes');
    await until(
      'status of the endpoint and listener users',
      async () => [toolIn, ...esp32In].map((n) => nr.debug.statuses.get(n.id)?.text),
      (texts) => texts.every(Boolean),
    );
    assert.equal(nr.debug.statuses.get(toolIn.id)?.text, 'no token: set MCP_TOKEN on the tab');
    for (const n of esp32In) assert.equal(nr.debug.statuses.get(n.id)?.text, 'no token: set DEVICE_TOKEN on the tab', n.id);
    // And the log says where, once per deploy, naming every node that waits for the variable.
    const endpointAdvice = nr.log.filter((l) => /take their token from MCP_TOKEN, which is not set/.test(l));
    assert.equal(endpointAdvice.length, 1, endpointAdvice.join('\n'));
    for (const e of endpoints.filter((n) => JSON.stringify(n).includes('MCP_TOKEN'))) assert.ok(endpointAdvice[0].includes(e.path), `${e.path} named`);
    const listenerAdvice = nr.log.filter((l) => /take their device token from DEVICE_TOKEN, which is not set/.test(l));
    assert.equal(listenerAdvice.length, 1, listenerAdvice.join('\n'));
  });

  it("after the set-up the comments ask for (the tab's MCP_TOKEN / DEVICE_TOKEN), the doors open to that token only", async () => {
    const set = withTabCredentials(all, { MCP_TOKEN: 'chosen-endpoint-token', DEVICE_TOKEN: 'chosen-device-token' });
    // withTabCredentials sets both names on every tab; a tab's undeclared variable is ignored.
    await nr.deploy(set);
    for (const ep of endpoints) {
      assert.equal(
        await until(
          `${ep.path} with the token`,
          () => initialize(nr, ep.path, 'chosen-endpoint-token'),
          (s) => s === 200,
        ),
        200,
      );
      assert.equal(await initialize(nr, ep.path), 401);
    }
    for (const l of listeners.filter((x) => x.transport === 'websocket' && !x.port && x.credentials?.tokens)) {
      assert.equal(await until(`${l.path} admits the device`, () => deviceAdmitted(nr, l.path, 'chosen-device-token'), Boolean), true);
      assert.equal(await deviceAdmitted(nr, l.path, 'a-guessed-token'), false);
    }
  });
});
