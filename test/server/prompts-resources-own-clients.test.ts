// Our own client nodes (mcp-server + mcp-prompt / mcp-resource) against prompts and resources a
// flow serves (mcp-prompt-in/out, mcp-resource-in/out) on an mcp-endpoint, in one real Node-RED,
// with the client pinned to each protocol revision: a get's messages and joined text, list and
// read (text and bytes), and a subscription that delivers a message when a flow changes the resource.
import assert from 'node:assert/strict';
import { helper } from '../helpers/runtime';
import { baseUrl, loadFlow, startEndpointRuntime, stopEndpointRuntime, type Era, type FlowNode } from './harness';

const TOKEN = 'tok-own-clients-91c3';
const nodes = [
  require('../../nodes/mcp-prompt-in/index.ts'),
  require('../../nodes/mcp-prompt-out/index.ts'),
  require('../../nodes/mcp-resource-in/index.ts'),
  require('../../nodes/mcp-resource-out/index.ts'),
  require('../../nodes/mcp-server/index.ts'),
  require('../../nodes/mcp-prompt/index.ts'),
  require('../../nodes/mcp-resource/index.ts'),
];

function flow(era: Era): FlowNode[] {
  return [
    { id: 'ep', type: 'mcp-endpoint', path: '/mcp', name: 'house' },
    { id: 'p-in', type: 'mcp-prompt-in', endpoint: 'ep', name: 'greet', arguments: 'name', wires: [['p-fn']] },
    {
      id: 'p-fn',
      type: 'function',
      func: 'msg.payload = ["Greet " + msg.payload.name + ".", {role: "assistant", content: "Hello!"}]; return msg;',
      wires: [['p-out']],
    },
    { id: 'p-out', type: 'mcp-prompt-out' },
    { id: 'r-in', type: 'mcp-resource-in', endpoint: 'ep', uri: 'notes://today', wires: [['r-fn']] },
    { id: 'r-fn', type: 'function', func: 'msg.payload = global.get("note") || "nothing yet"; return msg;', wires: [['r-out']] },
    { id: 'b-in', type: 'mcp-resource-in', endpoint: 'ep', uri: 'files://{name}', mimeType: 'application/octet-stream', wires: [['b-fn']] },
    { id: 'b-fn', type: 'function', func: 'msg.payload = Buffer.from(msg.payload.name); return msg;', wires: [['r-out']] },
    { id: 'r-out', type: 'mcp-resource-out' },
    { id: 'srv', type: 'mcp-server', transport: 'http', url: `${baseUrl}/mcp`, auth: 'token', protocolVersion: era, timeout: 10 },
    { id: 'c-get', type: 'mcp-prompt', server: 'srv', operation: 'get', name: 'greet', wires: [['out']] },
    { id: 'c-list', type: 'mcp-resource', server: 'srv', operation: 'list', wires: [['out']] },
    { id: 'c-read', type: 'mcp-resource', server: 'srv', operation: 'read', wires: [['out']] },
    { id: 'c-watch', type: 'mcp-resource', server: 'srv', operation: 'subscribe', uri: 'notes://today', wires: [['updates']] },
    { id: 'out', type: 'helper' },
    { id: 'updates', type: 'helper' },
  ];
}

function next(id: string, msg: Record<string, unknown>): Promise<any> {
  return new Promise((resolve, reject) => {
    const out = helper.getNode('out');
    const node = helper.getNode(id);
    const timer = setTimeout(() => reject(new Error(`${id}: no answer within 10 s`)), 10_000);
    node.once('call:error', (call: { args: [Error] }) => {
      clearTimeout(timer);
      reject(call.args[0]);
    });
    out.once('input', (m: unknown) => {
      clearTimeout(timer);
      resolve(m);
    });
    node.receive(msg);
  });
}

describe('mcp-prompt and mcp-resource against prompts and resources served by flows', function () {
  this.timeout(30000);
  before(startEndpointRuntime);
  after(stopEndpointRuntime);

  for (const era of ['2025-11-25', '2026-07-28'] as Era[]) {
    it(`${era}: get a prompt, list and read resources, and hear an update a flow announces`, async () => {
      await loadFlow(flow(era), { ep: { tokens: TOKEN }, srv: { token: TOKEN } }, nodes);
      const got = await next('c-get', { payload: { name: 'Ada' } });
      assert.deepEqual(got.payload, [
        { role: 'user', content: { type: 'text', text: 'Greet Ada.' } },
        { role: 'assistant', content: { type: 'text', text: 'Hello!' } },
      ]);
      assert.equal(got.prompt, 'Greet Ada.\n\nHello!');
      const listed = await next('c-list', {});
      assert.deepEqual(
        listed.payload.map((r: { uri: string }) => r.uri),
        ['notes://today'],
      );
      const text = await next('c-read', { uri: 'notes://today' });
      assert.equal(text.payload, 'nothing yet');
      const bytes = await next('c-read', { uri: 'files://logo' });
      assert.ok(Buffer.isBuffer(bytes.payload));
      assert.equal(bytes.payload.toString(), 'logo');
      assert.equal(bytes.contentType, 'application/octet-stream');

      const updates = helper.getNode('updates');
      const heard = new Promise<any>((resolve) => updates.once('input', resolve));
      // The subscription is in place once the node says so; then the flow changes the note and says so.
      const watch = helper.getNode('c-watch');
      const subscribed = new Promise<void>((resolve) =>
        watch.on('call:status', (call: { args: [{ text?: string }] }) => /subscribed/.test(call.args[0]?.text ?? '') && resolve()),
      );
      watch.receive({ payload: 'subscribe' });
      await subscribed;
      helper.getNode('ep').context().global.set('note', 'buy milk');
      helper.getNode('r-in').receive({});
      const update = await heard;
      assert.equal(update.topic, 'resources/updated');
      assert.equal(update.uri, 'notes://today');
    });
  }
});
