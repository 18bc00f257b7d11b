// The MCP nodes against a Home Assistant stand-in that behaves as HA's MCP server does
// (stateless Streamable HTTP, JSON only, bearer auth): discovery, calls, failures reaching Catch
// nodes before anything is sent, and the token never leaking.
import assert from 'node:assert/strict';
import type { HomeAssistantStandIn } from '../peers/home-assistant';
import { helper, load, nextMessage, send, sleep, useRuntimeWithHomeAssistant } from '../helpers/runtime';

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

describe('Home Assistant MCP server (stand-in from fixtures)', function () {
  this.timeout(30000);
  const peers = useRuntimeWithHomeAssistant();
  afterEach(() => helper.unload());

  it('lists all 19 tools', async () => {
    await load(flow(peers.ha.url), { ha: { token: peers.ha.token } });
    const got = nextMessage('out');
    send('list', { payload: '' });
    const msg = await got;
    assert.equal(msg.payload.length, 19);
    assert.ok(msg.payload.some((t: any) => t.name === 'HassTurnOn'));
    assert.ok(msg.payload.some((t: any) => t.name === 'GetLiveContext'));
    assert.equal(msg.mcp.pages, 1);
  });

  it('calls HassTurnOn and gets the parsed intent response', async () => {
    await load(flow(peers.ha.url, { tool: 'HassTurnOn' }), { ha: { token: peers.ha.token } });
    const got = nextMessage('out');
    send('call', { payload: { name: 'Kitchen Light' } });
    const msg = await got;
    assert.equal(msg.payload.response_type, 'action_done');
    assert.equal(msg.payload.data.success[0].id, 'light.kitchen');
    const call = toolCalls(peers.ha).at(-1)!;
    assert.equal(call.headers.authorization, `Bearer ${peers.ha.token}`);
  });

  it('a failing call (isError:true) reaches a Catch node by default', async () => {
    await load(flow(peers.ha.url, { tool: 'HassTurnOn' }), { ha: { token: peers.ha.token } });
    const caught = nextMessage('caught');
    send('call', { payload: { name: 'Backyard' } });
    const msg = await caught;
    assert.match(msg.error.message, /HassTurnOn.*MatchFailedError/s);
    assert.equal(msg.error.source.id, 'call');
  });

  it('with toolErrors "output" the failing call leaves on output 1 with msg.mcp.isError', async () => {
    await load(flow(peers.ha.url, { tool: 'HassTurnOn', toolErrors: 'output' }), { ha: { token: peers.ha.token } });
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
      await expectCaught({}, { tool: 'HassTurnOnn', payload: {} }, /Unknown tool "HassTurnOnn".*did you mean: .*HassTurnOn/);
    });
    it('arguments that are not an object', async () => {
      await expectCaught({ tool: 'HassTurnOn' }, { payload: 'Kitchen Light' }, /must be an object, got string/);
      await expectCaught({ tool: 'HassTurnOn' }, { payload: ['a'] }, /must be an object, got array/);
    });
    it('arguments failing the schema give the path and the reason', async () => {
      await expectCaught({ tool: 'HassLightSet' }, { payload: { name: 'Kitchen Light', brightness: 150 } }, /brightness: must be <= 100/);
    });
    it('no tool at all', async () => {
      await expectCaught({}, { payload: { foo: 1 } }, /No tool to call/);
    });
  });

  it('a Gemini-style call {name,args} is mapped back through msg.mcp.names', async () => {
    await load(flow(peers.ha.url), { ha: { token: peers.ha.token } });
    const got = nextMessage('out');
    send('call', { payload: { name: 'turn_on', args: { name: 'Kitchen Light' } }, mcp: { names: { turn_on: 'HassTurnOn' } } });
    const msg = await got;
    assert.equal(msg.mcp.tool, 'HassTurnOn');
    assert.equal(msg.payload.response_type, 'action_done');
  });

  it('a bad token fails with 401 naming the URL; the token appears nowhere', async () => {
    const secret = 'not-the-right-token-5b7e1f';
    await load(flow(peers.ha.url, { tool: 'HassTurnOn' }), { ha: { token: secret } });
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
    await load(flow(peers.ha.url, { tool: 'HassTurnOn' }), { ha: { token: peers.ha.token } });
    const logSpy = helper.log();
    const got = nextMessage('out');
    send('call', { payload: { name: 'Kitchen Light' } });
    const msg = await got;
    const everything = JSON.stringify([msg, logSpy.args]);
    assert.ok(logSpy.args.length > 0, 'the log spy saw this flow');
    assert.ok(!everything.includes(peers.ha.token));
  });
});
