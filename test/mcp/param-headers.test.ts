// Mcp-Param-* headers (2026-07-28): a tool that marks an argument with `x-mcp-header` gets that value
// repeated in a header, and the server SDK turns a call without it away. mcp-call-tool against the
// server SDK's own McpServer, in the real runtime: the first call carries the header (it used to be
// refused once per connection, then answered after the client SDK had listed every tool again), the
// 2025 revisions send no such header, and a tool that gained the declaration after it was listed is
// listed again and called once more.
import assert from 'node:assert/strict';
import { startParamHeaderServer, type ParamHeaderServer } from '../peers/param-header-server';
import { helper, load, nextMessage, send, startRuntime, stopRuntime } from '../helpers/runtime';

describe('Mcp-Param-* headers of tools that declare them (server SDK McpServer)', function () {
  this.timeout(30_000);
  let peer: ParamHeaderServer | undefined;
  before(startRuntime);
  after(stopRuntime);
  afterEach(async () => {
    await helper.unload();
    await peer?.close();
    peer = undefined;
  });

  async function call(region: string): Promise<{ payload: unknown; protocolVersion: string }> {
    const got = nextMessage('out');
    send('call', { payload: { region, on: true } });
    const msg = await got;
    return { payload: msg.payload, protocolVersion: msg.mcp.server.protocolVersion };
  }

  async function deploy(server: ParamHeaderServer, protocolVersion?: string) {
    await load([
      { id: 'srv', type: 'mcp-server', transport: 'http', url: server.url, ...(protocolVersion ? { protocolVersion } : {}) },
      { id: 'call', type: 'mcp-call-tool', server: 'srv', tool: 'lights', wires: [['out'], []] },
      { id: 'out', type: 'helper' },
    ]);
  }

  it('2026-07-28: every call carries its header, the first one too, and nothing is refused or listed twice', async () => {
    peer = await startParamHeaderServer(true);
    await deploy(peer);
    const first = await call('eu');
    assert.equal(first.protocolVersion, '2026-07-28');
    assert.equal(first.payload, 'lights in eu');
    assert.equal((await call('us')).payload, 'lights in us');
    const calls = peer.posts.filter((p) => p.method === 'tools/call');
    assert.deepEqual(
      calls.map((p) => [p.regionHeader, p.status]),
      [
        ['eu', 200],
        ['us', 200],
      ],
      'each call sent once, with its Mcp-Param-Region header',
    );
    assert.equal(peer.posts.filter((p) => p.method === 'tools/list').length, 1, 'the node listed the tools once; nothing listed them again');
    assert.deepEqual(
      peer.posts.filter((p) => p.status >= 400),
      [],
      'no request was turned away',
    );
  });

  it('2025-11-25: no Mcp-Param header is sent, and the call works', async () => {
    peer = await startParamHeaderServer(true);
    await deploy(peer, '2025-11-25');
    const result = await call('eu');
    assert.equal(result.protocolVersion, '2025-11-25');
    assert.equal(result.payload, 'lights in eu');
    assert.deepEqual(
      peer.posts.filter((p) => p.method === 'tools/call').map((p) => p.regionHeader),
      [null],
    );
  });

  it('a tool that declared its header only after it was listed: refused once, listed again, sent once more with the header', async () => {
    peer = await startParamHeaderServer(false);
    await deploy(peer);
    assert.equal((await call('eu')).payload, 'lights in eu', 'works while the tool declares no header');
    peer.declareHeader = true; // the server's tool changed; a stateless server has no list_changed to say so
    const listsBefore = peer.posts.filter((p) => p.method === 'tools/list').length;
    assert.equal((await call('us')).payload, 'lights in us');
    const calls = peer.posts.filter((p) => p.method === 'tools/call');
    assert.deepEqual(
      calls.map((p) => [p.regionHeader, p.status]),
      [
        [null, 200],
        [null, 400],
        ['us', 200],
      ],
      'the stale call was refused before it ran, and sent again with the header',
    );
    assert.equal(peer.posts.filter((p) => p.method === 'tools/list').length, listsBefore + 1, 'listed once more');
  });
});
