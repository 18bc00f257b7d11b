// The protocolVersion setting: "auto" negotiates the newest revision both sides speak, and a pinned
// revision is the one the session speaks, against a server that serves both eras on one URL.
import assert from 'node:assert/strict';
import { startDualEraServer } from '../peers/dual-era-server';
import type { HttpEndpoint } from '../../servers/todo/http-transport';
import { helper, load, nextMessage, send, startRuntime, stopRuntime } from '../helpers/runtime';

describe('protocol version negotiation', function () {
  this.timeout(30000);
  let peer: HttpEndpoint;
  before(async () => {
    await startRuntime();
    peer = await startDualEraServer();
  });
  after(async () => {
    await stopRuntime();
    await peer.close();
  });
  afterEach(() => helper.unload());

  async function negotiated(protocolVersion?: string): Promise<string> {
    await load([
      { id: 'srv', type: 'mcp-server', transport: 'http', url: peer.url, ...(protocolVersion ? { protocolVersion } : {}) },
      { id: 'call', type: 'mcp-call-tool', server: 'srv', tool: 'beta', wires: [['out'], []] },
      { id: 'out', type: 'helper' },
    ]);
    const got = nextMessage('out');
    send('call', { payload: { text: 'hi' } });
    const msg = await got;
    assert.equal(msg.payload, 'beta: hi', 'tools work in this era too');
    return msg.mcp.server.protocolVersion;
  }

  it('auto (the default) lands on 2026-07-28 when the server offers it', async () => {
    assert.equal(await negotiated(), '2026-07-28');
  });
  it('a pinned 2025 revision is the one the session speaks', async () => {
    assert.equal(await negotiated('2025-06-18'), '2025-06-18');
    assert.equal(await negotiated('2024-11-05'), '2024-11-05');
  });
  it('a pinned 2026-07-28 speaks the stateless era', async () => {
    assert.equal(await negotiated('2026-07-28'), '2026-07-28');
  });
});
