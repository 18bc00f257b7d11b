// examples/home-as-object-graph.json end to end in a real Node-RED: the inject builds the home in
// global context, the endpoint serves it as the object graph, and the example's own mcp-server +
// gemini-agent reach it through Node-RED's own URL while the fake Gemini drives the tool calls.
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { reply } from '../peers/fake-gemini';
import { readExample, startNodeRed, assertCleanDeploy, withTabCredentials, type NodeRedProcess } from '../helpers/node-red';
import { startServicePeers, type ServicePeers } from './service-peers';

describe('examples: home-as-object-graph.json', function () {
  this.timeout(120_000);
  let peers: ServicePeers;
  let nr: NodeRedProcess;
  let client: Client;
  // After the set-up its comment asks for: a token in the tab's MCP_TOKEN.
  const TOKEN = 'example-endpoint-token-7d2e';
  const flow = withTabCredentials(readExample('home-as-object-graph'), { MCP_TOKEN: TOKEN });

  before(async () => {
    peers = await startServicePeers();
    nr = await startNodeRed({ env: peers.env });
    await nr.deploy(flow);
    // POST /flows answers once the deploy has begun; the endpoint mounts its route when its nodes
    // have started, so wait for the route (404 until then), as the inject helper waits for its node.
    const deadline = Date.now() + 15_000;
    while ((await fetch(`${nr.url}/home-mcp`, { method: 'POST' })).status === 404 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    client = new Client({ name: 'example-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${nr.url}/home-mcp`), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
  });
  after(async () => {
    await client?.close();
    await nr?.stop();
    await peers?.close();
  });

  it('deploys without errors or unknown node types', async () => {
    await assertCleanDeploy(nr, flow);
  });

  it('serves the home as the object graph: query, writable lamps, the thermostat method', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['query', 'get_property', 'set_property', 'list_types', 'list_methods', 'invoke_method'],
    );
    let home: any;
    for (let i = 0; i < 50; i++) {
      home = await client.callTool({ name: 'query', arguments: { path: '/home', depth: 2, includeProperties: true } });
      if (!home.isError) break;
      await new Promise((r) => setTimeout(r, 100)); // the inject builds the home 0.1 s after start
    }
    assert.deepEqual(home.structuredContent.subjects.livingRoom.lamp.on, { value: false, isWritable: true });
    assert.deepEqual(home.structuredContent.subjects.bedroom.thermostat.$methods, ['SetTarget']);
    const refused = await client.callTool({ name: 'set_property', arguments: { path: '/home/livingRoom/temperature', value: 30 } });
    assert.equal(refused.isError, true);
    const invoked = await client.callTool({
      name: 'invoke_method',
      arguments: { path: '/home/bedroom/thermostat', method: 'SetTarget', arguments: { temperature: 21 } },
    });
    assert.deepEqual(invoked.structuredContent, { success: true, result: { targetTemperature: 21 } });
    const target = await client.callTool({ name: 'get_property', arguments: { path: '/home/bedroom/thermostat/targetTemperature' } });
    assert.deepEqual(target.structuredContent, { value: 21, type: 'integer', isWritable: true, unit: 'DegreeCelsius' });
  });

  it("the example's mcp-server names only the path: it does not assume a port or a root", () => {
    const server = flow.find((n) => n.type === 'mcp-server')!;
    assert.equal(server.url, '/home-mcp');
  });

  it("gemini-agent browses and switches the home through our own mcp-server on Node-RED's own URL", async () => {
    peers.gemini.script(
      reply.call('query', { path: '/home', depth: 2, includeProperties: true }),
      reply.call('set_property', { path: '/home/livingRoom/lamp/on', value: true }),
      reply.text('The living room lamp is on now.'),
    );
    await nr.inject('hog-ask');
    const answer = await nr.debug.next('hog-answer', undefined, 60_000);
    assert.equal(answer.value, 'The living room lamp is on now.');
    const trace = await nr.debug.next('hog-trace');
    assert.deepEqual(
      trace.value.steps.flatMap((s: any) => s.calls.map((c: any) => [c.name, c.isError])),
      [
        ['query', false],
        ['set_property', false],
      ],
    );
    const lamp = await client.callTool({ name: 'get_property', arguments: { path: '/home/livingRoom/lamp/on' } });
    assert.equal((lamp.structuredContent as any).value, true);
  });
});
