// One malformed tool must not hide the others: a server whose tools/list holds one tool per kind of
// deviation, read through mcp-list-tools (every format, both protocol eras) and mcp-call-tool in the
// real Node-RED runtime. Every usable tool is listed, each repair or omission is a warning naming
// the tool, calls are validated against the repaired schema, and nothing reaches Catch.
import assert from 'node:assert/strict';
import { captureLogs, helper, load, nextMessage, send, startRuntime, stopRuntime, type FlowNode } from '../helpers/runtime';
import { startLenientServer, USABLE_TOOL_NAMES } from '../peers/lenient-server';
import type { HttpEndpoint } from '../../servers/todo/http-transport';

/** The tool each repair or omission must name, and a word of its message. */
const EXPECTED_WARNINGS: Array<[string, string, RegExp]> = [
  ['typeless_root', 'inputSchema.type', /read as "object"/],
  ['ghost_required', 'inputSchema.required', /"ghost".*dropped from required/],
  ['null_description', 'description', /null/],
  ['no_input_schema', 'inputSchema', /without parameters/],
  ['bad_annotations', 'annotations', /dropped/],
  ['tools[6]', 'name', /no name.*left out/],
  ['echo', 'name', /already taken/],
  ['string_schema', 'inputSchema', /not a schema object.*left out/],
  ['scalar_root', 'inputSchema.type', /"string".*left out/],
];

const FORMATS: Record<string, (payload: any) => string[]> = {
  mcp: (p) => p.map((t: any) => t.name),
  gemini: (p) => p.functionDeclarations.map((d: any) => d.name),
  'gemini-schema': (p) => p.functionDeclarations.map((d: any) => d.name),
  openai: (p) => p.map((t: any) => t.function.name),
  anthropic: (p) => p.map((t: any) => t.name),
};

