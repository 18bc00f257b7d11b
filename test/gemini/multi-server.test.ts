// Tools from several MCP servers at once: the Home Assistant stand-in (Streamable HTTP) and the
// official server-everything (stdio), names prefixed per server and mapped back; and dotted
// xiaozhi-style tool names from a real stdio MCP server, sanitised for Gemini and mapped back.
import { HA_GENERATIONS, haToolName, type HaGeneration } from '../peers/home-assistant';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { everythingStdio } from '../peers/everything';
import type { HomeAssistantStandIn } from '../peers/home-assistant';
import { reply } from '../peers/fake-gemini';
import { allLogs, errorText, haServer, helper, loadAgent, run, type FakeGemini, type ServerDef, useAgentPeers } from './harness';
import { fromRuntime, until } from '../helpers/runtime';
import { freePort } from '../peers/free-port';

const runtimeEvents = require(fromRuntime('@node-red/util')).events;

const dottedServer: ServerDef = {
  id: 'otto',
  name: 'Otto',
  transport: 'stdio',
  command: process.execPath,
  args: ['--import', 'tsx', join(__dirname, 'dotted-tool-server.ts')],
};

for (const generation of HA_GENERATIONS) describeServers(generation);

function describeServers(generation: HaGeneration) {
  describe(`gemini-agent: several MCP servers and dotted tool names (Home Assistant ${generation})`, function () {
    const n = (tool: string) => haToolName(generation, tool);
    this.timeout(60000);
    let fake: FakeGemini;
    let ha: HomeAssistantStandIn;

    const peers = useAgentPeers({ generation });
    beforeEach(() => ({ fake, ha } = peers)); // the names the tests below use

    const everything: ServerDef = { id: 'ev', name: 'everything', transport: 'stdio', command: everythingStdio.command, args: everythingStdio.args };

    it('offers the tools of Home Assistant and server-everything together, prefixed per server, and routes calls back', async () => {
      await loadAgent({ fake, servers: [haServer(ha), everything] });
      fake.script(
        reply.calls([
          { name: `home_assistant_${n('HassTurnOn')}`, args: { name: 'Porch Light' } },
          { name: 'everything_echo', args: { message: 'hello from Gemini' } },
        ]),
        reply.text('Porch on; echo said hello.'),
      );
      const { answer, caught } = await run({ payload: 'porch light on and echo hello' });
      assert.equal(caught, undefined, caught && caught.error?.message);
      const declared = fake.requests[0].body.tools[0].functionDeclarations.map((d: any) => d.name);
      assert.ok(declared.includes(`home_assistant_${n('HassTurnOn')}`));
      assert.ok(declared.includes('everything_echo'));
      assert.ok(declared.every((n: string) => n.startsWith('home_assistant_') || n.startsWith('everything_')));
      const calls = answer.gemini.steps[0].calls;
      assert.deepEqual(
        calls.map((c: any) => [c.name, c.server, c.tool, c.isError]),
        [
          [`home_assistant_${n('HassTurnOn')}`, 'Home Assistant', n('HassTurnOn'), false],
          ['everything_echo', 'everything', 'echo', false],
        ],
      );
      assert.match(JSON.stringify(calls[1].result), /hello from Gemini/);
      assert.ok(ha.requests.some((r: any) => r.rpcMethod === 'tools/call' && r.json.params.name === n('HassTurnOn')));
    });

    it('runs with the reachable servers when one is down: a warning, and msg.gemini.unavailable names it', async () => {
      const port = await freePort(); // nothing listens there
      const down: ServerDef = { id: 'down', name: 'Garage', transport: 'http', url: `http://127.0.0.1:${port}/mcp` };
      await loadAgent({ fake, servers: [haServer(ha), down] });
      fake.script(reply.call(`home_assistant_${n('HassTurnOn')}`, { name: 'Porch Light' }), reply.text('Porch on.'));
      const { answer, caught } = await run({ payload: 'porch light on' });
      assert.equal(caught, undefined, caught && caught.error?.message);
      assert.equal(answer.payload, 'Porch on.');
      const declared = fake.requests[0].body.tools[0].functionDeclarations.map((d: any) => d.name);
      assert.ok(declared.includes(`home_assistant_${n('HassTurnOn')}`) && declared.every((n: string) => n.startsWith('home_assistant_')));
      assert.equal(answer.gemini.unavailable.length, 1);
      assert.equal(answer.gemini.unavailable[0].server, 'Garage');
      assert.match(answer.gemini.unavailable[0].error, /ECONNREFUSED/);
      assert.match(allLogs(), /MCP server \\"Garage\\" is unavailable, so the agent runs without its tools/);
    });

    it('shows its own status over both servers (their tools added up), not the state of whichever server changed last', async () => {
      const statuses: Array<{ fill?: string; shape?: string; text?: string }> = [];
      const onStatus = (e: { id: string; status: (typeof statuses)[number] }) => void (e.id === 'agent' && statuses.push(e.status));
      runtimeEvents.on('node-status', onStatus);
      try {
        await loadAgent({ fake, servers: [haServer(ha), dottedServer] });
        fake.script(reply.text('ok'));
        const { caught } = await run({ payload: 'hi' });
        assert.equal(caught, undefined, caught && caught.error?.message);
        const toolsOf = async (id: string) => (await helper.getNode(id).provider.listTools()).tools.length;
        const [haTools, ottoTools] = [await toolsOf('ha'), await toolsOf('otto')];
        assert.ok(haTools > 0 && ottoTools > 0);
        const own = { fill: 'green', shape: 'dot', text: `${haTools + ottoTools} tools` };
        await until(`the agent's status "${own.text}"`, () => statuses.at(-1)?.text === own.text);
        // Only Otto's session changes now (a fresh tools/list): the agent still shows the total.
        const seen = statuses.length;
        await helper.getNode('otto').provider.listTools({ refresh: true });
        await new Promise((r) => setImmediate(r)); // the change reaches the agent's status writer
        // The same total again is not written twice; anything written is the total, never Otto's count alone.
        assert.ok(
          statuses.slice(seen).every((s) => s.text === own.text),
          JSON.stringify(statuses.slice(seen)),
        );
        assert.deepEqual(statuses.at(-1), own);
      } finally {
        runtimeEvents.off('node-status', onStatus);
      }
    });

    it('fails (Catch) when the only configured server is down', async () => {
      const port = await freePort();
      await loadAgent({ fake, servers: [{ id: 'down', name: 'Garage', transport: 'http', url: `http://127.0.0.1:${port}/mcp` }] });
      const { caught } = await run({ payload: 'anything' });
      assert.match(errorText(caught), /ECONNREFUSED/);
      assert.equal(fake.requests.length, 0, 'Gemini is not asked without tools to offer');
    });

    it('uses the prefixes and include filters the settings give', async () => {
      await loadAgent({
        fake,
        servers: [
          { ...haServer(ha), prefix: 'ha_', include: 'HassTurn*' },
          { ...everything, prefix: 'ev_', include: 'echo\nget-sum', exclude: 'get-sum' },
        ],
      });
      fake.script(reply.text('ok'));
      await run({ payload: 'list' });
      const declared = fake.requests[0].body.tools[0].functionDeclarations.map((d: any) => d.name).sort();
      assert.deepEqual(declared, ['ev_echo', `ha_${n('HassTurnOff')}`, `ha_${n('HassTurnOn')}`]);
    });

    it('maps a dotted xiaozhi-style name (self.audio_speaker.set_volume) to a valid Gemini name and back', async () => {
      await loadAgent({ fake, servers: [dottedServer] });
      fake.script(reply.call('self_audio_speaker_set_volume', { volume: 30 }), reply.text('Volume is 30.'));
      const { answer, caught } = await run({ payload: 'volume to 30' });
      assert.equal(caught, undefined, caught && caught.error?.message);
      const declared = fake.requests[0].body.tools[0].functionDeclarations.map((d: any) => d.name).sort();
      assert.deepEqual(declared, ['self_audio_speaker_set_volume', 'self_get_device_status']);
      const call = answer.gemini.steps[0].calls[0];
      assert.equal(call.tool, 'self.audio_speaker.set_volume');
      assert.deepEqual(call.result, { tool: 'self.audio_speaker.set_volume', volume: 30 });
      assert.equal(fake.requests[1].body.contents[2].parts[0].functionResponse.name, 'self_audio_speaker_set_volume');
    });

    it('adds msg.tools from mcp-list-tools to the configured servers, mapped through msg.mcp.names', async () => {
      await loadAgent({ fake, servers: [haServer(ha)] });
      fake.script(reply.call('otto_volume', { volume: 120 }), reply.text('Too loud, I set nothing.'));
      const { answer } = await run({
        payload: 'volume to 120',
        tools: {
          functionDeclarations: [
            {
              name: 'otto_volume',
              description: 'Set volume',
              parametersJsonSchema: { type: 'object', properties: { volume: { type: 'integer', maximum: 100 } } },
            },
          ],
        },
        mcp: {
          names: { otto_volume: 'self.audio_speaker.set_volume' },
          server: { id: 'not-deployed', name: 'Otto' },
          tools: [{ name: 'self.audio_speaker.set_volume', inputSchema: { type: 'object', properties: { volume: { type: 'integer', maximum: 100 } } } }],
        },
      });
      const declared = fake.requests[0].body.tools[0].functionDeclarations.map((d: any) => d.name);
      assert.ok(declared.includes('otto_volume') && declared.includes(n('HassTurnOn')));
      const call = answer.gemini.steps[0].calls[0];
      assert.deepEqual([call.server, call.tool, call.isError], ['Otto', 'self.audio_speaker.set_volume', true]);
      assert.match(String(call.result), /volume/, 'validated against msg.mcp.tools before any call');
    });
  });
}
