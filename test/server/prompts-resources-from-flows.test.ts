// Prompts and resources served from flows (mcp-prompt-in/out, mcp-resource-in/out) on an
// mcp-endpoint, read by the real @modelcontextprotocol/client in both eras: lists, arguments,
// templates, text/bytes/JSON answers, errors a client can read, the object graph's roots as
// resources, and notifications/resources/updated when a flow says a resource changed (2025:
// resources/subscribe on the session; 2026-07-28: subscriptions/listen).
import assert from 'node:assert/strict';
import { helper } from '../helpers/runtime';
import { connect, disconnect, loadFlow, startEndpointRuntime, stopEndpointRuntime, type Era, type FlowNode } from './harness';
import { waitFor } from '../helpers/wait';

const promptResourceNodes = [
  require('../../nodes/mcp-prompt-in/index.ts'),
  require('../../nodes/mcp-prompt-out/index.ts'),
  require('../../nodes/mcp-resource-in/index.ts'),
  require('../../nodes/mcp-resource-out/index.ts'),
];

const TOKEN = 'tok-prompts-7d2e';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

function flow(): FlowNode[] {
  return [
    { id: 'ep', type: 'mcp-endpoint', path: '/mcp', name: 'house', roots: ['global.home'] },
    {
      id: 'p-plan',
      type: 'mcp-prompt-in',
      endpoint: 'ep',
      name: 'plan_day',
      description: 'Plans a day in a room.',
      arguments: 'room, day?',
      wires: [['p-fn']],
    },
    {
      id: 'p-fn',
      type: 'function',
      func: 'msg.payload = [ "Plan " + (msg.payload.day || "today") + " in the " + msg.payload.room + " for " + msg.mcp.client.name + ".", {role: "assistant", content: "Which hours?"} ]; msg.description = "a plan"; return msg;',
      wires: [['p-out']],
    },
    { id: 'p-never', type: 'mcp-prompt-in', endpoint: 'ep', name: 'never', timeout: 1, wires: [[]] },
    { id: 'p-boom', type: 'mcp-prompt-in', endpoint: 'ep', name: 'boom', wires: [['boom-fn']] },
    { id: 'boom-fn', type: 'function', name: 'calendar', func: 'throw new Error("calendar offline");', wires: [[]] },
    { id: 'catch-boom', type: 'catch', scope: ['boom-fn'], uncaught: false, wires: [['p-out']] },
    { id: 'p-bad', type: 'mcp-prompt-in', endpoint: 'ep', name: 'bad', timeout: 1, wires: [['bad-fn']] },
    { id: 'bad-fn', type: 'function', func: 'msg.payload = 42; return msg;', wires: [['p-out']] },
    { id: 'p-out', type: 'mcp-prompt-out' },
    { id: 'r-today', type: 'mcp-resource-in', endpoint: 'ep', uri: 'notes://today', name: 'today', description: "Today's notes.", wires: [['today-fn']] },
    {
      id: 'today-fn',
      type: 'function',
      func: 'msg.payload = "Buy milk (read " + (++context.reads || (context.reads = 1)) + ")"; return msg;',
      wires: [['r-out']],
    },
    { id: 'r-day', type: 'mcp-resource-in', endpoint: 'ep', uri: 'notes://day/{day}', name: 'day', mimeType: 'application/json', wires: [['day-fn']] },
    { id: 'day-fn', type: 'function', func: 'msg.payload = {day: msg.payload.day, items: ["water plants"]}; return msg;', wires: [['r-out']] },
    { id: 'r-logo', type: 'mcp-resource-in', endpoint: 'ep', uri: 'files://logo.png', name: 'logo', mimeType: 'image/png', wires: [['logo-fn']] },
    { id: 'logo-fn', type: 'function', func: `msg.payload = Buffer.from("${PNG.toString('hex')}", "hex"); return msg;`, wires: [['r-out']] },
    { id: 'r-out', type: 'mcp-resource-out' },
  ];
}

const HOME = { $type: 'Home', bedroom: { $type: 'Room', temperature: { value: 21.5, unit: '°C' } } };

