// The lenient reading seen from gemini-agent (the strict fake Gemini accepts the declarations of
// the repaired tools, and a repaired tool is called) and from an ESP32 device whose firmware lists
// a tool without a root type, a phantom requirement, and a tool without a name.
import assert from 'node:assert/strict';
import { reply } from '../peers/fake-gemini';
import { startLenientServer, USABLE_TOOL_NAMES } from '../peers/lenient-server';
import { ottoRobot, XiaozhiWsDevice } from '../peers/xiaozhi-device';
import type { HttpEndpoint } from '../../servers/todo/http-transport';
import { agentFlow, ALL_NODES, run, type FakeGemini, useAgentPeers } from '../gemini/harness';
import { load, nextMessage, send, startRuntime, stopRuntime, type FlowNode } from '../helpers/runtime';
import { helper } from '../gemini/harness';
import { OTTO_ID } from '../esp32/helpers';

describe('lenient reading: gemini-agent and an ESP32 device (real runtime)', function () {
  this.timeout(30000);
  let peer: HttpEndpoint;
  let fake: FakeGemini;
  const peers = useAgentPeers({ homeAssistant: false });
  before(async () => (peer = await startLenientServer()));
  after(() => peer.close());
  beforeEach(() => ({ fake } = peers));

  for (const protocolVersion of ['auto', '2025-11-25']) {
    it(`gemini-agent declares every usable tool, the strict fake Gemini accepts them, and a repaired tool is called (${protocolVersion})`, async () => {
      const { flow, credentials } = agentFlow({ fake, servers: [{ id: 'len', name: 'lenient', transport: 'http', url: peer.url }] });
      flow.find((n) => n.id === 'len').protocolVersion = protocolVersion;
      await helper.load(ALL_NODES, flow, credentials);
      fake.script(
        reply.calls([
          { name: 'typeless_root', args: { a: 'from Gemini' } },
          { name: 'odd_result', args: { kind: 'unknown-type' } },
        ]),
        reply.text('done'),
      );
      const { answer, caught } = await run({ payload: 'use the odd tools' });
      assert.equal(caught, undefined, caught && caught.error?.message);
      const declared = fake.requests[0].body.tools[0].functionDeclarations.map((d: any) => d.name);
      assert.deepEqual(declared, USABLE_TOOL_NAMES);
      const typeless = fake.requests[0].body.tools[0].functionDeclarations.find((d: any) => d.name === 'typeless_root');
      assert.equal(typeless.parametersJsonSchema.type, 'object');
      const calls = answer.gemini.steps[0].calls;
      assert.deepEqual(
        calls.map((c: any) => [c.tool, c.isError]),
        [
          ['typeless_root', false],
          ['odd_result', false],
        ],
      );
      assert.match(JSON.stringify(calls[0].result), /from Gemini/);
      assert.match(JSON.stringify(calls[1].result), /readable part/);
      assert.equal(answer.payload, 'done');
    });
  }
});

describe('lenient reading: ESP32 device with malformed tools (real runtime)', function () {
  this.timeout(30000);
  const esp32Nodes = [require('../../nodes/esp32-listener/index.ts'), require('../../nodes/esp32-mcp-in/index.ts')];
  const DEVICE_TOKEN = 'lenient-device-token';
  let device: XiaozhiWsDevice | undefined;
  before(startRuntime);
  after(stopRuntime);
  afterEach(async () => {
    device?.close();
    await helper.unload();
  });

  const flow: FlowNode[] = [
    { id: 'lst', type: 'esp32-listener', transport: 'websocket', path: '/xiaozhi/v1/' },
    { id: 'in', type: 'esp32-mcp-in', listener: 'lst', wires: [['events']] },
    { id: 'events', type: 'helper' },
    { id: 'srv', type: 'mcp-server', name: 'devices', transport: 'esp32', listener: 'lst', timeout: '5' },
    { id: 'list', type: 'mcp-list-tools', server: 'srv', format: 'gemini', wires: [['listed']] },
    { id: 'listed', type: 'helper' },
    { id: 'call', type: 'mcp-call-tool', server: 'srv', wires: [['called'], []] },
    { id: 'called', type: 'helper' },
    { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', type: 'helper' },
  ];

  it('lists and calls the repaired tool, leaves out the nameless one, and warns about both', async () => {
    await load(flow, { lst: { tokens: DEVICE_TOKEN } }, esp32Nodes);
    const fixture = ottoRobot();
    const extra = [
      {
        name: 'self.typeless',
        description: 'A custom board tool without a root type.',
        inputSchema: { properties: { level: { type: 'integer' } }, required: ['level', 'ghost'] },
      },
      { description: 'A tool without a name.', inputSchema: { type: 'object', properties: {} } },
    ];
    fixture.tools = [...extra, ...fixture.tools] as typeof fixture.tools;
    const tools = new Promise<any>((resolve) => helper.getNode('events').on('input', (m: any) => m.topic === 'tools' && resolve(m)));
    const caught: any[] = [];
    helper.getNode('caught').on('input', (m: any) => caught.push(m));
    device = await XiaozhiWsDevice.connect({ url: helper.url().replace('http', 'ws') + '/xiaozhi/v1/', deviceId: OTTO_ID, fixture, token: DEVICE_TOKEN });
    const event = await tools;
    const names = event.payload.map((t: any) => t.name);
    assert.equal(names[0], 'self.typeless');
    assert.equal(names.length, ottoRobot().tools.length + 1, 'every firmware tool plus the repaired one');

    const listedMsg = nextMessage('listed');
    send('list', { payload: 'go' });
    const listed = await listedMsg;
    const declared = listed.payload.functionDeclarations.find((d: any) => d.name === 'self_typeless');
    assert.ok(declared, 'the repaired tool is declared to Gemini');
    assert.deepEqual(declared.parametersJsonSchema.required, ['level']);
    const warned = listed.mcp.warnings.map((w: any) => `${w.tool} ${w.path}`);
    assert.ok(warned.includes('self.typeless inputSchema.type'), warned.join('; '));
    assert.ok(warned.includes('self.typeless inputSchema.required'), warned.join('; '));
    assert.ok(warned.includes('tools[1] name'), warned.join('; '));

    const called = nextMessage('called');
    send('call', { tool: 'self.typeless', payload: { level: 3 }, device: event.device });
    assert.equal((await called).payload, true);
    assert.deepEqual(
      caught.map((m) => m.error?.message),
      [],
      'nothing reaches Catch',
    );
  });
});
