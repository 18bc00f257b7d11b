// The client nodes against a server nobody here wrote: the TypeScript `fastmcp` framework (pinned
// in devDependencies) serving the four todo tools, over stdio and Streamable HTTP, through the real
// Node-RED runtime: list-tools in both formats, a create -> list round trip, an invalid enum value
// refused before any call, and the stdio child gone after a redeploy (by pid).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FASTMCP_TODO_SCHEMAS } from '../peers/fastmcp-todo/schemas';
import { fastmcpStdio, startFastmcpHttp, type FastmcpHttp } from '../peers/fastmcp-todo';
import { alive, logEntries } from '../peers/lifecycle-log';
import { helper, load, nextMessage, send, startRuntime, stopRuntime, setFlows } from '../helpers/runtime';
import { until } from '../helpers/wait';

const FASTMCP_VERSION: string = JSON.parse(readFileSync(join(__dirname, '..', '..', 'node_modules', 'fastmcp', 'package.json'), 'utf8')).version;
const TOOL_NAMES = ['create_todo', 'delete_todo', 'list_todos', 'update_todo'];

function flow(server: Record<string, unknown>) {
  return [
    { id: 'srv', type: 'mcp-server', name: 'fastmcp todo', ...server },
    { id: 'list', type: 'mcp-list-tools', server: 'srv', format: 'mcp', wires: [['out']] },
    { id: 'listGemini', type: 'mcp-list-tools', server: 'srv', format: 'gemini', wires: [['out']] },
    { id: 'call', type: 'mcp-call-tool', server: 'srv', wires: [['out'], []] },
    { id: 'out', type: 'helper' },
    { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', type: 'helper' },
  ];
}

for (const transport of ['stdio', 'http'] as const) {
  describe(`interop: fastmcp ${FASTMCP_VERSION} todo server over ${transport}`, function () {
    this.timeout(60_000);
    let peer: FastmcpHttp | undefined;
    let dir: string;
    let server: Record<string, unknown>;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'fastmcp-interop-'));
      await startRuntime();
      if (transport === 'http') {
        peer = await startFastmcpHttp();
        server = { transport: 'http', url: peer.url };
      } else {
        const { command, args } = fastmcpStdio(join(dir, 'pids.log'));
        server = { transport: 'stdio', command, args };
      }
    });
    after(async () => {
      await stopRuntime();
      await peer?.stop();
      rmSync(dir, { recursive: true, force: true });
    });
    beforeEach(() => load(flow(server)));
    afterEach(() => helper.unload());

    it('lists the four tools with their schemas (format mcp) and as Gemini declarations', async () => {
      let got = nextMessage('out');
      send('list', { payload: 'go' });
      const mcp = await got;
      assert.deepEqual(mcp.payload.map((t: any) => t.name).sort(), TOOL_NAMES);
      assert.equal(mcp.mcp.server.serverInfo.name, 'fastmcp-todo');
      for (const tool of mcp.payload) {
        const declared = (FASTMCP_TODO_SCHEMAS as Record<string, any>)[tool.name];
        // fastmcp adds `additionalProperties: false` (and may add `$schema`); every declared keyword is kept.
        for (const [prop, schema] of Object.entries(declared.properties)) assert.deepEqual(tool.inputSchema.properties[prop], schema, `${tool.name}.${prop}`);
        assert.deepEqual(tool.inputSchema.required ?? [], declared.required, `${tool.name} required`);
      }
      got = nextMessage('out');
      send('listGemini', { payload: 'go' });
      const gemini = await got;
      const declarations = gemini.payload.functionDeclarations;
      assert.deepEqual(declarations.map((d: any) => d.name).sort(), TOOL_NAMES);
      const create = declarations.find((d: any) => d.name === 'create_todo');
      assert.deepEqual(create.parametersJsonSchema.properties.priority.enum, ['low', 'medium', 'high']);
      assert.equal(create.parametersJsonSchema.$schema, undefined, 'no root $schema for Gemini');
    });

    it('creates a todo and lists it back', async () => {
      let got = nextMessage('out');
      send('call', { tool: 'create_todo', payload: { title: 'buy eggs', priority: 'high', tags: ['shop'] } });
      const created = await got;
      assert.equal(created.payload.success, true, JSON.stringify(created.payload));
      assert.match(created.payload.todo_id, /^todo_\d+$/);
      got = nextMessage('out');
      send('call', { tool: 'list_todos', payload: { tags: ['shop'] } });
      const listed = await got;
      assert.equal(listed.payload.count, 1);
      assert.deepEqual(
        listed.payload.todos.map((t: any) => [t.todo_id, t.title, t.priority]),
        [[created.payload.todo_id, 'buy eggs', 'high']],
      );
    });

    it('refuses an invalid priority before calling, naming the allowed values', async () => {
      const caught = nextMessage('caught');
      send('call', { tool: 'create_todo', payload: { title: 'x', priority: 'urgent' } });
      const msg = await caught;
      assert.match(msg.error.message, /priority/);
      assert.match(msg.error.message, /low.*medium.*high/);
      // Nothing was created: the call never reached the server.
      const got = nextMessage('out');
      send('call', { tool: 'list_todos', payload: { status: 'all' } });
      const listed = await got;
      assert.equal(
        listed.payload.todos.some((t: any) => t.title === 'x'),
        false,
      );
    });

    if (transport === 'stdio') {
      it('ends the stdio child when a redeploy removes the server (by pid)', async () => {
        const pidLog = join(dir, 'pids.log');
        const got = nextMessage('out');
        send('call', { tool: 'list_todos', payload: {} }); // a call, not a list: tool lists may come from the cache
        await got;
        const pids = logEntries(pidLog, 'ready');
        const pid = pids[pids.length - 1];
        assert.ok(pid && alive(pid), `the fastmcp child runs while the flow uses it (${readFileSync(pidLog, 'utf8')})`);
        await setFlows([{ id: 'test-tab', type: 'tab', label: 'test' }] as any);
        await until(`fastmcp child ${pid} to exit`, () => !alive(pid));
      });
    }
  });
}
