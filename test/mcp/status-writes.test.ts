// A node's status is written when it changes, not once per message: sixteen calls in flight show
// one blue dot (then the server's green), where every call wrote twice before. Each write is an
// event to every editor and Status node.
import assert from 'node:assert/strict';
import { startPaginatedServer, type PaginatedServer } from '../peers/paginated-server';
import { fromRuntime, load, nextMessages, send, startRuntime, stopRuntime } from '../helpers/runtime';

const runtimeEvents = require(fromRuntime('@node-red/util')).events;

describe('mcp-call-tool status: written on change, not per call (real runtime)', function () {
  this.timeout(60000);
  let peer: PaginatedServer;
  before(async () => {
    await startRuntime();
    peer = await startPaginatedServer({ toolCount: 3, pageSize: 10 });
  });
  after(async () => {
    await stopRuntime();
    await peer?.close();
  });

  it('16 calls at once: one blue dot while any runs, one green when all are done, every answer delivered', async () => {
    await load([
      { id: 'srv', type: 'mcp-server', transport: 'http', url: peer.url },
      { id: 'call', type: 'mcp-call-tool', server: 'srv', tool: 'tool-01', wires: [['out'], []] },
      { id: 'out', type: 'helper' },
    ]);
    // The first call connects and lists the tools; then the burst.
    let got = nextMessages('out', 1);
    send('call', { payload: { text: 'warm' } });
    await got;
    const statuses: Array<{ fill?: string; text?: string }> = [];
    const onStatus = (e: { id: string; status: (typeof statuses)[number] }) => void (e.id === 'call' && statuses.push(e.status));
    runtimeEvents.on('node-status', onStatus);
    try {
      got = nextMessages('out', 16);
      for (let i = 0; i < 16; i++) send('call', { payload: { text: `m${i}` } });
      const answers = await got;
      assert.deepEqual(answers.map((m) => m.payload).sort(), Array.from({ length: 16 }, (_, i) => `tool-01: m${i}`).sort());
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(
        statuses.map((s) => s.fill),
        ['blue', 'green'],
        JSON.stringify(statuses),
      );
    } finally {
      runtimeEvents.off('node-status', onStatus);
    }
  });
});
