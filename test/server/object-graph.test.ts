// Seed 002's object graph over Node-RED global context, through the real runtime and the real MCP
// client: every tool, every limit, every refusal, and that a refused write leaves context as it was.
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { helper } from '../helpers/runtime';
import { connect, disconnect, loadFlow, startEndpointRuntime, stopEndpointRuntime, textOf, type FlowNode } from './harness';
import { home } from './home-fixture';

const TOKEN = 'graph-token';
const GRAPH = ['query', 'get_property', 'set_property', 'list_types', 'list_methods', 'invoke_method'];

function flow(endpoint: Record<string, unknown>): FlowNode[] {
  return [
    { id: 'ep', type: 'mcp-endpoint', path: '/mcp', ...endpoint },
    { id: 'in-status', type: 'mcp-tool-in', endpoint: 'ep', name: 'status', wires: [['out']] },
    {
      id: 'in-set-target',
      type: 'mcp-tool-in',
      endpoint: 'ep',
      subject: '/home/bedroom/thermostat',
      name: 'SetTarget',
      description: 'Sets the target temperature.',
      inputSchema: { type: 'object', properties: { temperature: { type: 'number', description: 'degrees Celsius' } }, required: ['temperature'] },
      wires: [['set-fn']],
    },
    {
      id: 'set-fn',
      type: 'function',
      func: 'global.set("home.bedroom.thermostat.targetTemperature", msg.payload.temperature); msg.payload = {target: msg.payload.temperature}; return msg;',
      wires: [['out']],
    },
    { id: 'out', type: 'mcp-tool-out' },
  ];
}

const global = () => (helper.getNode('ep') as any).context().global;

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  return { result, data: result.structuredContent as any, text: textOf(result) };
}

