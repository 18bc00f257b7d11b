// examples/expose-a-flow-as-a-tool.json end to end: deployed into a real Node-RED (started as
// `npm start` starts it), then called over HTTP by the stock @modelcontextprotocol/client.
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { readExample, startNodeRed, assertCleanDeploy, withTabCredentials, type NodeRedProcess } from '../helpers/node-red';

describe('examples: expose-a-flow-as-a-tool.json', function () {
  this.timeout(120_000);
  let nr: NodeRedProcess;
  let client: Client;
  // After the set-up its comment asks for: a token in the tab's MCP_TOKEN.
  const TOKEN = 'example-endpoint-token-7d2e';
  const flow = withTabCredentials(readExample('expose-a-flow-as-a-tool'), { MCP_TOKEN: TOKEN });

  before(async () => {
    nr = await startNodeRed();
    await nr.deploy(flow);
    // The endpoint mounts its route once its nodes have started (404 until then).
    const deadline = Date.now() + 15_000;
    while ((await fetch(`${nr.url}/mcp`, { method: 'POST' })).status === 404 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    client = new Client({ name: 'example-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${nr.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
  });
  after(async () => {
    await client?.close();
    await nr?.stop();
  });

  it('deploys without errors or unknown node types', async () => {
    await assertCleanDeploy(nr, flow);
  });

  it('lists the two flow tools with their schemas and hints', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['read_temperature', 'toggle_lamp'],
    );
    assert.deepEqual(tools[0].annotations, { readOnlyHint: true, idempotentHint: true });
  });

  it('reads the sensor value the inject put into context', async () => {
    let result: any;
    for (let i = 0; i < 50; i++) {
      result = await client.callTool({ name: 'read_temperature', arguments: { room: 'living_room' } });
      if (!result.isError) break;
      await new Promise((r) => setTimeout(r, 100)); // the inject fires 0.1 s after start
    }
    assert.deepEqual(result.structuredContent, { room: 'living_room', celsius: 21.5 });
  });

  it('toggles a lamp and answers with its new state; invalid arguments never reach the flow', async () => {
    const on = await client.callTool({ name: 'toggle_lamp', arguments: { lamp: 'desk' } });
    assert.deepEqual(on.content, [{ type: 'text', text: 'The desk lamp is now on.' }]);
    const off = await client.callTool({ name: 'toggle_lamp', arguments: { lamp: 'desk' } });
    assert.deepEqual(off.content, [{ type: 'text', text: 'The desk lamp is now off.' }]);
    const bad = await client.callTool({ name: 'toggle_lamp', arguments: { lamp: 'garage' } });
    assert.equal(bad.isError, true);
    assert.match((bad.content as any)[0].text, /Invalid arguments for toggle_lamp: lamp: must be one of \["desk","porch"\]/);
  });

  it('serves its prompt (the room filled into the text) and its resource (the readings as JSON)', async () => {
    const { prompts } = await client.listPrompts();
    assert.deepEqual(
      prompts.map((p) => [p.name, p.arguments]),
      [['check_a_room', [{ name: 'room', required: true }]]],
    );
    const got = await client.getPrompt({ name: 'check_a_room', arguments: { room: 'living_room' } });
    assert.equal(got.messages.length, 1);
    assert.match(
      (got.messages[0].content as { text: string }).text,
      /^Read the temperature of the living_room with read_temperature\. If it is below 19 °C, switch the desk lamp on/,
    );
    const read = await client.readResource({ uri: 'house://temperatures' });
    assert.deepEqual(read.contents, [{ uri: 'house://temperatures', mimeType: 'application/json', text: '{"living_room":21.5,"bedroom":19.2}' }]);
  });

  it('serves its skill through the Skills extension, each file verified against its digest', async () => {
    const skills = new SkillsClient(client);
    const { skills: listed } = await skills.list();
    assert.deepEqual(
      listed.map((s) => s.uri),
      ['skill://lamp-care/SKILL.md'],
    );
    const manifest = await skills.read(listed[0]);
    assert.equal(manifest.verified, true);
    assert.match(manifest.body ?? '', /call `read_temperature` for the room/);
    const rooms = await skills.read(listed[0], 'references/rooms.md');
    assert.match(rooms.text ?? '', /- living_room/);
  });

  it('a new reading tells a subscribed client that the resource changed', async () => {
    const updated: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
    // Whichever revision the client negotiated: a 2026-07-28 client listens, a 2025 one subscribes on its session.
    const modern = client.getProtocolEra() === 'modern';
    const subscription = modern ? await client.listen({ resourceSubscriptions: ['house://temperatures'] }) : undefined;
    if (!modern) await client.subscribeResource({ uri: 'house://temperatures' });
    try {
      // The example's inject is the sensor: fire it as its button in the editor does.
      const fired = await fetch(`${nr.url}/inject/fat-sensors`, { method: 'POST' });
      assert.equal(fired.status, 200);
      const deadline = Date.now() + 10_000;
      while (!updated.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(updated, ['house://temperatures']);
    } finally {
      await subscription?.close();
    }
  });
});
