// mcp-list-tools and mcp-call-tool against the pinned official server-everything, over stdio,
// Streamable HTTP and legacy SSE, through the real Node-RED runtime.
import assert from 'node:assert/strict';
import { EVERYTHING_VERSION, everythingStdio, startEverything, type EverythingServer } from '../peers/everything';
import { load, nextMessage, nextMessages, nextMessageWithTopic, send, startRuntime, stopRuntime, helper } from '../helpers/runtime';

const EXPECTED_TOOLS = [
  'echo',
  'get-annotated-message',
  'get-env',
  'get-resource-links',
  'get-resource-reference',
  'get-structured-content',
  'get-sum',
  'get-tiny-image',
  'gzip-file-as-resource',
  'simulate-research-query',
  'toggle-simulated-logging',
  'toggle-subscriber-updates',
  // Offered because our client declares elicitation (form and URL): a node can answer them.
  'trigger-elicitation-request',
  'trigger-long-running-operation',
  'trigger-url-elicitation',
];

function flow(server: Record<string, unknown>) {
  return [
    { id: 'srv', type: 'mcp-server', name: 'everything', ...server },
    { id: 'list', type: 'mcp-list-tools', server: 'srv', wires: [['out']] },
    { id: 'call', type: 'mcp-call-tool', server: 'srv', wires: [['out'], ['progress']] },
    { id: 'out', type: 'helper' },
    { id: 'progress', type: 'helper' },
    { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', type: 'helper' },
  ];
}

for (const transport of ['stdio', 'http', 'sse'] as const) {
  describe(`server-everything ${EVERYTHING_VERSION} over ${transport}`, function () {
    this.timeout(60000);
    let peer: EverythingServer | undefined;

    before(async () => {
      await startRuntime();
      if (transport !== 'stdio') peer = await startEverything(transport === 'http' ? 'streamableHttp' : 'sse');
    });
    after(async () => {
      await stopRuntime();
      await peer?.stop();
    });
    beforeEach(async () => {
      const server =
        transport === 'stdio' ? { transport: 'stdio', command: everythingStdio.command, args: everythingStdio.args } : { transport, url: peer!.url };
      await load(flow(server));
    });
    afterEach(() => helper.unload());

    it('lists every tool with server identity', async () => {
      const got = nextMessage('out');
      send('list', { payload: 'go', topic: 'keep-me' });
      const msg = await got;
      assert.equal(msg.topic, 'keep-me', 'the incoming message passes through');
      assert.deepEqual(msg.payload.map((t: any) => t.name).sort(), EXPECTED_TOOLS);
      assert.equal(msg.mcp.pages, 1);
      assert.equal(msg.mcp.server.id, 'srv');
      assert.equal(msg.mcp.server.serverInfo.name, 'mcp-servers/everything');
      assert.match(msg.mcp.server.protocolVersion, /^20\d\d-\d\d-\d\d$/);
      assert.equal(msg.mcp.names.get_sum, 'get-sum', 'declared names map back to MCP names');
    });

    it('trigger-elicitation-request: the server asks mid-call on output 2, the flow answers with msg.input, the server shows the answer', async () => {
      const asked = nextMessageWithTopic('progress', 'input');
      const got = nextMessage('out');
      send('call', { tool: 'trigger-elicitation-request', payload: {} });
      const request = await asked;
      assert.equal(request.payload.mode, 'form');
      assert.deepEqual(request.payload.schema.required, ['name']);
      send('call', { input: { id: request.input.id, action: 'accept', content: { name: 'Ada Lovelace', check: true, integer: 7 } } });
      const msg = await got;
      const text = (msg.mcp.result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
      assert.match(text, /User provided the requested information/);
      assert.match(text, /Ada Lovelace/);
    });

    it('calls echo and get-sum', async () => {
      let got = nextMessage('out');
      send('call', { tool: 'echo', payload: { message: 'hello from node-red' } });
      let msg = await got;
      assert.equal(msg.payload, 'Echo: hello from node-red');
      assert.equal(msg.mcp.tool, 'echo');
      assert.deepEqual(msg.mcp.arguments, { message: 'hello from node-red' });
      assert.equal(msg.mcp.result.isError, false);
      got = nextMessage('out');
      send('call', { tool: 'get-sum', payload: { a: 40, b: 2 } });
      msg = await got;
      assert.match(msg.payload, /is 42/);
    });

    it('get-structured-content: payload is the structured content', async () => {
      const got = nextMessage('out');
      send('call', { tool: 'get-structured-content', payload: { location: 'New York' } });
      const msg = await got;
      assert.equal(typeof msg.payload, 'object');
      assert.deepEqual(Object.keys(msg.payload).sort(), ['conditions', 'humidity', 'temperature']);
      assert.deepEqual(msg.payload, msg.mcp.result.structuredContent);
    });

    it('get-tiny-image: the image arrives as a Buffer in msg.mcp.files', async () => {
      const got = nextMessage('out');
      send('call', { tool: 'get-tiny-image', payload: {} });
      const msg = await got;
      assert.ok(Array.isArray(msg.mcp.files) && msg.mcp.files.length === 1);
      const file = msg.mcp.files[0];
      assert.equal(file.mimeType, 'image/png');
      assert.ok(Buffer.isBuffer(file.data));
      assert.deepEqual([...file.data.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'PNG signature');
    });

    it('get-annotated-message keeps content annotations', async () => {
      const got = nextMessage('out');
      send('call', { tool: 'get-annotated-message', payload: { messageType: 'error', includeImage: false } });
      const msg = await got;
      const content = msg.mcp.result.content;
      assert.ok(
        content.some((c: any) => c.annotations && Array.isArray(c.annotations.audience)),
        JSON.stringify(content),
      );
    });

    it('trigger-long-running-operation: progress on output 2, result on output 1', async () => {
      const progress = nextMessages('progress', 2, 30000);
      const result = nextMessage('out', 30000);
      send('call', { tool: 'trigger-long-running-operation', payload: { duration: 2, steps: 4 } });
      const [p1, p2] = await progress;
      assert.equal(p1.payload.total, 4);
      assert.ok(p2.payload.progress > p1.payload.progress);
      assert.equal(p1.mcp.tool, 'trigger-long-running-operation');
      const msg = await result;
      assert.match(msg.payload, /Long running operation completed/);
    });
  });
}

describe('transport "http" pointed at a legacy HTTP+SSE server', function () {
  this.timeout(60000);
  let peer: EverythingServer;
  before(async () => {
    await startRuntime();
    peer = await startEverything('sse');
  });
  after(async () => {
    await stopRuntime();
    await peer.stop();
  });

  it('falls back to HTTP+SSE after the first POST is refused, and works', async () => {
    await load(flow({ transport: 'http', url: peer.url }));
    const got = nextMessage('out');
    send('call', { tool: 'get-sum', payload: { a: 2, b: 3 } });
    const msg = await got;
    assert.match(msg.payload, /is 5/);
    const logs = helper
      .log()
      .args.map((a: any[]) => JSON.stringify(a[0]))
      .join('\n');
    assert.match(logs, /Streamable HTTP answered (400|404|405); trying legacy HTTP\+SSE/);
  });
});
