// A hostile MCP server answers a tool call with replies built to exhaust the client's memory: a gzip
// bomb that inflates to 600 MB (which used to end the Node-RED process: the inflated text could not
// become one string), a 300 MB bomb (which used to succeed, holding the whole reply), and an event
// that never ends (which used to be kept and re-scanned without limit). Each call must end in an
// error a Catch node sees, saying the reply was too large, while the process lives on and a normal
// call on the same server still works. The peer writes these replies by hand on real sockets
// (test/peers/hostile-http-server.ts); Node-RED is the real runtime in this process.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startHostileHttpServer, type HostileHttpServer } from '../peers/hostile-http-server';
import { helper, load, nextMessage, send, startRuntime, stopRuntime } from '../helpers/runtime';
import { MB, peakGrowthDuring } from './process-memory';

function flow(url: string, server: Record<string, unknown> = {}) {
  return [
    { id: 'srv', type: 'mcp-server', transport: 'http', url, timeout: 120, ...server },
    { id: 'call', type: 'mcp-call-tool', server: 'srv', wires: [['out'], []] },
    { id: 'out', type: 'helper' },
    { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', type: 'helper' },
  ];
}

/** Calls `tool` and resolves with whichever comes: a result on `out` or an error at the Catch node. */
async function callOnce(tool: string, args: Record<string, unknown>): Promise<{ result?: any; error?: any }> {
  const result = nextMessage('out', 100000).then((m) => ({ result: m }));
  const error = nextMessage('caught', 100000).then((m) => ({ error: m.error }));
  send('call', { tool, payload: args });
  return Promise.race([result, error]);
}

describe('security: replies a hostile MCP server sends cannot take Node-RED down', function () {
  this.timeout(90000);
  let peer: HostileHttpServer;
  before(async () => {
    await startRuntime();
    peer = await startHostileHttpServer('ok');
  });
  after(async () => {
    await peer?.stop();
    await stopRuntime();
  });
  afterEach(() => helper.unload());

  it('a gzip reply inflating to 600 MB ends in "reply too large" at the Catch node; the process lives and the next call works', async () => {
    await load(flow(peer.url));
    const { result, growthBytes } = await peakGrowthDuring(process.pid, () => callOnce('bomb', { mb: 600 }));
    assert.ok(result.error, `expected an error, got ${JSON.stringify(result.result?.payload)?.slice(0, 80)}`);
    assert.match(result.error.message, /larger than 32 MB/);
    assert.match(result.error.message, /Largest reply/);
    assert.ok(growthBytes < 200 * MB, `memory grew ${Math.round(growthBytes / MB)} MB`);
    const after = await callOnce('echo', { text: 'still here' });
    assert.equal(after.result?.payload?.content?.[0]?.text ?? after.result?.payload, 'still here');
  });

  it('a 300 MB gzip bomb is refused at the default limit (it used to succeed), and the limit is a setting: 64 KB of text passes a 1 MB limit, 2 MB does not', async () => {
    await load(flow(peer.url));
    const bomb = await callOnce('bomb', { mb: 300 });
    assert.match(bomb.error?.message ?? '', /reply is larger than 32 MB/);
    await load(flow(peer.url, { maxReplyMB: 1 }));
    const fits = await callOnce('big', { kb: 64 });
    assert.ok(fits.result, fits.error?.message);
    const tooBig = await callOnce('big', { kb: 2048 });
    assert.match(tooBig.error?.message ?? '', /reply is larger than 1 MB/);
  });

  it('an event that never ends fails the call at the event limit, long before the 120 s timeout, and memory stays bounded', async () => {
    await load(flow(peer.url, { maxReplyMB: 4 }));
    const { result, growthBytes } = await peakGrowthDuring(process.pid, () => callOnce('endless', { mb: 48 }));
    // The call's timeout is 120 s and this spec's 90 s: only the event limit can end it here.
    assert.match(result.error?.message ?? '', /event is larger than 4 MB/);
    assert.ok(growthBytes < 200 * MB, `memory grew ${Math.round(growthBytes / MB)} MB`);
    const after = await callOnce('echo', { text: 'again' });
    assert.ok(after.result, after.error?.message);
  });

  it('a largest reply outside 0 < MB <= 256 is a clear configuration error', async () => {
    await load(flow(peer.url, { maxReplyMB: 1000 }));
    const r = await callOnce('echo', { text: 'x' });
    assert.match(r.error?.message ?? '', /largest reply must be a number of MB between 0 and 256/);
  });
});

describe('security: a stdio server that sends a line that never ends', function () {
  this.timeout(90000);
  before(startRuntime);
  after(stopRuntime);
  afterEach(() => helper.unload());

  it('is stopped at the largest reply with an error at the Catch node, and memory stays bounded', async () => {
    const server = {
      id: 'srv',
      type: 'mcp-server',
      transport: 'stdio',
      command: process.execPath,
      args: [join(__dirname, '../peers/endless-line-stdio.cjs')],
      protocolVersion: '2025-06-18',
      timeout: 120,
      maxReplyMB: 4,
    };
    await load([server, ...flow('').slice(1)]);
    const { result, growthBytes } = await peakGrowthDuring(process.pid, () => callOnce('endless', {}));
    // The server never ends its line and the call's timeout is 120 s: only the line limit ends the call here.
    assert.match(result.error?.message ?? '', /failed: the server was stopped: the server's reply is larger than 4 MB/);
    assert.ok(growthBytes < 200 * MB, `memory grew ${Math.round(growthBytes / MB)} MB`);
  });
});
