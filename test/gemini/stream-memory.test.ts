// Streaming (text chunks on output 2 as they arrive) and memory (history in node context per
// msg.sessionId, capped at historyTurns) through the real runtime against the fake Gemini.
import { fromRuntime } from '../helpers/runtime';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HomeAssistantStandIn } from '../peers/home-assistant';
import { reply } from '../peers/fake-gemini';
import { collectSide, helper, loadAgent, run, type FakeGemini, useAgentPeers } from './harness';

const texts = (contents: any[]) =>
  contents.map((c) => `${c.role}:${(c.parts ?? []).map((p: any) => p.text ?? (p.functionCall ? 'call' : 'response')).join('|')}`);

describe('gemini-agent: streaming and memory', function () {
  let fake: FakeGemini;
  let ha: HomeAssistantStandIn;

  const peers = useAgentPeers();
  beforeEach(() => ({ fake, ha } = peers)); // the names the tests below use

  it('streams text chunks on output 2 (topic "chunk") and the whole answer on output 1', async () => {
    await loadAgent({ fake, agent: { stream: true }, servers: [{ id: 'ha', name: 'HA', transport: 'http', url: ha.url, token: ha.token }] });
    const side = collectSide();
    fake.script(
      reply.calls([{ name: 'GetDateTime', args: {} }], { splitFinal: true }),
      reply.text('It is noon and all is well.', { chunks: ['It is ', 'noon ', 'and all is well.'] }),
    );
    const { answer, caught } = await run({ payload: 'what time is it', sessionId: 's' });
    assert.equal(caught, undefined, caught && caught.error?.message);
    assert.ok(fake.requests.every((r) => r.method === 'streamGenerateContent' && /alt=sse/.test(r.url)));
    assert.equal(answer.payload, 'It is noon and all is well.');
    assert.deepEqual(
      side.map((m) => [m.topic, m.payload]),
      [
        ['chunk', 'It is '],
        ['chunk', 'noon '],
        ['chunk', 'and all is well.'],
      ],
    );
    assert.equal(side[0].gemini.step, 2);
    // The streamed function-call turn went back whole, signature included, split final chunk and all.
    const model = fake.requests[1].body.contents[1];
    assert.ok(model.parts[0].functionCall && model.parts[0].thoughtSignature);
  });

  it('remembers a conversation across two messages with the same sessionId', async () => {
    await loadAgent({ fake, agent: { memory: 'context' } });
    fake.script(reply.text('Nice to meet you, Ada.'), reply.text('Your name is Ada.'));
    const first = await run({ payload: 'My name is Ada', sessionId: 'kitchen-speaker' });
    const second = await run({ payload: 'What is my name?', sessionId: 'kitchen-speaker' });
    assert.equal(second.answer.payload, 'Your name is Ada.');
    assert.equal(first.answer.gemini.sessionId, 'kitchen-speaker');
    assert.deepEqual(texts(fake.requests[1].body.contents), ['user:My name is Ada', 'model:Nice to meet you, Ada.', 'user:What is my name?']);
  });

  it('keeps two sessionIds apart, and msg.topic names the session when there is no sessionId', async () => {
    await loadAgent({ fake, agent: { memory: 'context' } });
    fake.script(reply.text('A1'), reply.text('B1'), reply.text('A2'), reply.text('T1'), reply.text('T2'));
    await run({ payload: 'hello from A', sessionId: 'a' });
    await run({ payload: 'hello from B', sessionId: 'b' });
    await run({ payload: 'A again', sessionId: 'a' });
    await run({ payload: 'topic one', topic: 'living.room' });
    await run({ payload: 'topic two', topic: 'living.room' });
    assert.deepEqual(texts(fake.requests[1].body.contents), ['user:hello from B']);
    assert.deepEqual(texts(fake.requests[2].body.contents), ['user:hello from A', 'model:A1', 'user:A again']);
    assert.deepEqual(texts(fake.requests[4].body.contents), ['user:topic one', 'model:T1', 'user:topic two']);
    const stored = helper.getNode('agent').context().get('gemini_history_living%2Eroom');
    assert.equal(stored.length, 4, 'a dotted session id is one flat context key');
  });

  it('caps the history at historyTurns, cutting only at prompts (tool turns stay whole)', async () => {
    await loadAgent({
      fake,
      agent: { memory: 'context', historyTurns: 2 },
      servers: [{ id: 'ha', name: 'HA', transport: 'http', url: ha.url, token: ha.token }],
    });
    fake.script(reply.text('one'), reply.call('GetDateTime', {}), reply.text('two'), reply.text('three'), reply.text('four'));
    for (const p of ['p1', 'p2', 'p3', 'p4']) await run({ payload: p, sessionId: 'cap' });
    // Request for p4: history is the last 2 turns (p2 with its tool round trip, p3), then p4.
    assert.deepEqual(texts(fake.requests[4].body.contents), ['user:p2', 'model:call', 'user:response', 'model:two', 'user:p3', 'model:three', 'user:p4']);
    assert.ok(
      fake.requests.every((r) => r.violations.length === 0),
      'trimmed history stays valid for Gemini',
    );
  });

  it('without memory sends only the new prompt', async () => {
    await loadAgent({ fake });
    fake.script(reply.text('x'), reply.text('y'));
    await run({ payload: 'one', sessionId: 's' });
    await run({ payload: 'two', sessionId: 's' });
    assert.deepEqual(texts(fake.requests[1].body.contents), ['user:two']);
  });

  it('keeps the conversation in a persistent context store (localfilesystem) across a store restart', async () => {
    // The test helper neither opens configured context stores nor keeps contexts over unload, so the
    // store is opened, closed and reopened here with the runtime's own context module.
    const context = require(fromRuntime('@node-red/runtime/lib/nodes/context'));
    const dir = mkdtempSync(join(tmpdir(), 'gemini-agent-context-'));
    helper.settings({ contextStorage: { default: { module: 'localfilesystem', config: { dir, flushInterval: 0 } } } });
    try {
      await loadAgent({ fake, agent: { memory: 'context' } });
      await context.load();
      fake.script(reply.text('Noted: the code is 4711.'), reply.text('The code is 4711.'));
      await run({ payload: 'Remember the code 4711', sessionId: 'door' });
      await context.close(); // flushes to disk and drops every cached value
      const files = readdirSync(join(dir, 'context', 'tab'));
      assert.ok(readFileSync(join(dir, 'context', 'tab', files[0]), 'utf8').includes('Remember the code 4711'), 'history is on disk');
      await context.load();
      const again = await run({ payload: 'What is the code?', sessionId: 'door' });
      assert.equal(again.answer.payload, 'The code is 4711.');
      assert.deepEqual(texts(fake.requests[1].body.contents), ['user:Remember the code 4711', 'model:Noted: the code is 4711.', 'user:What is the code?']);
    } finally {
      await context.close();
      helper.settings({ contextStorage: undefined });
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
