// gemini-agent approvals through the real runtime: a call that needs a person's approval leaves on
// output 3 and waits; the answer comes back on the input. Approved calls run; refused and
// unanswered ones go back to the model as {error:"refused by the user: …"} and the request logs of
// the Home Assistant stand-in (and the annotated stdio peer's call log) prove they never reached
// the server. Also: two approvals at once, other requests and memory meanwhile, flow mode,
// destructiveHint, and a redeploy while a call waits.
import { fromRuntime } from '../helpers/runtime';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HomeAssistantStandIn } from '../peers/home-assistant';
import { reply } from '../peers/fake-gemini';
// Untyped package: the runtime's own hooks registry (the same module instance Node-RED uses).
const { hooks } = require(fromRuntime('@node-red/util')) as { hooks: { add(name: string, fn: (e: any) => void): void; remove(name: string): void } };
import { ALL_NODES, agentFlow, errorText, haServer, helper, run, type AgentFlowOptions, type FakeGemini, type ServerDef, useAgentPeers } from './harness';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('gemini-agent: approval before risky tool calls', function () {
  this.timeout(30000);
  let fake: FakeGemini;
  let ha: HomeAssistantStandIn;
  const peers = useAgentPeers();
  beforeEach(() => ({ fake, ha } = peers));

  const haCalls = () => ha.requests.filter((r) => r.rpcMethod === 'tools/call').map((r: any) => r.json.params.name);

  /** The agent flow with output 3 wired to a helper node "approvals". */
  async function loadWithApprovals(options: AgentFlowOptions): Promise<void> {
    const { flow, credentials } = agentFlow(options);
    const agent = flow.find((n) => n.id === 'agent');
    agent.wires = [...agent.wires, ['approvals']];
    flow.push({ id: 'approvals', type: 'helper', z: 'tab', x: 100, y: 100 });
    await helper.load(ALL_NODES, flow, credentials);
  }

  /** Resolves with the next `count` approval requests. */
  function approvals(count: number): Promise<any[]> {
    const got: any[] = [];
    return new Promise((resolve) => {
      helper.getNode('approvals').on('input', (m: any) => {
        got.push(m);
        if (got.length === count) resolve(got);
      });
    });
  }

  const answer = (id: string, approved: unknown, note?: string) => helper.getNode('agent').receive({ approval: { id, approved, note } });
  const responses = (i: number) => fake.requests[i].body.contents.at(-1).parts.map((p: any) => p.functionResponse);

  it('holds the call until approved, then runs it', async () => {
    await loadWithApprovals({ fake, servers: [haServer(ha)], agent: { approval: 'HassTurnOff' } });
    fake.script(reply.call('HassTurnOff', { name: 'Front Door', domain: ['lock'] }), reply.text('Unlocked.'));
    const asked = approvals(1);
    const result = run({ payload: 'Unlock the front door', sessionId: 's1' });
    const [request] = await asked;
    assert.equal(request.topic, 'approval');
    assert.deepEqual(request.payload, {
      tool: 'HassTurnOff',
      server: 'Home Assistant',
      args: { name: 'Front Door', domain: ['lock'] },
      reason: 'HassTurnOff is listed as needing approval',
      name: 'HassTurnOff',
    });
    assert.equal(typeof request.approval.id, 'string');
    assert.deepEqual(haCalls(), [], 'nothing reaches Home Assistant while the call waits');
    answer(request.approval.id, true, 'ok');
    const { answer: out, caught } = await result;
    assert.equal(caught, undefined, errorText(caught));
    assert.equal(out.payload, 'Unlocked.');
    assert.deepEqual(haCalls(), ['HassTurnOff']);
    assert.equal(responses(1)[0].response.output.response_type, 'action_done');
  });

  it('a refusal goes back to the model with the note, and the call never reaches the server', async () => {
    await loadWithApprovals({ fake, servers: [haServer(ha)], agent: { approval: 'HassTurn*' } });
    fake.script(reply.call('HassTurnOff', { name: 'Front Door' }), reply.text('I did not unlock it.'));
    const asked = approvals(1);
    const result = run({ payload: 'Unlock the front door' });
    const [request] = await asked;
    assert.equal(request.payload.reason, 'HassTurnOff matches the approval pattern "HassTurn*"');
    answer(request.approval.id, false, 'not while I am away');
    const { answer: out } = await result;
    assert.equal(out.payload, 'I did not unlock it.');
    assert.deepEqual(responses(1)[0].response, { error: 'refused by the user: not while I am away' });
    assert.equal(out.gemini.steps[0].calls[0].isError, true);
    assert.deepEqual(haCalls(), []);
  });

  it('no answer within approvalTimeout counts as refused, and the call never reaches the server', async () => {
    await loadWithApprovals({ fake, servers: [haServer(ha)], agent: { approval: 'HassTurnOff', approvalTimeout: '0.3' } });
    fake.script(reply.call('HassTurnOff', { name: 'Front Door' }), reply.text('Nobody answered.'));
    const asked = approvals(1);
    const started = Date.now();
    const result = run({ payload: 'Unlock the front door' });
    const [request] = await asked;
    const { answer: out } = await result;
    assert.ok(Date.now() - started >= 300, 'the configured 0.3 s were waited');
    assert.deepEqual(responses(1)[0].response, { error: 'refused by the user: no answer within 0.3 s' });
    assert.equal(out.payload, 'Nobody answered.');
    assert.deepEqual(haCalls(), []);
    // A late answer finds nothing waiting: an error that says why (Catch sees it).
    const late = run({ approval: { id: request.approval.id, approved: true } });
    assert.match(errorText((await late).caught), /No call waits for approval .*: it was answered already, waited longer than 0\.3 s/);
    assert.deepEqual(haCalls(), []);
  });

  it('two approvals pending at once, answered separately; another session with memory completes meanwhile', async () => {
    await loadWithApprovals({ fake, servers: [haServer(ha)], agent: { approval: 'HassTurnOff\nHassTurnOn', memory: 'context' } });
    fake.script(
      reply.calls(
        [
          { name: 'HassTurnOff', args: { name: 'Front Door' } },
          { name: 'HassTurnOn', args: { name: 'Porch Light' } },
        ],
        { ids: ['c-door', 'c-porch'] },
      ),
      reply.text('Other session answered.'),
      reply.text('Porch light on; the door stays locked.'),
    );
    // Answers by session: run() would take whichever answer comes first.
    const answers = new Map<string, (m: any) => void>();
    helper.getNode('out').on('input', (m: any) => answers.get(m.sessionId)?.(m));
    const answerFor = (session: string) => new Promise<any>((resolve) => answers.set(session, resolve));
    const agent = helper.getNode('agent');
    const asked = approvals(2);
    const waiting = answerFor('A');
    agent.receive({ payload: 'Unlock the door and turn on the porch light', sessionId: 'A' });
    const [door, porch] = await asked;
    assert.deepEqual([door.payload.tool, porch.payload.tool], ['HassTurnOff', 'HassTurnOn']);
    assert.notEqual(door.approval.id, porch.approval.id);
    // While both wait, a request of another session runs to its answer and is remembered.
    const other = answerFor('B');
    agent.receive({ payload: 'What time is it?', sessionId: 'B' });
    assert.equal((await other).payload, 'Other session answered.');
    const memoryB = agent.context().get('gemini_history_B');
    assert.equal(memoryB.length, 2);
    answer(porch.approval.id, 'true');
    await sleep(50);
    assert.deepEqual(haCalls(), ['HassTurnOn'], 'the approved call runs at once, the other still waits');
    answer(door.approval.id, false);
    const out = await waiting;
    assert.equal(out.payload, 'Porch light on; the door stays locked.');
    const [doorResponse, porchResponse] = responses(2);
    assert.deepEqual(doorResponse, { id: 'c-door', name: 'HassTurnOff', response: { error: 'refused by the user: no reason given' } });
    assert.equal(porchResponse.id, 'c-porch');
    assert.ok(porchResponse.response.output);
    assert.deepEqual(haCalls(), ['HassTurnOn']);
    assert.equal(agent.context().get('gemini_history_A').length, 4, 'session A remembered with its calls');
  });

  it('flow mode: an approved call then leaves on output 2 as a tool_call', async () => {
    await loadWithApprovals({ fake, servers: [haServer(ha)], agent: { approval: 'GetLiveContext', toolMode: 'flow' } });
    fake.script(reply.call('GetLiveContext', {}), reply.text('All quiet.'));
    const side: any[] = [];
    helper.getNode('side').on('input', (m: any) => {
      side.push(m);
      helper.getNode('agent').receive({ _agent: m._agent, payload: { lights: 'off' } });
    });
    const asked = approvals(1);
    const result = run({ payload: 'How is the house?' });
    const [request] = await asked;
    assert.equal(side.length, 0, 'not sent to the flow before approval');
    answer(request.approval.id, true);
    const { answer: out } = await result;
    assert.equal(out.payload, 'All quiet.');
    assert.equal(side.length, 1);
    assert.equal(side[0].topic, 'tool_call');
    assert.deepEqual(haCalls(), [], 'flow mode: the flow ran the tool, not the node');
  });

  it('approveDestructive: a destructiveHint tool waits, read-only and unannotated ones do not', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'approval-')), 'calls.jsonl');
    const todos: ServerDef = {
      id: 'todos',
      name: 'Todos',
      transport: 'stdio',
      command: process.execPath,
      args: ['--import', 'tsx', join(__dirname, '..', 'peers', 'annotated-tools-server.ts'), log],
    };
    await loadWithApprovals({ fake, servers: [todos], agent: { approveDestructive: true } });
    fake.script(
      reply.calls([{ name: 'list_todos' }, { name: 'rename_todo', args: { from: 'milk', to: 'oat milk' } }, { name: 'delete_all_todos' }]),
      reply.text('Renamed; nothing deleted.'),
    );
    const asked = approvals(1);
    const result = run({ payload: 'Tidy up my todos' });
    const [request] = await asked;
    assert.equal(request.payload.tool, 'delete_all_todos');
    assert.equal(request.payload.reason, 'delete_all_todos is marked destructive by Todos');
    answer(request.approval.id, false, 'keep them');
    const { answer: out } = await result;
    assert.equal(out.payload, 'Renamed; nothing deleted.');
    const called = existsSync(log)
      ? readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l).tool)
      : [];
    assert.deepEqual(called.sort(), ['list_todos', 'rename_todo'], 'the server log has no delete_all_todos');
  });

  it('redeploy while a call waits: that request ends in done(err), nothing hangs, nothing reaches the server', async () => {
    await loadWithApprovals({ fake, servers: [haServer(ha)], agent: { approval: 'HassTurnOff' } });
    fake.script(reply.call('HassTurnOff', { name: 'Front Door' }));
    // Node-RED's onComplete hook sees every done() of every node, also after its flow stopped.
    const completed: Array<{ node: string; error?: unknown; msg: any }> = [];
    hooks.add('onComplete.approvalTest', (e: any) => {
      completed.push({ node: e.node.id, error: e.error, msg: e.msg });
    });
    try {
      const asked = approvals(1);
      helper.getNode('agent').receive({ payload: 'Unlock the front door', marker: 'waiting' });
      await asked;
      const { flow, credentials } = agentFlow({ fake, servers: [haServer(ha)], agent: { approval: 'HassTurnOff', name: 'changed' } });
      await helper.setFlows(flow, 'full', credentials);
      const deadline = Date.now() + 5000;
      const ended = () => completed.find((c) => c.node === 'agent' && c.msg?.marker === 'waiting');
      while (!ended() && Date.now() < deadline) await sleep(20);
      assert.ok(ended(), 'the waiting message was completed');
      assert.match(String((ended()!.error as Error)?.message), /closed or redeployed while HassTurnOff waited for approval; the call was not made/);
      assert.deepEqual(haCalls(), []);
      assert.equal(fake.requests.length, 1, 'no further Gemini request for the cancelled run');
    } finally {
      hooks.remove('onComplete.approvalTest');
    }
  });
});
