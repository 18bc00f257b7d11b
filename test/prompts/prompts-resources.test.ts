// mcp-prompt and mcp-resource through the real Node-RED runtime against the pinned official
// server-everything (prompts with and without arguments, an embedded resource, static resources,
// templates, text and blob reads, subscriptions) and the Home Assistant stand-in (its Assist prompt
// and exposed-entities resource as HA serves them, its JSON-RPC code 0 errors, no subscriptions).
import assert from 'node:assert/strict';
import { everythingStdio, startEverything, type EverythingServer } from '../peers/everything';
import { HA_GENERATIONS, haFixtures, startHomeAssistant, type HaGeneration, type HomeAssistantStandIn } from '../peers/home-assistant';
import { load, nextMessages, send, sleep, startRuntime, stopRuntime, helper, type FlowNode, setFlows } from '../helpers/runtime';

const promptNodes = [require('../../nodes/mcp-prompt/index.ts'), require('../../nodes/mcp-resource/index.ts')];

function flow(server: Record<string, unknown>, extra: FlowNode[] = []): FlowNode[] {
  return [
    { id: 'srv', type: 'mcp-server', name: 'peer', ...server },
    { id: 'listPrompts', type: 'mcp-prompt', server: 'srv', operation: 'list', wires: [['out']] },
    { id: 'getPrompt', type: 'mcp-prompt', server: 'srv', operation: 'get', wires: [['out']] },
    { id: 'listResources', type: 'mcp-resource', server: 'srv', operation: 'list', wires: [['out']] },
    { id: 'listTemplates', type: 'mcp-resource', server: 'srv', operation: 'templates', wires: [['out']] },
    { id: 'reader', type: 'mcp-resource', server: 'srv', operation: 'read', wires: [['out']] },
    { id: 'out', type: 'helper' },
    { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', type: 'helper' },
    ...extra,
  ];
}

/** The next message on `out` or on the Catch node, whichever comes first. */
function outcome(nodeId: string, msg: Record<string, unknown>, ms = 20000): Promise<{ out?: any; caught?: any }> {
  const out = helper.getNode('out');
  const caught = helper.getNode('caught');
  return new Promise((resolve, reject) => {
    const finish = (o: { out?: any; caught?: any }) => {
      clearTimeout(timer);
      out.removeAllListeners('input');
      caught.removeAllListeners('input');
      resolve(o);
    };
    const timer = setTimeout(() => reject(new Error(`${nodeId}: no message and no caught error within ${ms} ms`)), ms);
    out.on('input', (m: any) => finish({ out: m }));
    caught.on('input', (m: any) => finish({ caught: m }));
    send(nodeId, msg);
  });
}

/** The runtime and a server-everything over `kind` for one suite, both stopped after it. */
function useRuntimeWithEverything(kind: Parameters<typeof startEverything>[0]): { readonly peer: EverythingServer } {
  const state = {} as { peer: EverythingServer };
  before(async () => {
    await startRuntime();
    state.peer = await startEverything(kind);
  });
  after(async () => {
    await stopRuntime();
    await state.peer?.stop();
  });
  return state;
}

describe('mcp-prompt and mcp-resource: server-everything over Streamable HTTP', function () {
  this.timeout(60000);
  const everything = useRuntimeWithEverything('streamableHttp');
  beforeEach(() => load(flow({ transport: 'http', url: everything.peer.url }), {}, promptNodes));
  afterEach(() => helper.unload());

  it('lists the prompts', async () => {
    const { out, caught } = await outcome('listPrompts', { payload: 'go', keep: 1 });
    assert.equal(caught, undefined, caught?.error?.message);
    assert.deepEqual(out.payload.map((p: any) => p.name).sort(), ['args-prompt', 'completable-prompt', 'resource-prompt', 'simple-prompt']);
    const args = out.payload.find((p: any) => p.name === 'args-prompt').arguments;
    assert.deepEqual(
      args.map((a: any) => [a.name, a.required === true]),
      [
        ['city', true],
        ['state', false],
      ],
    );
    assert.equal(out.keep, 1, 'the message passes through');
    assert.equal(out.mcp.server.id, 'srv');
    assert.equal(out.mcp.pages, 1);
  });

  it('gets a prompt with arguments from msg.payload, name from msg.prompt: messages and joined text', async () => {
    const { out, caught } = await outcome('getPrompt', { prompt: 'args-prompt', payload: { city: 'Lisbon', state: 'Lisboa' } });
    assert.equal(caught, undefined, caught?.error?.message);
    assert.deepEqual(out.payload, [{ role: 'user', content: { type: 'text', text: "What's weather in Lisbon, Lisboa?" } }]);
    assert.equal(out.prompt, "What's weather in Lisbon, Lisboa?");
    assert.deepEqual(out.mcp.arguments, { city: 'Lisbon', state: 'Lisboa' });
  });

  it('sends numbers as the text MCP prompt arguments are, and joins an embedded text resource into msg.prompt', async () => {
    const { out, caught } = await outcome('getPrompt', { prompt: 'resource-prompt', payload: { resourceType: 'Text', resourceId: 3 } });
    assert.equal(caught, undefined, caught?.error?.message);
    assert.equal(out.payload.length, 2);
    assert.equal(out.payload[1].content.type, 'resource');
    const [intro, resource] = out.prompt.split('\n\n');
    assert.equal(intro, 'This prompt includes the Text resource with id: 3. Please analyze the following resource:');
    assert.match(resource, /^Resource 3: This is a plaintext resource created at /);
  });

  it('sends a prompt error from the server to Catch with the server reason, and no message on', async () => {
    const { out, caught } = await outcome('getPrompt', { prompt: 'resource-prompt', payload: { resourceType: 'Video', resourceId: '1' } });
    assert.equal(out, undefined);
    assert.match(caught.error.message, /prompts\/get "resource-prompt" failed: .*Invalid resourceType: Video/);
  });

  it('lists resources and templates', async () => {
    const listed = await outcome('listResources', { payload: '' });
    const uris = listed.out.payload.map((r: any) => r.uri);
    assert.ok(uris.includes('demo://resource/static/document/architecture.md'), uris.join(', '));
    assert.ok(listed.out.payload.every((r: any) => typeof r.name === 'string'));
    const templates = await outcome('listTemplates', { payload: '' });
    assert.deepEqual(templates.out.payload.map((t: any) => t.uriTemplate).sort(), [
      'demo://resource/dynamic/blob/{resourceId}',
      'demo://resource/dynamic/text/{resourceId}',
    ]);
  });

  it('reads a text resource as a string with msg.contentType, and a blob as a Buffer', async () => {
    const text = await outcome('reader', { uri: 'demo://resource/static/document/architecture.md' });
    assert.equal(text.caught, undefined, text.caught?.error?.message);
    assert.equal(typeof text.out.payload, 'string');
    assert.match(text.out.payload, /^# /);
    assert.equal(text.out.contentType, 'text/markdown');
    assert.deepEqual(text.out.mcp.contents, [{ uri: 'demo://resource/static/document/architecture.md', mimeType: 'text/markdown' }]);
    const blob = await outcome('reader', { uri: 'demo://resource/dynamic/blob/7' });
    assert.ok(Buffer.isBuffer(blob.out.payload));
    assert.match(blob.out.payload.toString('utf8'), /^Resource 7: This is a base64 blob created at /);
    assert.equal(blob.out.contentType, 'text/plain');
  });

  it('sends a read without a URI to Catch with what to do', async () => {
    const { caught } = await outcome('reader', { payload: 'x' });
    assert.match(caught.error.message, /set URI in the node, or send it in msg\.uri/);
  });

  it('answers the editor dropdown routes', async () => {
    // A request first: the session connects lazily.
    await outcome('listPrompts', { payload: 'go' });
    const prompts = await helper.request().get('/mcp-server/srv/prompts').expect(200);
    assert.ok(prompts.body.prompts.some((p: any) => p.name === 'simple-prompt'));
    const resources = await helper.request().get('/mcp-server/srv/resources').expect(200);
    assert.ok(resources.body.resources.length > 0);
    assert.equal(resources.body.resourceTemplates.length, 2);
    const gone = await helper.request().get('/mcp-server/nope/prompts').expect(404);
    assert.match(gone.body.error, /not deployed/);
  });
});

for (const transport of ['stdio', 'http'] as const) {
  describe(`mcp-resource subscribe: server-everything over ${transport}`, function () {
    this.timeout(60000);
    let peer: EverythingServer | undefined;
    before(async () => {
      await startRuntime();
      if (transport === 'http') peer = await startEverything('streamableHttp');
    });
    after(async () => {
      await stopRuntime();
      await peer?.stop();
    });

    it('sends a message on each notifications/resources/updated, and stops when the node is closed', async () => {
      const server =
        transport === 'stdio' ? { transport: 'stdio', command: everythingStdio.command, args: everythingStdio.args } : { transport: 'http', url: peer!.url };
      const uri = 'demo://resource/static/document/architecture.md';
      await load(
        flow(server, [
          { id: 'watch', type: 'mcp-resource', server: 'srv', operation: 'subscribe', uri, wires: [['updates']] },
          { id: 'updates', type: 'helper' },
          // The server's own switch for sending updates to subscribers (once at once, then every 5 s).
          {
            id: 'toggle',
            type: 'mcp-call-tool',
            server: 'srv',
            tool: 'toggle-subscriber-updates',
            arguments: '{}',
            argumentsType: 'json',
            wires: [['out'], []],
          },
        ]),
        {},
        promptNodes,
      );
      send('watch', { payload: 'subscribe' });
      send('watch', { payload: 'again' }); // the same URI twice: still one message per update
      await waitForStatus('watch', /subscribed to 1/);
      const updates = nextMessages('updates', 2, 20000);
      const toggled = await outcome('toggle', { payload: {} });
      assert.equal(toggled.caught, undefined, toggled.caught?.error?.message);
      const [first, second] = await updates;
      for (const m of [first, second]) {
        assert.equal(m.topic, 'resources/updated');
        assert.equal(m.uri, uri);
        assert.equal(m.payload.uri, uri);
        assert.equal(m.mcp.server.id, 'srv');
      }
      // The update carries the URI, so a read node with a blank URI fetches the new content.
      const read = await outcome('reader', first);
      assert.match(read.out.payload, /^# /);
      // Closing the node ends the subscription: nothing more is sent (the server goes on ticking).
      const seen: any[] = [];
      const tab = { id: 'test-tab', type: 'tab', label: 'test' };
      const kept = [...flow(server), { id: 'updates', type: 'helper' }].map((n) => (n.type === 'mcp-server' ? n : { ...n, z: tab.id }));
      await setFlows([tab, ...kept] as any);
      helper.getNode('updates').on('input', (m: any) => seen.push(m));
      await sleep(6000);
      assert.deepEqual(seen, []);
    });
  });
}

// Once per Home Assistant generation: the Assist prompt's text and the resources differ.
for (const generation of HA_GENERATIONS) describeHomeAssistant(generation);

function describeHomeAssistant(generation: HaGeneration) {
  describe(`mcp-prompt and mcp-resource: Home Assistant ${generation} stand-in`, function () {
    const assistText = (haFixtures(generation).assistPromptResult as any).messages[0].content.text as string;
    const resources = (haFixtures(generation).resourcesListResult as any).resources as Array<{ uri: string; mimeType: string }>;
    this.timeout(30000);
    let ha: HomeAssistantStandIn;
    before(startRuntime);
    after(stopRuntime);
    beforeEach(async () => {
      ha = await startHomeAssistant({ generation });
      await load(
        flow({ transport: 'http', url: ha.url }, [
          { id: 'watch', type: 'mcp-resource', server: 'srv', operation: 'subscribe', uri: resources[0].uri, wires: [['out']] },
        ]),
        { srv: { token: ha.token } },
        promptNodes,
      );
    });
    afterEach(async () => {
      await helper.unload();
      await ha.close();
    });

    it('lists the one Assist prompt and gets its text as Home Assistant sends it', async () => {
      const listed = await outcome('listPrompts', { payload: 1 });
      assert.deepEqual(listed.out.payload, [{ name: 'Assist', description: 'Default prompt for Home Assistant Assist API' }]);
      const got = await outcome('getPrompt', { prompt: 'Assist', payload: 1700000000000 });
      assert.equal(got.caught, undefined, got.caught?.error?.message);
      assert.equal(got.out.payload[0].role, 'assistant');
      assert.equal(got.out.prompt, assistText);
      assert.match(got.out.prompt, /When controlling Home Assistant always call the intent tools/);
      assert.deepEqual(got.out.mcp.arguments, {}, 'an inject timestamp in msg.payload is not taken as arguments');
      const sent = ha.requests.find((r) => r.rpcMethod === 'prompts/get') as any;
      assert.deepEqual(sent.json.params, { name: 'Assist', arguments: {} });
    });

    // (Node-RED itself replaces a property that is exactly ${VAR}; one with a default is ours to resolve.)
    it("takes the prompt name from the tab's variables, as Node-RED resolves ${VAR}", async () => {
      await helper.unload();
      await load(
        [
          { id: 'ptab', type: 'tab', env: [{ name: 'PROMPT_NAME', value: 'Assist', type: 'str' }] },
          { id: 'srv', type: 'mcp-server', name: 'peer', transport: 'http', url: ha.url },
          { id: 'tabPrompt', type: 'mcp-prompt', z: 'ptab', server: 'srv', operation: 'get', name: '${PROMPT_NAME:-Foo}', wires: [['pout']] },
          { id: 'pout', type: 'helper', z: 'ptab' },
        ],
        { srv: { token: ha.token } },
        promptNodes,
      );
      let timer: NodeJS.Timeout | undefined;
      const got = new Promise<any>((resolve, reject) => {
        helper.getNode('pout').once('input', resolve);
        timer = setTimeout(() => reject(new Error('no prompt: the name did not come from the tab (the fallback Foo is unknown)')), 10_000);
      });
      send('tabPrompt', { payload: 1 });
      try {
        assert.equal((await got).prompt, assistText);
      } finally {
        clearTimeout(timer);
      }
    });

    it("sends an unknown prompt to Catch with HA's message", async () => {
      const { caught } = await outcome('getPrompt', { prompt: 'Foo' });
      assert.match(caught.error.message, /prompts\/get "Foo" failed: .*Unknown prompt: Foo/);
    });

    it('lists the resource this generation offers and reads the Assist context snapshot as text', async () => {
      const listed = await outcome('listResources', {});
      assert.deepEqual(
        listed.out.payload.map((r: any) => r.uri),
        resources.map((r) => r.uri),
      );
      // The snapshot (core PR #167396, since 2026.5) is what both generations answer; the older
      // fixture also lists a YAML resource of exposed entities.
      const { out } = await outcome('reader', { uri: 'homeassistant://assist/context-snapshot' });
      assert.equal(out.contentType, 'text/plain');
      assert.match(out.payload, /^Live Context: An overview of the areas and the devices in this smart home:\n- names: Living Room Thermostat/);
      if (generation === 'pre-2026.9') {
        const yaml = await outcome('reader', { uri: 'homeassistant://assist/exposed-entities' });
        assert.equal(yaml.out.contentType, 'text/yaml');
        assert.match(yaml.out.payload, /^assistant: conversation\nentities:\n- entity_id: light\.kitchen/);
      }
    });

    it('refuses a subscription HA does not offer, before sending anything', async () => {
      const { caught } = await outcome('watch', {});
      assert.match(caught.error.message, /does not offer resource subscriptions/);
      assert.equal(ha.requests.filter((r) => r.rpcMethod === 'resources/subscribe').length, 0);
    });
  });
}

async function waitForStatus(nodeId: string, text: RegExp, ms = 20000): Promise<void> {
  const node = helper.getNode(nodeId) as any;
  const deadline = Date.now() + ms;
  let last: any;
  const original = node.status.bind(node);
  node.status = (s: any) => {
    last = s;
    return original(s);
  };
  while (!(last && text.test(String(last.text ?? '')))) {
    if (Date.now() > deadline) throw new Error(`${nodeId}: status never matched ${text} (last ${JSON.stringify(last)})`);
    await sleep(20);
  }
}

describe('mcp-resource subscribe: after the server restarts', function () {
  this.timeout(60000);
  const everything = useRuntimeWithEverything('streamableHttp');

  it('subscribes again on the new session, so updates keep coming', async () => {
    const uri = 'demo://resource/static/document/architecture.md';
    await load(
      flow({ transport: 'http', url: everything.peer.url }, [
        { id: 'watch', type: 'mcp-resource', server: 'srv', operation: 'subscribe', uri, wires: [['updates']] },
        { id: 'updates', type: 'helper' },
        { id: 'toggle', type: 'mcp-call-tool', server: 'srv', tool: 'toggle-subscriber-updates', arguments: '{}', argumentsType: 'json', wires: [['out'], []] },
      ]),
      {},
      promptNodes,
    );
    send('watch', {});
    await waitForStatus('watch', /subscribed to 1/);
    // The restarted process knows no session and no subscription: the first request re-initializes.
    await everything.peer.restart();
    const updates = nextMessages('updates', 1, 20000);
    const toggled = await outcome('toggle', {});
    assert.equal(toggled.caught, undefined, toggled.caught?.error?.message);
    const [update] = await updates;
    assert.equal(update.uri, uri);
  });
});