describe('lenient reading of what servers send (real runtime)', function () {
  this.timeout(30000);
  let peer: HttpEndpoint;

  before(async () => {
    await startRuntime();
    peer = await startLenientServer();
  });
  after(async () => {
    await stopRuntime();
    await peer.close();
  });
  afterEach(() => helper.unload());

  function flow(protocolVersion: string, format = 'mcp'): FlowNode[] {
    return [
      { id: 'srv', type: 'mcp-server', name: 'lenient', transport: 'http', url: peer.url, protocolVersion, timeout: '5' },
      { id: 'list', type: 'mcp-list-tools', server: 'srv', format, wires: [['listed']] },
      { id: 'listed', type: 'helper' },
      { id: 'call', type: 'mcp-call-tool', server: 'srv', wires: [['called'], []] },
      { id: 'called', type: 'helper' },
      { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
      { id: 'caught', type: 'helper' },
    ];
  }

  /** The answer on `outId`, failing with the error when Catch gets the message instead. */
  async function outcome(outId: string, nodeId: string, msg: Record<string, unknown>): Promise<any> {
    const caught = nextMessage('caught').then((m) => ({ caught: m }));
    const out = nextMessage(outId).then((m) => ({ out: m }));
    send(nodeId, msg);
    const first: any = await Promise.race([caught, out]);
    if (first.caught) throw new Error(`reached Catch: ${first.caught.error?.message}`);
    return first.out;
  }

  for (const era of ['auto', '2025-11-25']) {
    for (const format of Object.keys(FORMATS)) {
      it(`${format}, protocol ${era}: every usable tool listed, every repair and omission a warning naming its tool`, async () => {
        await load(flow(era, format));
        const msg = await outcome('listed', 'list', { payload: 'go' });
        assert.deepEqual(FORMATS[format](msg.payload), USABLE_TOOL_NAMES);
        assert.deepEqual(
          msg.mcp.tools.map((t: any) => t.name),
          USABLE_TOOL_NAMES,
        );
        if (era === 'auto') assert.equal(msg.mcp.server.protocolVersion, '2026-07-28');
        else assert.equal(msg.mcp.server.protocolVersion, '2025-11-25');
        for (const [tool, path, message] of EXPECTED_WARNINGS) {
          const w = msg.mcp.warnings.find((x: any) => x.tool === tool && x.path === path);
          assert.ok(w, `no warning for ${tool} ${path} in ${JSON.stringify(msg.mcp.warnings)}`);
          assert.match(w.message, message);
        }
      });
    }
  }

  it('the repaired schemas are what mcp-list-tools hands on', async () => {
    await load(flow('auto'));
    const msg = await outcome('listed', 'list', { payload: 'go' });
    const byName = new Map(msg.payload.map((t: any) => [t.name, t]));
    assert.deepEqual((byName.get('typeless_root') as any).inputSchema, { type: 'object', properties: { a: { type: 'string' } } });
    assert.deepEqual((byName.get('ghost_required') as any).inputSchema.required, ['a']);
    assert.equal('description' in (byName.get('null_description') as any), false);
    assert.deepEqual((byName.get('no_input_schema') as any).inputSchema, { type: 'object' });
  });

  it('mcp-call-tool validates against the repaired schema: the phantom requirement is gone, the real one stays', async () => {
    await load(flow('auto'));
    const ok = await outcome('called', 'call', { tool: 'ghost_required', payload: { a: 'x' } });
    assert.deepEqual(JSON.parse(ok.payload === undefined ? '{}' : JSON.stringify(ok.payload)), { tool: 'ghost_required', received: { a: 'x' } });
    const missing = nextMessage('caught');
    send('call', { tool: 'ghost_required', payload: {} });
    assert.match((await missing).error.message, /a: is required/);
    // the repaired root type: arguments are checked against the declared property types
    const wrongType = nextMessage('caught');
    send('call', { tool: 'typeless_root', payload: { a: 5 } });
    assert.match((await wrongType).error.message, /a: must be string/);
    const typeless = await outcome('called', 'call', { tool: 'typeless_root', payload: { a: 'five' } });
    assert.deepEqual(typeless.payload.received, { a: 'five' });
    // a tool left out of the list stays unknown, with a suggestion
    const omitted = nextMessage('caught');
    send('call', { tool: 'string_schema', payload: {} });
    assert.match((await omitted).error.message, /string_schema/);
  });

  for (const era of ['auto', '2025-11-25']) {
    it(`tools/call results the SDK's schema rejects are delivered with a warning (protocol ${era})`, async () => {
      await load(flow(era));
      const unknown = await outcome('called', 'call', { tool: 'odd_result', payload: { kind: 'unknown-type' } });
      assert.equal(unknown.payload, 'readable part');
      assert.deepEqual(unknown.mcp.result.content[1], { type: 'html', html: '<b>not MCP</b>' }, 'msg.mcp.result is the raw answer');
      assert.equal('resultType' in unknown.mcp.result, false);
      assert.deepEqual(
        unknown.mcp.warnings.map((w: any) => [w.tool, w.path]),
        [['odd_result', 'content[1]']],
      );
      assert.match(unknown.mcp.warnings[0].message, /unknown content type "html"/);

      const missing = await outcome('called', 'call', { tool: 'odd_result', payload: { kind: 'missing-text' } });
      assert.equal(missing.payload, 'second block');
      assert.match(missing.mcp.warnings[0].message, /text block without text/);

      const markdown = await outcome('called', 'call', { tool: 'odd_result', payload: { kind: 'markdown' } });
      assert.equal(markdown.payload, '**bold**');

      const scalar = await outcome('called', 'call', { tool: 'odd_result', payload: { kind: 'scalar-structured' } });
      assert.deepEqual(scalar.mcp.result.structuredContent, [1, 2, 3]);
      // 2026-07-28 allows any JSON value there; a 2025 revision wants an object (the SDK's {result} wrap)
      assert.deepEqual(scalar.payload, era === 'auto' ? [1, 2, 3] : { result: [1, 2, 3] });

      // structuredContent that does not match the outputSchema: delivered, with a warning (the SDK would drop it)
      const typed = await outcome('called', 'call', { tool: 'typed_output', payload: {} });
      assert.deepEqual(typed.payload, { n: 'seven' });
      assert.deepEqual(typed.mcp.result.structuredContent, { n: 'seven' });
      assert.deepEqual(
        typed.mcp.warnings.map((w: any) => [w.tool, w.path]),
        [['typed_output', 'structuredContent']],
      );
      assert.match(typed.mcp.warnings[0].message, /outputSchema \(n: must be number\)/);

      const clean = await outcome('called', 'call', { tool: 'echo', payload: { text: 'hi' } });
      assert.equal(clean.mcp.warnings, undefined, 'a clean result carries no warnings');
    });
  }

  it("the editor's tool dropdown route lists the usable tools and the list warnings", async () => {
    await load(flow('auto'));
    const plain = await helper.request().get('/mcp-server/srv/tools').expect(200);
    assert.deepEqual(
      plain.body.tools.map((t: any) => t.name),
      USABLE_TOOL_NAMES,
    );
    assert.ok(plain.body.warnings.some((w: any) => w.tool === 'typeless_root' && w.path === 'inputSchema.type'));
    const compiled = await helper.request().get('/mcp-server/srv/tools?format=gemini-schema').expect(200);
    assert.ok(
      compiled.body.warnings.some((w: any) => w.tool === 'scalar_root'),
      'list warnings come before the compiler warnings',
    );
  });

  it('logs each repair and omission once, naming the server and the tool', async () => {
    await load([...flow('auto'), { id: 'list2', type: 'mcp-list-tools', server: 'srv', wires: [['listed']] }]);
    const logs = captureLogs(); // after load: loading a flow starts a new log spy
    await outcome('listed', 'list', { payload: 'go' });
    await outcome('listed', 'list2', { payload: 'go' });
    await outcome('called', 'call', { tool: 'odd_result', payload: { kind: 'markdown' } });
    await outcome('called', 'call', { tool: 'odd_result', payload: { kind: 'markdown' } });
    const lines = logs.lines();
    const count = (re: RegExp) => lines.filter((l) => re.test(l)).length;
    assert.equal(count(/tool \\"typeless_root\\" inputSchema.type: is missing at the root/), 1, lines.join('\n'));
    assert.equal(count(/tool \\"scalar_root\\"/), 1);
    assert.equal(count(/tool \\"odd_result\\" content\[0\]: has the unknown type \\"markdown\\"/), 1);
  });
});
