// Streamable HTTP faults through the real runtime. Every message must end in an output or at the
// Catch node within its timeout, and the error must say what happened and what to do:
// a server killed mid-call (and the session recovering when it is back), a server slower than the
// timeout, garbage replies, a host name that does not resolve, and cancellation when a node closes.
import assert from 'node:assert/strict';
import { startHostileHttpServer, type HostileHttpServer } from '../peers/hostile-http-server';
import { helper, load, nextMessage, nextMessages, send, sleep, startRuntime, stopRuntime, setFlows } from '../helpers/runtime';

function flow(server: Record<string, unknown>, tool = 'echo') {
  return [
    { id: 'srv', type: 'mcp-server', transport: 'http', protocolVersion: '2025-06-18', timeout: 10, ...server },
    { id: 'call', type: 'mcp-call-tool', server: 'srv', tool, wires: [['out'], []] },
    { id: 'out', type: 'helper' },
    { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', type: 'helper' },
  ];
}

describe('HTTP faults end in an output or a Catch, with a message that names the cause', function () {
  this.timeout(60000);
  let peer: HostileHttpServer;
  before(startRuntime);
  after(stopRuntime);
  beforeEach(async () => {
    peer = await startHostileHttpServer();
  });
  afterEach(async () => {
    await helper.unload();
    await peer.stop();
  });

  it('16 calls in flight when the server dies all reach Catch naming the cut connection; the session recovers', async () => {
    await load(flow({ url: peer.url }, 'slow'));
    const warm = nextMessage('out');
    send('call', { payload: { ms: 0 } });
    await warm;
    const caught = nextMessages('caught', 16);
    for (let i = 0; i < 16; i++) send('call', { payload: { ms: 5000 } });
    while (peer.calls < 17) await sleep(20); // all 16 reached the tool
    await peer.stop();
    const errors = await caught;
    for (const m of errors) {
      assert.match(m.error.message, new RegExp(`${peer.url}: (ECONNRESET|UND_ERR_SOCKET|EPIPE)`));
      assert.match(m.error.message, /closed the connection during the request/);
    }
    await peer.start();
    const back = nextMessage('out');
    send('call', { payload: { ms: 0 } });
    assert.equal((await back).payload, 'slow answer', 'the same session works again once the server is back');
  });

  it('a server slower than the configured timeout: Catch says the timeout, not a hang', async () => {
    await load(flow({ url: peer.url, timeout: 1 }, 'slow'));
    const caught = nextMessage('caught');
    send('call', { payload: { ms: 8000 } });
    const msg = await caught;
    assert.match(msg.error.message, /no answer within 1 s \(request timed out\)/);
  });

  for (const [mode, what] of [
    ['garbage-json', /invalid JSON: .*content type application\/json, starts with "\{jsonrpc: 2\.0, oops"/],
    ['html', /not JSON or an event stream; content type text\/html, starts with "<html><body>Please log in/],
  ] as const) {
    it(`a ${mode} reply names the URL and what came`, async () => {
      peer.mode = mode;
      await load(flow({ url: peer.url }));
      const caught = nextMessage('caught');
      send('call', { payload: { text: 'x' } });
      const msg = await caught;
      assert.ok(msg.error.message.includes(`${peer.url}: the server's reply is not an MCP answer`), msg.error.message);
      assert.match(msg.error.message, what);
      assert.match(msg.error.message, /check that the URL is the server's MCP endpoint/);
    });
  }

  it('a host name that does not resolve says so, with the code', async () => {
    await load(flow({ url: 'http://mcp-server.nonexistent.invalid/mcp' }));
    const caught = nextMessage('caught');
    send('call', { payload: { text: 'x' } });
    const msg = await caught;
    assert.match(msg.error.message, /http:\/\/mcp-server\.nonexistent\.invalid\/mcp: (ENOTFOUND|EAI_AGAIN)/);
    assert.match(msg.error.message, /does not resolve/);
    // Said once, in words a person can act on: none of the SDK's or fetch's own wording.
    assert.doesNotMatch(msg.error.message, /probe|fetch failed|getaddrinfo/i);
  });

  it('closing the node cancels the call in flight (notifications/cancelled); closing the session aborts its open request', async () => {
    const nodes = flow({ url: peer.url }, 'slow');
    await load(nodes);
    const warm = nextMessage('out');
    send('call', { payload: { ms: 0 } });
    await warm;
    const abortedBefore = peer.abortedRequests;
    send('call', { payload: { ms: 20000 } });
    while (peer.calls < 2) await sleep(20);
    // Redeploy only the call node ("modified nodes" deploy): the session stays, the call is cancelled.
    const tab = { id: 'test-tab', type: 'tab', label: 'test' };
    const changed = nodes.map((n) => (n.type === 'mcp-server' ? n : { ...n, z: tab.id, ...(n.id === 'call' ? { name: 'changed' } : {}) }));
    await setFlows([tab, ...changed] as any, 'nodes');
    let deadline = Date.now() + 5000;
    while (peer.cancelled.length === 0 && Date.now() < deadline) await sleep(20);
    assert.equal(peer.cancelled.length, 1, 'the server was told the call is cancelled');
    // The SDK (2025 era) leaves the cancelled call's POST waiting for the server; closing the
    // session aborts it through the transport's signal, which reaches each request's own signal.
    assert.equal(peer.abortedRequests, abortedBefore);
    await helper.unload();
    deadline = Date.now() + 5000;
    while (peer.abortedRequests === abortedBefore && Date.now() < deadline) await sleep(20);
    assert.equal(peer.abortedRequests - abortedBefore, 1, 'the open HTTP request was aborted when the session closed');
  });
});
