// examples/multiple-servers.json end to end: three MCP servers configured like a .mcp.json (two over
// stdio started by the flow, Home Assistant's stand-in over Streamable HTTP) listed together, and
// one Gemini agent (the fake Gemini) calling a tool of each in one step.
import assert from 'node:assert/strict';
import { skipBecause } from '../helpers/skip';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../peers/fake-gemini';
import { HA_GENERATIONS, haToolName, type HaGeneration } from '../peers/home-assistant';
import { readExample, startNodeRed, assertCleanDeploy, type NodeRedProcess } from '../helpers/node-red';
import { startServicePeers, type ServicePeers } from './service-peers';
import { emptyTodoFolder } from '../todo/todo-server-process';

const { ROOT } = require('../../scripts/node-red-home.cjs');
const TODO_SERVER = join(ROOT, 'dist', 'servers', 'todo', 'main.js');

for (const generation of HA_GENERATIONS) describeExample(generation);

function describeExample(generation: HaGeneration) {
  describe(`examples: multiple-servers.json on Home Assistant ${generation}`, function () {
    const n = (tool: string) => haToolName(generation, tool);
    this.timeout(180_000);
    let peers: ServicePeers;
    let nr: NodeRedProcess;
    let dataDir: string;
    const flow = readExample('multiple-servers');

    before(async function () {
      if (!existsSync(TODO_SERVER)) skipBecause(this, 'the todo example', `${TODO_SERVER} is missing (npm test builds it; run npm run build)`);
      dataDir = emptyTodoFolder('multi-example-');
      peers = await startServicePeers(generation);
      nr = await startNodeRed({
        env: {
          ...peers.env,
          TODO_DATA_DIR: dataDir,
          DATABASE_URL: '',
          TODO_SERVER,
        },
      });
      await nr.deploy(flow);
    });
    after(async () => {
      await nr?.stop();
      await peers?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('deploys without errors or unknown node types', async () => {
      await assertCleanDeploy(nr, flow);
    });

    it('lists the tools of all three servers (stdio and HTTP) in one object', async () => {
      await nr.inject('ms-inject-list');
      const joined = await nr.debug.next('ms-debug-tools', undefined, 60_000);
      // Keyed by each server's name, which the example gives after its tab.
      const key = (name: string) => `${name} (MCP: several servers, as in .mcp.json)`;
      assert.deepEqual(Object.keys(joined.value).sort(), [key('demo'), key('home-assistant'), key('todo')]);
      assert.ok(joined.value[key('demo')].includes('echo'));
      assert.deepEqual([...joined.value[key('todo')]].sort(), ['create_todo', 'delete_todo', 'list_todos', 'update_todo']);
      assert.deepEqual(
        joined.value[key('home-assistant')],
        peers.ha.tools.map((t) => t.name),
      );
      assert.deepEqual(nr.debug.errors(), []);
    });

    it('one agent calls a tool of each server in one step, names prefixed per server', async () => {
      peers.gemini.script(
        reply.calls([
          { name: 'demo_echo', args: { message: 'hello' } },
          { name: 'todo_create_todo', args: { title: 'call mum' } },
          { name: `ha_${n(n('HassTurnOn'))}`, args: { name: 'Kitchen Light', domain: ['light'] } },
        ]),
        reply.text('Echoed hello, added "call mum" and turned on the kitchen light.'),
      );
      await nr.inject('ms-inject-ask');
      const answer = await nr.debug.next('ms-debug-answer', undefined, 60_000);
      assert.equal(answer.value, 'Echoed hello, added "call mum" and turned on the kitchen light.');
      const trace = await nr.debug.next('ms-debug-trace');
      const calls = trace.value.steps[0].calls;
      assert.deepEqual(
        calls.map((c: any) => [c.name, c.tool, c.isError]),
        [
          ['demo_echo', 'echo', false],
          ['todo_create_todo', 'create_todo', false],
          [`ha_${n(n('HassTurnOn'))}`, n('HassTurnOn'), false],
        ],
      );
      assert.match(JSON.stringify(calls[0].result), /hello/);
      assert.equal(calls[1].result.success, true);
      assert.equal(calls[2].result.response_type, 'action_done');
      // The model was offered every tool of every server, each under its server's prefix.
      const declared: string[] = peers.gemini.requests[0].body.tools.flatMap((t: any) => t.functionDeclarations ?? []).map((d: any) => d.name);
      assert.equal(declared.filter((n) => n.startsWith('ha_')).length, peers.ha.tools.length);
      assert.equal(declared.filter((n) => n.startsWith('todo_')).length, 4);
      assert.ok(declared.includes('demo_echo'));
      assert.ok(
        declared.every((n) => /^(demo|todo|ha)_/.test(n)),
        declared.join(', '),
      );
      assert.ok(peers.ha.requests.some((r) => r.rpcMethod === 'tools/call'));
      assert.deepEqual(nr.debug.errors(), []);
    });
  });
}