describe('mcp-endpoint: prompts and resources from flows', function () {
  this.timeout(30000);
  before(startEndpointRuntime);
  after(stopEndpointRuntime);
  beforeEach(async () => {
    await loadFlow(flow(), { ep: { tokens: TOKEN } }, promptResourceNodes);
    helper.getNode('ep').context().global.set('home', HOME);
  });

  for (const era of ['2025-11-25', '2026-07-28'] as Era[]) {
    describe(era, () => {
      it('lists the prompts and gets one: the arguments reach the flow, its messages reach the client', async () => {
        const c = await connect('/mcp', era, TOKEN);
        try {
          const { prompts } = await c.client.listPrompts();
          const plan = prompts.find((p) => p.name === 'plan_day')!;
          assert.deepEqual(plan.arguments, [
            { name: 'room', required: true },
            { name: 'day', required: false },
          ]);
          assert.equal(plan.description, 'Plans a day in a room.');
          const got = await c.client.getPrompt({ name: 'plan_day', arguments: { room: 'kitchen' } });
          assert.equal(got.description, 'a plan');
          assert.deepEqual(got.messages, [
            { role: 'user', content: { type: 'text', text: 'Plan today in the kitchen for endpoint-test.' } },
            { role: 'assistant', content: { type: 'text', text: 'Which hours?' } },
          ]);
          await assert.rejects(c.client.getPrompt({ name: 'plan_day', arguments: {} }), /plan_day needs room/);
          await assert.rejects(c.client.getPrompt({ name: 'plan_day', arguments: { room: 'x', mood: 'y' } }), /has no argument mood/);
          await assert.rejects(c.client.getPrompt({ name: 'nope' }), /Unknown prompt: nope/);
        } finally {
          await disconnect(c);
        }
      });

      it('a prompt the flow fails, answers wrongly or never answers: the client gets an error it can read, nothing stays waiting', async () => {
        const c = await connect('/mcp', era, TOKEN);
        try {
          await assert.rejects(c.client.getPrompt({ name: 'boom' }), /Error in node "calendar" \(function boom-fn\): (Error: )?calendar offline/);
          // The bad answer goes to Catch (done(err) on mcp-prompt-out) and the request keeps waiting until its timeout.
          const refused = new Promise<string>((resolve) =>
            helper.getNode('p-out').once('call:error', (call: { args: [Error] }) => resolve(call.args[0].message)),
          );
          await assert.rejects(c.client.getPrompt({ name: 'bad' }), /No flow answered the prompt bad within 1 s: wire its mcp-prompt-in to an mcp-prompt-out/);
          assert.match(await refused, /not an answer the client can use: msg.payload must be the prompt text/);
          await assert.rejects(c.client.getPrompt({ name: 'never' }), /No flow answered the prompt never within 1 s/);
          assert.equal(helper.getNode('ep').endpoint.pendingPrompts.size, 0);
        } finally {
          await disconnect(c);
        }
      });

      it('lists resources and templates (the object graph root among them) and reads text, JSON from a template, bytes and the graph', async () => {
        const c = await connect('/mcp', era, TOKEN);
        try {
          const { resources } = await c.client.listResources();
          assert.deepEqual(
            resources.map((r) => [r.uri, r.mimeType]),
            [
              ['notes://today', 'text/plain'],
              ['files://logo.png', 'image/png'],
              ['graph:///home', 'application/json'],
            ],
          );
          const { resourceTemplates } = await c.client.listResourceTemplates();
          assert.deepEqual(
            resourceTemplates.map((t) => t.uriTemplate),
            ['notes://day/{day}', 'graph:///{+path}'],
          );
          const today = await c.client.readResource({ uri: 'notes://today' });
          assert.deepEqual(today.contents, [{ uri: 'notes://today', mimeType: 'text/plain', text: 'Buy milk (read 1)' }]);
          const day = await c.client.readResource({ uri: 'notes://day/monday' });
          assert.deepEqual(day.contents, [{ uri: 'notes://day/monday', mimeType: 'application/json', text: '{"day":"monday","items":["water plants"]}' }]);
          const logo = await c.client.readResource({ uri: 'files://logo.png' });
          assert.deepEqual(logo.contents, [{ uri: 'files://logo.png', mimeType: 'image/png', blob: PNG.toString('base64') }]);
          const home = await c.client.readResource({ uri: 'graph:///home' });
          const view = JSON.parse((home.contents[0] as { text: string }).text);
          assert.equal(view.path, '/home');
          assert.equal(view.subjects.bedroom.$type, 'Room');
          assert.equal(view.subjects.bedroom.temperature.value, 21.5);
          await assert.rejects(c.client.readResource({ uri: 'notes://nothing/here' }), /not found/i);
          await assert.rejects(c.client.readResource({ uri: 'graph:///garage' }), /Nothing at \/garage/);
        } finally {
          await disconnect(c);
        }
      });

      it('a message into mcp-resource-in tells a subscribed client the resource changed', async () => {
        const c = await connect('/mcp', era, TOKEN);
        const updated: string[] = [];
        c.client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
        let subscription: { close(): Promise<void> } | undefined;
        try {
          if (era === '2026-07-28') subscription = await c.client.listen({ resourceSubscriptions: ['notes://today'] });
          else await c.client.subscribeResource({ uri: 'notes://today' });
          helper.getNode('r-day').receive({ uri: 'notes://day/friday' }); // not subscribed: not heard
          helper.getNode('r-today').receive({ payload: 'changed' });
          await waitFor(() => updated.length > 0 || undefined, 'notifications/resources/updated');
          assert.deepEqual(updated, ['notes://today']);
          const again = await c.client.readResource({ uri: 'notes://today' });
          assert.match((again.contents[0] as { text: string }).text, /read \d+/);
        } finally {
          await subscription?.close();
          await disconnect(c);
        }
      });
    });
  }

  it('an update a node cannot announce goes to Catch with the reason', async () => {
    const errors: string[] = [];
    for (const [id, msg] of [
      ['r-day', {}],
      ['r-day', { uri: 'notes://today' }],
      ['r-today', { uri: 'notes://other' }],
    ] as const) {
      const node = helper.getNode(id);
      const seen = new Promise<string>((resolve) =>
        node.once('call:error', (call: { args: [Error] }) => resolve(call.args[0].message ?? String(call.args[0]))),
      );
      node.receive(msg);
      errors.push(await seen);
    }
    assert.match(errors[0], /notes:\/\/day\/\{day\} is a template: set msg.uri/);
    assert.match(errors[1], /notes:\/\/today is not served by this node/);
    assert.match(errors[2], /notes:\/\/other is not served by this node/);
  });

  it('a bad definition shows on the node and is not served; two nodes on one URI: the first keeps it', async () => {
    await loadFlow(
      [
        { id: 'ep', type: 'mcp-endpoint', path: '/mcp' },
        { id: 'p1', type: 'mcp-prompt-in', endpoint: 'ep', name: 'has space', wires: [[]] },
        { id: 'p2', type: 'mcp-prompt-in', endpoint: 'ep', name: 'ok', arguments: '[{"name": 3}]', wires: [[]] },
        { id: 'r1', type: 'mcp-resource-in', endpoint: 'ep', uri: 'no-scheme', wires: [[]] },
        { id: 'r2', type: 'mcp-resource-in', endpoint: 'ep', uri: 'notes://a', wires: [[]] },
        { id: 'r3', type: 'mcp-resource-in', endpoint: 'ep', uri: 'notes://a', wires: [[]] },
      ],
      { ep: { tokens: TOKEN } },
      promptResourceNodes,
    );
    const c = await connect('/mcp', '2026-07-28', TOKEN);
    try {
      assert.deepEqual((await c.client.listPrompts()).prompts, []);
      assert.deepEqual(
        (await c.client.listResources()).resources.map((r) => r.uri),
        ['notes://a'],
      );
    } finally {
      await disconnect(c);
    }
  });
});