describe('object graph over context', function () {
  this.timeout(30000);
  let c: Awaited<ReturnType<typeof connect>>;
  before(startEndpointRuntime);
  after(stopEndpointRuntime);
  afterEach(async () => c && (await disconnect(c)));

  async function start(endpoint: Record<string, unknown>) {
    await loadFlow(flow(endpoint), { ep: { tokens: TOKEN } });
    global().set('home', home());
    c = await connect('/mcp', '2026-07-28', TOKEN);
  }

  it('exposes nothing by default: no roots, no graph tools, and query is unknown', async () => {
    await start({});
    const names = (await c.client.listTools()).tools.map((t) => t.name);
    assert.deepEqual(names, ['status']);
    await assert.rejects(c.client.callTool({ name: 'query', arguments: {} }), /Unknown tool: query/);
  });

  describe('with global.home exposed', () => {
    beforeEach(() => start({ roots: 'global.home', writable: '/home/*/thermostat/targetTemperature\n/home/**/on' }));

    it('lists the six graph tools after the flow tools; subject methods are not top-level tools', async () => {
      const names = (await c.client.listTools()).tools.map((t) => t.name);
      assert.deepEqual(names, ['status', ...GRAPH]);
    });

    it('query with no path lists the roots with their metadata', async () => {
      const { data } = await call(c.client, 'query');
      assert.deepEqual(data, { path: '/', subjects: { home: { $title: 'Home', $hasChildren: true } }, truncated: false, subjectCount: 1 });
    });

    it('query /home depth 2 with properties: $-metadata, units, isWritable, $methods, nesting', async () => {
      const { data } = await call(c.client, 'query', { path: '/home', depth: 2, includeProperties: true });
      assert.equal(data.path, '/home');
      assert.equal(data.subjectCount, 4);
      assert.equal(data.truncated, false);
      assert.deepEqual(data.subjects.livingRoom, {
        $type: 'LivingRoom',
        $interfaces: ['Sensors.ITemperatureSensor', 'Sensors.IHumiditySensor'],
        $title: 'Living Room',
        $icon: 'Weekend',
        $hasChildren: true,
        temperature: { value: 21.5, unit: 'DegreeCelsius', isWritable: false },
        humidity: { value: 45, unit: 'Percent', isWritable: false },
        lamp: { $type: 'Lamp', $interfaces: ['Devices.ISwitch'], $hasChildren: false, on: { value: false, isWritable: true } },
      });
      assert.deepEqual(data.subjects.bedroom.thermostat, {
        $type: 'Thermostat',
        $interfaces: ['Sensors.ITemperatureSensor', 'Devices.IControllable'],
        $methods: ['SetTarget'],
        $hasChildren: false,
        currentTemperature: { value: 19.2, isWritable: false },
        targetTemperature: { value: 20, isWritable: true },
      });
    });

    it('query depth 1 without properties shows one level and only metadata', async () => {
      const { data } = await call(c.client, 'query', { path: '/home' });
      assert.deepEqual(Object.keys(data.subjects), ['livingRoom', 'bedroom']);
      assert.deepEqual(data.subjects.bedroom, { $type: 'Bedroom', $interfaces: ['Sensors.ITemperatureSensor'], $hasChildren: true });
    });

    it('query filter.types keeps matching subjects (and the rooms that contain them)', async () => {
      const { data } = await call(c.client, 'query', { path: '/home', depth: 2, filter: { types: ['Devices.ISwitch'] } });
      assert.deepEqual(Object.keys(data.subjects), ['livingRoom']);
      assert.deepEqual(
        Object.keys(data.subjects.livingRoom).filter((k) => !k.startsWith('$')),
        ['lamp'],
      );
    });

    it('get_property: value, JSON type, unit and isWritable', async () => {
      assert.deepEqual((await call(c.client, 'get_property', { path: '/home/livingRoom/temperature' })).data, {
        value: 21.5,
        type: 'number',
        isWritable: false,
        unit: 'DegreeCelsius',
      });
      assert.deepEqual((await call(c.client, 'get_property', { path: '/home/bedroom/thermostat/targetTemperature' })).data, {
        value: 20,
        type: 'integer',
        isWritable: true,
      });
    });

    it('set_property on a writable path changes context and returns the previous value', async () => {
      const { data } = await call(c.client, 'set_property', { path: '/home/bedroom/thermostat/targetTemperature', value: 22.5 });
      assert.deepEqual(data, { success: true, previousValue: 20 });
      assert.equal(global().get('home').bedroom.thermostat.targetTemperature, 22.5);
      await call(c.client, 'set_property', { path: '/home/livingRoom/lamp/on', value: true });
      assert.equal(global().get('home').livingRoom.lamp.on, true);
    });

    const refusals: Array<[string, Record<string, unknown>, RegExp]> = [
      ['a path outside the writable globs', { path: '/home/livingRoom/temperature', value: 30 }, /not writable/],
      ['a missing path (even inside a glob)', { path: '/home/garage/on', value: true }, /Nothing at \/home\/garage/],
      ['a value of another type', { path: '/home/livingRoom/lamp/on', value: 'yes' }, /holds a boolean; a string was given/],
      ['metadata', { path: '/home/livingRoom/lamp/$type', value: 'Heater' }, /metadata/],
      ['a path deeper than maxDepth', { path: '/home/a/b/c/d/e/f/g/h/i/j', value: 1 }, /11 levels deep; this endpoint allows at most 10/],
    ];
    for (const [what, args, reason] of refusals) {
      it(`set_property refuses ${what} with a tool error, and context is unchanged`, async () => {
        const before = structuredClone(global().get('home'));
        const { result, text } = await call(c.client, 'set_property', args);
        assert.equal(result.isError, true);
        assert.match(text, reason);
        assert.deepEqual(global().get('home'), before);
      });
    }

    it('get_property and query refuse subjects/properties mixed up, and missing paths', async () => {
      assert.match((await call(c.client, 'get_property', { path: '/home/bedroom' })).text, /is a subject/);
      assert.match((await call(c.client, 'query', { path: '/home/bedroom/temperature' })).text, /is a property/);
      assert.match((await call(c.client, 'query', { path: '/garage' })).text, /the roots are \/home/);
      assert.match((await call(c.client, 'query', { path: '/home', depth: 11 })).text, /over this endpoint's limit of 10/);
    });

    it('list_types lists the capability interfaces with the descriptions the data gives', async () => {
      const { data } = await call(c.client, 'list_types');
      assert.deepEqual(data.types, [
        { name: 'Devices.IControllable' },
        { name: 'Devices.ISwitch', description: 'Can be turned on/off' },
        { name: 'Sensors.IHumiditySensor' },
        { name: 'Sensors.ITemperatureSensor', description: 'Provides temperature readings' },
      ]);
    });

    it('list_methods and invoke_method reach the mcp-tool-in bound to the subject', async () => {
      const { data } = await call(c.client, 'list_methods', { path: '/home/bedroom/thermostat' });
      assert.deepEqual(data, {
        methods: [
          {
            name: 'SetTarget',
            kind: 'operation',
            description: 'Sets the target temperature.',
            parameters: [{ name: 'temperature', type: 'number', required: true, description: 'degrees Celsius' }],
          },
        ],
      });
      assert.deepEqual((await call(c.client, 'list_methods', { path: '/home/bedroom' })).data, { methods: [] });
      const invoked = await call(c.client, 'invoke_method', { path: '/home/bedroom/thermostat', method: 'SetTarget', arguments: { temperature: 23 } });
      assert.deepEqual(invoked.data, { success: true, result: { target: 23 } });
      assert.equal(global().get('home').bedroom.thermostat.targetTemperature, 23);
    });

    it('invoke_method refuses an unknown method and invalid arguments, and runs nothing', async () => {
      const before = structuredClone(global().get('home'));
      assert.match(
        (await call(c.client, 'invoke_method', { path: '/home/bedroom/thermostat', method: 'TurnOff' })).text,
        /has no method "TurnOff"; its methods are SetTarget/,
      );
      assert.match(
        (await call(c.client, 'invoke_method', { path: '/home/bedroom/thermostat', method: 'SetTarget', arguments: { temperature: 'hot' } })).text,
        /Invalid arguments for SetTarget/,
      );
      assert.match((await call(c.client, 'invoke_method', { path: '/home/bedroom', method: 'SetTarget' })).text, /has no method/);
      assert.deepEqual(global().get('home'), before);
    });
  });

  it('maxSubjects cuts a query short and says so (truncated, subjectCount)', async () => {
    await start({ roots: 'global.home', maxSubjects: 2 });
    const { data } = await call(c.client, 'query', { path: '/home', depth: 3 });
    assert.equal(data.truncated, true);
    assert.equal(data.subjectCount, 2);
  });

  it('maxDepth limits query depth and paths', async () => {
    await start({ roots: 'global.home', maxDepth: 3 });
    assert.match((await call(c.client, 'query', { path: '/home', depth: 4 })).text, /depth 4 is over this endpoint's limit of 3/);
    assert.match(
      (await call(c.client, 'get_property', { path: '/home/bedroom/thermostat/targetTemperature' })).text,
      /4 levels deep; this endpoint allows at most 3/,
    );
    assert.equal((await call(c.client, 'get_property', { path: '/home/bedroom/temperature' })).data.value, 19.2);
  });

  it("serves a tab's flow context (flow:<tab id>.<key>) next to a global root", async () => {
    await start({ roots: 'global.home\nflow:tab1.garage', writable: '/garage/door/open' });
    const flowContext = (helper.getNode('set-fn') as any).context().flow;
    flowContext.set('garage', { $title: 'Garage', door: { $type: 'Door', open: false } });
    const { data } = await call(c.client, 'query');
    assert.deepEqual(Object.keys(data.subjects), ['home', 'garage']);
    assert.deepEqual((await call(c.client, 'set_property', { path: '/garage/door/open', value: true })).data, { success: true, previousValue: false });
    assert.equal(flowContext.get('garage').door.open, true);
    assert.equal(global().get('garage'), undefined, 'written to the flow context, not global');
  });

  it('with no writable paths the graph is read-only', async () => {
    await start({ roots: 'global.home' });
    const before = structuredClone(global().get('home'));
    const { result, text } = await call(c.client, 'set_property', { path: '/home/bedroom/thermostat/targetTemperature', value: 25 });
    assert.equal(result.isError, true);
    assert.match(text, /not writable/);
    assert.deepEqual(global().get('home'), before);
  });
});
