// The MCP nodes against a Home Assistant stand-in that behaves as HA's MCP server does
// (stateless Streamable HTTP, JSON only, bearer auth): discovery, calls, failures reaching Catch
// nodes before anything is sent, and the token never leaking. Every spec runs against both Home
// Assistant generations users run: before 2026.9 (`HassTurnOn`) and 2026.10 (`intent__HassTurnOn`,
// titles, annotations, ToolResult texts); a flow written with either generation's names works on both.
import assert from 'node:assert/strict';
import { HA_GENERATIONS, haToolName, startHomeAssistant, type HaGeneration, type HomeAssistantStandIn } from '../peers/home-assistant';
import { captureLogs, helper, load, nextMessage, send, sleep, useRuntimeWithHomeAssistant } from '../helpers/runtime';

const resourceNode = require('../../nodes/mcp-resource/index.ts');

function flow(url: string, callSettings: Record<string, unknown> = {}) {
  return [
    { id: 'ha', type: 'mcp-server', name: 'Home Assistant', transport: 'http', url },
    { id: 'list', type: 'mcp-list-tools', server: 'ha', wires: [['out']] },
    { id: 'call', type: 'mcp-call-tool', server: 'ha', ...callSettings, wires: [['out'], []] },
    { id: 'out', type: 'helper' },
    { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', type: 'helper' },
  ];
}

const toolCalls = (ha: HomeAssistantStandIn) => ha.requests.filter((r) => r.rpcMethod === 'tools/call');

for (const generation of HA_GENERATIONS) describeGeneration(generation);

function describeGeneration(generation: HaGeneration) {
  describe(`Home Assistant MCP server (stand-in from the ${generation} fixtures)`, function () {
    this.timeout(30000);
    const peers = useRuntimeWithHomeAssistant({ generation });
    afterEach(() => helper.unload());
    /** What this generation calls a tool of the fixture home. */
    const named = (tool: string) => haToolName(generation, tool);
    const other: HaGeneration = generation === '2026.10' ? 'pre-2026.9' : '2026.10';

    it('lists all 19 tools', async () => {
      await load(flow(peers.ha.url), { ha: { token: peers.ha.token } });
      const got = nextMessage('out');
      send('list', { payload: '' });
      const msg = await got;
      assert.equal(msg.payload.length, 19);
      assert.ok(msg.payload.some((t: any) => t.name === named('HassTurnOn')));
      assert.ok(msg.payload.some((t: any) => t.name === named('GetLiveContext')));
      assert.equal(msg.mcp.pages, 1);
    });

    it('calls intent__HassTurnOn (HassTurnOn before 2026.9) by its own name and gets the parsed intent response', async () => {
      await load(flow(peers.ha.url, { tool: named('HassTurnOn') }), { ha: { token: peers.ha.token } });
      const got = nextMessage('out');
      send('call', { payload: { name: 'Kitchen Light' } });
      const msg = await got;
      assert.equal(msg.payload.response_type, 'action_done');
      assert.equal(msg.payload.data.success[0].id, 'light.kitchen');
      const call = toolCalls(peers.ha).at(-1)!;
      assert.equal(call.headers.authorization, `Bearer ${peers.ha.token}`);
    });

    it('a failing call (isError:true) reaches a Catch node by default', async () => {
      await load(flow(peers.ha.url, { tool: named('HassTurnOn') }), { ha: { token: peers.ha.token } });
      const caught = nextMessage('caught');
      send('call', { payload: { name: 'Backyard' } });
      const msg = await caught;
      assert.match(msg.error.message, new RegExp(`${named('HassTurnOn')}.*MatchFailedError`, 's'));
      assert.equal(msg.error.source.id, 'call');
    });

    it('with toolErrors "output" the failing call leaves on output 1 with msg.mcp.isError', async () => {
      await load(flow(peers.ha.url, { tool: named('HassTurnOn'), toolErrors: 'output' }), { ha: { token: peers.ha.token } });
      const got = nextMessage('out');
      send('call', { payload: { name: 'Backyard' } });
      const msg = await got;
      assert.equal(msg.mcp.isError, true);
      assert.match(String(msg.payload), /MatchFailedError/);
    });

    describe('bad input: Catch sees done(err) and no call reaches the server', () => {
      async function expectCaught(callSettings: Record<string, unknown>, input: Record<string, unknown>, pattern: RegExp) {
        await load(flow(peers.ha.url, callSettings), { ha: { token: peers.ha.token } });
        const before = toolCalls(peers.ha).length;
        const caught = nextMessage('caught');
        send('call', input);
        const msg = await caught;
        assert.match(msg.error.message, pattern);
        await sleep(50);
        assert.equal(toolCalls(peers.ha).length, before, 'no tools/call reached the server');
        return msg;
      }

      it('unknown tool names close matches', async () => {
        await expectCaught({}, { tool: 'HassTurnOnn', payload: {} }, new RegExp(`Unknown tool "HassTurnOnn".*did you mean: .*${named('HassTurnOn')}`));
      });
      it('arguments that are not an object', async () => {
        await expectCaught({ tool: named('HassTurnOn') }, { payload: 'Kitchen Light' }, /must be an object, got string/);
        await expectCaught({ tool: named('HassTurnOn') }, { payload: ['a'] }, /must be an object, got array/);
      });
      it('arguments failing the schema give the path and the reason', async () => {
        await expectCaught({ tool: named('HassLightSet') }, { payload: { name: 'Kitchen Light', brightness: 150 } }, /brightness: must be <= 100/);
      });
      it('no tool at all', async () => {
        await expectCaught({}, { payload: { foo: 1 } }, /No tool to call/);
      });
    });

    it('a Gemini-style call {name,args} is mapped back through msg.mcp.names', async () => {
      await load(flow(peers.ha.url), { ha: { token: peers.ha.token } });
      const got = nextMessage('out');
      send('call', { payload: { name: 'turn_on', args: { name: 'Kitchen Light' } }, mcp: { names: { turn_on: named('HassTurnOn') } } });
      const msg = await got;
      assert.equal(msg.mcp.tool, named('HassTurnOn'));
      assert.equal(msg.payload.response_type, 'action_done');
    });

    it('a bad token fails with 401 naming the URL; the token appears nowhere', async () => {
      const secret = 'not-the-right-token-5b7e1f';
      await load(flow(peers.ha.url, { tool: named('HassTurnOn') }), { ha: { token: secret } });
      const logSpy = helper.log(); // the runtime's log spy exists once a flow is loaded
      const statuses: unknown[] = [];
      const callNode = helper.getNode('call');
      const origStatus = callNode.status.bind(callNode);
      callNode.status = (s: unknown) => {
        statuses.push(s);
        return origStatus(s);
      };
      const caught = nextMessage('caught');
      send('call', { payload: { name: 'Kitchen Light' } });
      const msg = await caught;
      assert.match(msg.error.message, /401 Unauthorized/);
      assert.ok(msg.error.message.includes(peers.ha.url), msg.error.message);
      const everything = JSON.stringify([msg, statuses, logSpy.args]);
      assert.ok(!everything.includes(secret), 'token leaked');
      assert.ok(statuses.some((s: any) => s.fill === 'red' && /401/.test(s.text)));
    });

    it('a correct token never appears in messages, logs or status', async () => {
      await load(flow(peers.ha.url, { tool: named('HassTurnOn') }), { ha: { token: peers.ha.token } });
      const logSpy = helper.log();
      const got = nextMessage('out');
      send('call', { payload: { name: 'Kitchen Light' } });
      const msg = await got;
      const everything = JSON.stringify([msg, logSpy.args]);
      assert.ok(logSpy.args.length > 0, 'the log spy saw this flow');
      assert.ok(!everything.includes(peers.ha.token));
    });

    it(`a flow written with ${other}'s names works: it calls the tool by this server's name and says so once`, async () => {
      const written = haToolName(other, 'HassTurnOn');
      await load(flow(peers.ha.url, { tool: written }), { ha: { token: peers.ha.token } });
      const logs = captureLogs();
      const got = nextMessage('out');
      send('call', { payload: { name: 'Kitchen Light' } });
      const msg = await got;
      assert.equal(msg.payload.response_type, 'action_done');
      assert.equal(msg.mcp.tool, named('HassTurnOn'));
      assert.equal(toolCalls(peers.ha).at(-1)!.json && (toolCalls(peers.ha).at(-1)!.json as any).params.name, named('HassTurnOn'));
      const second = nextMessage('out');
      send('call', { payload: { name: 'Kitchen Light' } });
      await second;
      const said = logs.lines().filter((l) => l.includes(`\\"${written}\\" is called as`));
      if (written === named('HassTurnOn')) assert.equal(said.length, 0);
      else assert.equal(said.length, 1, `one warning naming the full name, got ${said.length}`);
    });

    it(`the todo tool keeps its name across the rename (${haToolName(other, 'todo_get_items')} → ${named('todo_get_items')})`, async () => {
      await load(flow(peers.ha.url, { tool: haToolName(other, 'todo_get_items') }), { ha: { token: peers.ha.token } });
      const got = nextMessage('out');
      send('call', { payload: { todo_list: 'Shopping List' } });
      const msg = await got;
      assert.deepEqual(
        msg.payload.result.map((i: any) => i.summary),
        ['Milk', 'Coffee beans'],
      );
    });

    it('list filters and expected tools match through the rename', async () => {
      const written = [haToolName(other, 'HassTurnOn'), haToolName(other, 'GetLiveContext')];
      await load(
        [
          ...flow(peers.ha.url).map((n) =>
            n.id === 'list' ? { ...n, include: 'Hass*\nGetLiveContext', exclude: 'HassMedia*', expected: written.join('\n') } : n,
          ),
        ],
        { ha: { token: peers.ha.token } },
      );
      const got = nextMessage('out');
      send('list', { payload: '' });
      const msg = await got;
      const names = msg.payload.map((t: any) => t.name);
      assert.ok(names.includes(named('HassTurnOn')) && names.includes(named('GetLiveContext')), names.join());
      assert.ok(!names.some((n: string) => /HassMedia/.test(n)), 'excluded HassMedia*');
      assert.ok(!names.includes(named('GetDateTime')), 'not included');
      assert.deepEqual(msg.mcp.missing, []);
    });

    if (generation === '2026.10') {
      it('2026.10: titles and annotations reach msg.payload and msg.mcp.tools; a ToolResult text is its data', async () => {
        await load(flow(peers.ha.url, { tool: 'GetDateTime' }), { ha: { token: peers.ha.token } });
        const listed = nextMessage('out');
        send('list', { payload: '' });
        const list = await listed;
        const dateTime = list.payload.find((t: any) => t.name === 'llm__GetDateTime');
        assert.equal(dateTime.title, 'Get date and time');
        assert.equal(dateTime.annotations.readOnlyHint, true);
        assert.equal(list.mcp.tools.find((t: any) => t.name === 'intent__HassTurnOff').annotations.destructiveHint, true);
        const got = nextMessage('out');
        send('call', { payload: {} });
        const msg = await got;
        assert.deepEqual(msg.payload, { date: '2026-11-25', time: '19:42:07', timezone: 'CET', weekday: 'Wednesday' });
      });

      it('2026.10: mcp-resource reads the Assist context snapshot', async () => {
        await load(
          [
            { id: 'ha', type: 'mcp-server', name: 'Home Assistant', transport: 'http', url: peers.ha.url },
            { id: 'reader', type: 'mcp-resource', server: 'ha', operation: 'read', uri: 'homeassistant://assist/context-snapshot', wires: [['out']] },
            { id: 'out', type: 'helper' },
          ],
          { ha: { token: peers.ha.token } },
          [resourceNode],
        );
        const got = nextMessage('out');
        send('reader', { payload: '' });
        const msg = await got;
        assert.match(msg.payload, /^Live Context: An overview of the areas and the devices in this smart home:/);
        assert.equal(msg.contentType, 'text/plain');
      });
    }
  });
}

describe('Home Assistant 2026.10: renamed tools that are ambiguous, and administrators', function () {
  this.timeout(30000);
  let merged: HomeAssistantStandIn;
  const peers = useRuntimeWithHomeAssistant({ generation: '2026.10', nonAdminToken: 'a-valid-token-of-a-user-who-is-not-admin' });
  before(async () => (merged = await startHomeAssistant({ generation: '2026.10', apis: ['assist', 'management'] })));
  after(() => merged.close());
  afterEach(() => helper.unload());

  it('a bare name that fits several tools is an error naming them, and nothing is called', async () => {
    await load(flow(merged.url, { tool: 'HassTurnOn' }), { ha: { token: merged.token } });
    const caught = nextMessage('caught');
    send('call', { payload: { name: 'Kitchen Light' } });
    const msg = await caught;
    assert.match(msg.error.message, /"HassTurnOn" fits several tools of the server: assist__intent__HassTurnOn, management__intent__HassTurnOn/);
    assert.equal(toolCalls(merged).length, 0);
  });

  it('the full name, or a name with one API prefix less that fits one tool, is called', async () => {
    await load(flow(merged.url, { tool: 'assist__intent__HassTurnOn' }), { ha: { token: merged.token } });
    const got = nextMessage('out');
    send('call', { payload: { name: 'Kitchen Light' } });
    assert.equal((await got).payload.response_type, 'action_done');
    assert.equal((toolCalls(merged).at(-1)!.json as any).params.name, 'assist__intent__HassTurnOn');
  });

  it("a non-administrator's token: the 401 says that new entries need an administrator's token", async () => {
    await load(flow(peers.ha.url, { tool: 'intent__HassTurnOn' }), { ha: { token: 'a-valid-token-of-a-user-who-is-not-admin' } });
    const caught = nextMessage('caught');
    send('call', { payload: { name: 'Kitchen Light' } });
    const msg = await caught;
    assert.match(msg.error.message, /401 Unauthorized.*administrator's token/);
    assert.ok(!msg.error.message.includes('a-valid-token-of-a-user-who-is-not-admin'));
  });
});
