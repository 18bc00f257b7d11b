// gemini-agent: a server asking for input in the middle of a tool call Gemini made. The request
// leaves on output 3 beside approvals ({topic:"input", payload:{message, schema}, input:{id}}), the
// flow answers with msg.input on the agent's input, and the tool's answer goes back to Gemini. On
// both protocol eras, against the server SDK's own server (2025 over stdio, 2026-07-28 over HTTP).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAskingServer, type AskingServer } from '../peers/asking-server';
import { reply } from '../peers/fake-gemini';
import { agentFlow, helper, ALL_NODES, run, type FakeGemini, useAgentPeers } from './harness';

for (const era of ['2025-06-18', '2026-07-28']) {
  describe(`gemini-agent: input requests during a tool call (protocol ${era}, ${era < '2026' ? 'stdio' : 'HTTP'})`, function () {
    this.timeout(30000);
    let fake: FakeGemini;
    let peer: AskingServer;
    const peers = useAgentPeers({ homeAssistant: false });
    beforeEach(async () => {
      fake = peers.fake;
      peer = await startAskingServer();
    });
    afterEach(async () => {
      await peer.close();
    });

    async function load(agent: Record<string, unknown> = {}): Promise<void> {
      const server =
        era < '2026'
          ? { transport: 'stdio' as const, command: process.execPath, args: ['--import', 'tsx', join(__dirname, '../peers/asking-stdio.ts')] }
          : { transport: 'http' as const, url: peer.url };
      const { flow, credentials } = agentFlow({ fake, servers: [{ id: 'srv-shop', name: 'shop', ...server }], agent });
      flow.find((n) => n.id === 'srv-shop').protocolVersion = era;
      const node = flow.find((n) => n.id === 'agent');
      node.wires = [...node.wires, ['asked']];
      flow.push({ id: 'asked', type: 'helper', z: 'tab', x: 100, y: 100 });
      await helper.load(ALL_NODES, flow, credentials);
    }

    const asked = () => new Promise<any>((resolve) => helper.getNode('asked').once('input', resolve));

    it("the request leaves on output 3, the flow's answer reaches the server, and Gemini gets the tool's result", async () => {
      await load();
      fake.script(reply.calls([{ name: 'order', args: { item: 'lamps' } }]), reply.text('Ordered 4 lamps.'));
      const request = asked();
      const outcome = run({ payload: 'order lamps', sessionId: 's1' });
      const m = await request;
      assert.equal(m.topic, 'input');
      assert.equal(m.payload.message, 'How many lamps?');
      assert.equal(m.gemini.sessionId, 's1');
      helper.getNode('agent').receive({ input: { id: m.input.id, action: 'accept', content: { confirm: true, quantity: 4 } } });
      const { answer, caught } = await outcome;
      assert.equal(caught, undefined, caught?.error?.message);
      assert.equal(answer.payload, 'Ordered 4 lamps.');
      const sent = JSON.stringify(fake.requests[1].body.contents.at(-1));
      assert.match(sent, /ordered 4/, 'the tool result Gemini saw');
    });

    it('a declined request is passed on, and a malformed answer goes to Catch while the request waits', async () => {
      await load();
      fake.script(reply.calls([{ name: 'order', args: { item: 'desks' } }]), reply.text('Not ordered.'));
      const request = asked();
      const caughtBad = new Promise<any>((resolve) => helper.getNode('caught').once('input', resolve));
      // Not run(): it would end at the first Catch, and this Catch is expected mid-run.
      const answered = new Promise<any>((resolve) => helper.getNode('out').once('input', resolve));
      helper.getNode('agent').receive({ payload: 'order desks' });
      const m = await request;
      helper.getNode('agent').receive({ input: { id: m.input.id, action: 'accept', content: { confirm: 'yes' } } });
      assert.match((await caughtBad).error.message, /does not match the requested schema/);
      helper.getNode('agent').receive({ input: { id: m.input.id, action: 'decline' } });
      assert.equal((await answered).payload, 'Not ordered.');
      assert.match(JSON.stringify(fake.requests[1].body.contents.at(-1)), /not done: decline/, 'the server received the decline');
    });
  });
}
