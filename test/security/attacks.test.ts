// What an attacker on the network sends, against a real Node-RED process (as `npm start` runs it)
// with a token-protected mcp-endpoint and a token-protected mqtt-gateway listener: floods before
// authentication and oversized messages after it. Memory is read from the Node-RED process itself.
import assert from 'node:assert/strict';
import mqtt from 'mqtt';
import { freePort } from '../peers/free-port';
import { startNodeRed, type FlowNode, type NodeRedProcess } from '../helpers/node-red';
import { httpFlood, mqttConnectFlood } from './floods';
import { MB, peakGrowthDuring } from './process-memory';

const TOKEN = 'endpoint-token-7c41e0';
const DEVICE_TOKEN = 'device-token-2b9f55';
const LIMIT_BYTES = 64 * MB;

function flow(gatewayPort: number): FlowNode[] {
  return [
    { id: 'sec-tab', type: 'tab', label: 'security' },
    { id: 'sec-endpoint', type: 'mcp-endpoint', name: 'secure', path: '/secure-mcp', anonymous: false, credentials: { tokens: TOKEN } },
    {
      id: 'sec-tool',
      type: 'mcp-tool-in',
      z: 'sec-tab',
      endpoint: 'sec-endpoint',
      name: 'echo',
      inputSchema: { type: 'object', properties: { value: {} } },
      timeout: 30,
      wires: [['sec-out']],
    },
    { id: 'sec-out', type: 'mcp-tool-out', z: 'sec-tab', wires: [] },
    {
      id: 'sec-gateway',
      type: 'esp32-listener',
      name: 'gateway',
      transport: 'mqtt-gateway',
      bind: '127.0.0.1',
      port: String(gatewayPort),
      anonymous: false,
      voice: 'off',
      credentials: { tokens: DEVICE_TOKEN },
    },
    { id: 'sec-in', type: 'esp32-mcp-in', z: 'sec-tab', listener: 'sec-gateway', wires: [] },
  ];
}

function nested(levels: number): string {
  return '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
}

describe('security: attacks on a real Node-RED', function () {
  this.timeout(180_000);
  let nr: NodeRedProcess;
  let gatewayPort: number;
  let endpoint: string;

  before(async () => {
    gatewayPort = await freePort();
    nr = await startNodeRed();
    await nr.deploy(flow(gatewayPort));
    endpoint = `${nr.url}/secure-mcp`;
    const deadline = Date.now() + 15_000;
    while ((await fetch(endpoint, { method: 'POST' })).status === 404 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  });
  after(async () => {
    await nr?.stop();
  });

  describe('mcp-endpoint reads no body before the caller is known, and none past 4 MiB', () => {
    for (const contentType of ['text/plain', 'application/octet-stream']) {
      it(`200 MB of ${contentType} without a token: 401 at once, Node-RED's memory grows under 64 MB`, async () => {
        const { result, growthBytes } = await peakGrowthDuring(nr.pid, () => httpFlood(endpoint, 200 * MB, { 'content-type': contentType }));
        console.log(
          `      ${contentType}: HTTP ${result.status} after ${(result.sentBytes / MB).toFixed(0)} MB sent; RSS +${(growthBytes / MB).toFixed(1)} MB`,
        );
        assert.equal(result.status, 401);
        assert.ok(growthBytes < LIMIT_BYTES, `RSS grew ${(growthBytes / MB).toFixed(1)} MB`);
        assert.ok(result.sentBytes < 200 * MB, 'the endpoint answered before the whole body was sent');
      });
    }

    it("200 MB of application/json without a token never reaches the endpoint: Node-RED's own JSON parser answers 413", async () => {
      // With the admin API at / (Node-RED's default), its JSON parser sees every JSON request first
      // and refuses one over its limit (5 MB) itself; it reads the rest of the body to discard it,
      // which shows as a passing rise of the process's memory, not as a body kept.
      const { result, growthBytes } = await peakGrowthDuring(nr.pid, () => httpFlood(endpoint, 200 * MB, { 'content-type': 'application/json' }));
      console.log(
        `      application/json: HTTP ${result.status} after ${(result.sentBytes / MB).toFixed(0)} MB sent; RSS +${(growthBytes / MB).toFixed(1)} MB (Node-RED's parser)`,
      );
      assert.ok(result.status === 413 || result.status === 401, `HTTP ${result.status}`);
      assert.ok(growthBytes < 200 * MB, 'the body was not kept whole');
    });

    it('200 MB with the right token: 413 once past the limit, memory under 64 MB', async () => {
      const headers = { 'content-type': 'application/octet-stream', authorization: `Bearer ${TOKEN}`, accept: 'application/json, text/event-stream' };
      const { result, growthBytes } = await peakGrowthDuring(nr.pid, () => httpFlood(endpoint, 200 * MB, headers));
      console.log(`      authorized: HTTP ${result.status}; RSS +${(growthBytes / MB).toFixed(1)} MB`);
      assert.equal(result.status, 413);
      assert.match(JSON.parse(result.body).error.message, /larger than 4096 KiB/);
      assert.ok(growthBytes < LIMIT_BYTES, `RSS grew ${(growthBytes / MB).toFixed(1)} MB`);
    });

    it('arguments nested 5,000 levels: a clear 400 after auth; 100,000 levels without a token: 401, not 500', async () => {
      const call = (levels: number, token?: string) =>
        fetch(endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"value":${nested(levels)}}}}`,
        });
      const deep = await call(5000, TOKEN);
      assert.equal(deep.status, 400);
      assert.match((await deep.json()).error.message, /nests deeper than 100 levels/);
      const deeper = await call(100_000);
      assert.equal(deeper.status, 401);
      await deeper.body?.cancel();
      const fine = await call(50, TOKEN);
      assert.doesNotMatch(await fine.text(), /nests deeper/, 'fifty levels pass the nesting check');
    });
  });

  describe('mqtt-gateway closes oversized packets before and after CONNECT', () => {
    it('a 250 MB CONNECT from a client with no credentials is closed on its header; memory under 64 MB', async () => {
      const { result, growthBytes } = await peakGrowthDuring(nr.pid, () => mqttConnectFlood(gatewayPort, 250 * MB));
      console.log(`      closed after ${(result.sentBytes / MB).toFixed(0)} MB sent; RSS +${(growthBytes / MB).toFixed(1)} MB`);
      assert.equal(result.closedByServer, true);
      assert.ok(result.sentBytes < 250 * MB);
      assert.ok(growthBytes < LIMIT_BYTES, `RSS grew ${(growthBytes / MB).toFixed(1)} MB`);
    });

    it("a logged-in device's 10 MB PUBLISH closes its connection; a normal one stays served", async () => {
      const device = await mqtt.connectAsync(`mqtt://127.0.0.1:${gatewayPort}`, {
        clientId: 'GID_test@@@aa_bb_cc_dd_ee_01@@@4b1e6a52-1c3f-4b7e-9a55-2f3a4c5d6e7f',
        username: 'device',
        password: DEVICE_TOKEN,
        reconnectPeriod: 0,
      });
      try {
        await device.publishAsync('device-server', JSON.stringify({ type: 'hello', version: 3, transport: 'udp' }));
        assert.equal(device.connected, true, 'a small message is accepted');
        const closed = new Promise<void>((resolve) => device.once('close', () => resolve()));
        device.publish('device-server', Buffer.alloc(10 * MB, 0x20));
        await closed;
      } finally {
        await device.endAsync(true);
      }
    });
  });
});
