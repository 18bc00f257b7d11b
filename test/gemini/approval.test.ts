// gemini-agent approvals through the real runtime: a call that needs a person's approval leaves on
// output 3 and waits; the answer comes back on the input. Approved calls run; refused and
// unanswered ones go back to the model as {error:"refused by the user: …"} and the request logs of
// the Home Assistant stand-in (and the annotated stdio peer's call log) prove they never reached
// the server. Also: two approvals at once, other requests and memory meanwhile, flow mode,
// destructiveHint, and a redeploy while a call waits. The Home Assistant specs run once per Home
// Assistant generation with the approval rules written as before 2026.9 (`HassTurnOff`): a rule must
// keep asking when the server renames its tools (`intent__HassTurnOff`).
import { fromRuntime, setFlows } from '../helpers/runtime';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HA_GENERATIONS, haToolName, type HaGeneration, type HomeAssistantStandIn } from '../peers/home-assistant';
import { reply } from '../peers/fake-gemini';
// Untyped package: the runtime's own hooks registry (the same module instance Node-RED uses).
const { hooks } = require(fromRuntime('@node-red/util')) as { hooks: { add(name: string, fn: (e: any) => void): void; remove(name: string): void } };
import { until } from '../helpers/wait';
import { ALL_NODES, agentFlow, errorText, haServer, helper, run, type AgentFlowOptions, type FakeGemini, type ServerDef, useAgentPeers } from './harness';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const generation of HA_GENERATIONS) describeApprovals(generation);

function describeApprovals(generation: HaGeneration) {
  describe(`gemini-agent: approval before risky tool calls (Home Assistant ${generation})`, function () {
    this.timeout(30000);
    let fake: FakeGemini;
    let ha: HomeAssistantStandIn;
    const peers = useAgentPeers({ generation });
    /** The name this generation's server (and so Gemini) gives a tool. */
    const n = (tool: string) => haToolName(generation, tool);
    /** The reason a rule written with the old name gives. */
    const listed = (tool: string, pattern = tool) =>
      n(tool) === pattern ? `${pattern} is listed as needing approval` : `${n(tool)} matches the approval pattern "${pattern}"`;
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
      fake.script(reply.call(n('HassTurnOff'), { name: 'Front Door', domain: ['lock'] }), reply.text('Unlocked.'));
      const asked = approvals(1);
      const result = run({ payload: 'Unlock the front door', sessionId: 's1' });
      const [request] = await asked;
      assert.equal(request.topic, 'approval');
      assert.deepEqual(request.payload, {
        tool: n('HassTurnOff'),
        server: 'Home Assistant',
        args: { name: 'Front Door', domain: ['lock'] },
        reason: listed('HassTurnOff'),
        name: n('HassTurnOff'),
      });
      assert.equal(typeof request.approval.id, 'string');
      assert.deepEqual(haCalls(), [], 'nothing reaches Home Assistant while the call waits');
      answer(request.approval.id, true, 'ok');
      const { answer: out, caught } = await result;
      assert.equal(caught, undefined, errorText(caught));
      assert.equal(out.payload, 'Unlocked.');
      assert.deepEqual(haCalls(), [n('HassTurnOff')]);
      assert.equal(responses(1)[0].response.output.response_type, 'action_done');
    });

    it('a refusal goes back to the model with the note, and the call never reaches the server', async () => {
      await loadWithApprovals({ fake, servers: [haServer(ha)], agent: { approval: 'HassTurn*' } });
      fake.script(reply.call(n('HassTurnOff'), { name: 'Front Door' }), reply.text('I did not unlock it.'));
      const asked = approvals(1);
      const result = run({ payload: 'Unlock the front door' });
      const [request] = await asked;
      assert.equal(request.payload.reason, `${n('HassTurnOff')} matches the approval pattern "HassTurn*"`);
      answer(request.approval.id, false, 'not while I am away');
      const { answer: out } = await result;
      assert.equal(out.payload, 'I did not unlock it.');
      assert.deepEqual(responses(1)[0].response, { error: 'refused by the user: not while I am away' });
      assert.equal(out.gemini.steps[0].calls[0].isError, true);
      assert.deepEqual(haCalls(), []);
    });

    it('no answer within approvalTimeout counts as refused, and the call never reaches the server', async () => {
      await loadWithApprovals({ fake, servers: [haServer(ha)], agent: { approval: 'HassTurnOff', approvalTimeout: '0.3' } });
      fake.script(reply.call(n('HassTurnOff'), { name: 'Front Door' }), reply.text('Nobody answered.'));
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
            { name: n('HassTurnOff'), args: { name: 'Front Door' } },
            { name: n('HassTurnOn'), args: { name: 'Porch Light' } },
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
      assert.deepEqual([door.payload.tool, porch.payload.tool], [n('HassTurnOff'), n('HassTurnOn')]);
      assert.notEqual(door.approval.id, porch.approval.id);
      // While both wait, a request of another session runs to its answer and is remembered.
      const other = answerFor('B');
      agent.receive({ payload: 'What time is it?', sessionId: 'B' });
      assert.equal((await other).payload, 'Other session answered.');
      const memoryB = agent.context().get('gemini_history_B');
      assert.equal(memoryB.length, 2);
      answer(porch.approval.id, 'true');
      await until('the approved call to run', () => haCalls().length > 0);
      assert.deepEqual(haCalls(), [n('HassTurnOn')], 'the approved call runs at once, the other still waits');
      answer(door.approval.id, false);
      const out = await waiting;
      assert.equal(out.payload, 'Porch light on; the door stays locked.');
      const [doorResponse, porchResponse] = responses(2);
      assert.deepEqual(doorResponse, { id: 'c-door', name: n('HassTurnOff'), response: { error: 'refused by the user: no reason given' } });
      assert.equal(porchResponse.id, 'c-porch');
      assert.ok(porchResponse.response.output);
      assert.deepEqual(haCalls(), [n('HassTurnOn')]);
      assert.equal(agent.context().get('gemini_history_A').length, 4, 'session A remembered with its calls');
    });

    it('flow mode: an approved call then leaves on output 2 as a tool_call', async () => {
      await loadWithApprovals({ fake, servers: [haServer(ha)], agent: { approval: 'GetLiveContext', toolMode: 'flow' } });
      fake.script(reply.call(n('GetLiveContext'), {}), reply.text('All quiet.'));
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

    // No Home Assistant involved: once is enough.
    if (generation === HA_GENERATIONS[0])
      it('approveDestructive: a destructiveHint tool and an unannotated one (MCP: may be destructive) wait, a read-only one does not', async () => {
        const logDir = mkdtempSync(join(tmpdir(), 'approval-'));
        try {
          const log = join(logDir, 'calls.jsonl');
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
          const asked = approvals(2);
          const result = run({ payload: 'Tidy up my todos' });
          const requests = await asked;
          const byTool = new Map(requests.map((r) => [r.payload.tool, r]));
          assert.deepEqual([...byTool.keys()].sort(), ['delete_all_todos', 'rename_todo']);
          assert.equal(byTool.get('delete_all_todos').payload.reason, 'delete_all_todos is marked destructive by Todos');
          assert.equal(byTool.get('rename_todo').payload.reason, 'rename_todo is not marked read-only or harmless by Todos, so it may be destructive');
          answer(byTool.get('rename_todo').approval.id, true);
          answer(byTool.get('delete_all_todos').approval.id, false, 'keep them');
          const { answer: out } = await result;
          assert.equal(out.payload, 'Renamed; nothing deleted.');
          const called = existsSync(log)
            ? readFileSync(log, 'utf8')
                .trim()
                .split('\n')
                .map((l) => JSON.parse(l).tool)
            : [];
          assert.deepEqual(called.sort(), ['list_todos', 'rename_todo'], 'the server log has no delete_all_todos');
        } finally {
          rmSync(logDir, { recursive: true, force: true });
        }
      });

    it('every tool not marked read-only waits, whatever its name; a tool marked read-only runs at once', async () => {
      await loadWithApprovals({ fake, servers: [haServer(ha)], agent: { approveNotReadOnly: true } });
      fake.script(reply.calls([{ name: n('HassTurnOff'), args: { name: 'Front Door' } }, { name: n('GetDateTime') }]), reply.text('Done.'));
      const asked = approvals(generation === '2026.10' ? 1 : 2);
      const result = run({ payload: 'Unlock the front door and tell me the time' });
      const requests = await asked;
      // 2026.10 marks llm__GetDateTime readOnlyHint; older Home Assistant marks nothing, so both ask.
      assert.deepEqual(
        requests.map((r) => r.payload.tool).sort(),
        (generation === '2026.10' ? [n('HassTurnOff')] : [n('GetDateTime'), n('HassTurnOff')]).sort(),
      );
      assert.equal(requests[0].payload.reason.endsWith('is not marked read-only by Home Assistant'), true, requests[0].payload.reason);
      if (generation === '2026.10') {
        await until('the read-only call to reach Home Assistant', () => haCalls().length === 1);
        assert.deepEqual(haCalls(), ['llm__GetDateTime'], 'the read-only tool ran while the other waits');
      }
      for (const r of requests) answer(r.approval.id, false, 'no');
      const { answer: out } = await result;
      assert.equal(out.payload, 'Done.');
      assert.ok(!haCalls().includes(n('HassTurnOff')));
    });

    it('a rule that matches no tool is a warning naming it, said once', async () => {
      await loadWithApprovals({ fake, servers: [haServer(ha)], agent: { approval: 'HassTurnOff\nHassUnlockDoor' } });
      const logs = helper.log();
      fake.script(reply.text('Hello.'), reply.text('Hello again.'));
      await run({ payload: 'Hi' });
      await run({ payload: 'Hi again' });
      const warnings = logs.args.map((a: any[]) => a[0]).filter((e: any) => e.level === 30 && /Approval:/.test(String(e.msg)));
      assert.equal(warnings.length, 1, JSON.stringify(warnings));
      assert.match(String(warnings[0].msg), /"HassUnlockDoor" match none of the tools offered to Gemini/);
      assert.ok(!String(warnings[0].msg).includes('"HassTurnOff"'), 'the old name still matches its renamed tool');
    });

    it('redeploy while a call waits: that request ends in done(err), nothing hangs, nothing reaches the server', async () => {
      await loadWithApprovals({ fake, servers: [haServer(ha)], agent: { approval: 'HassTurnOff' } });
      fake.script(reply.call(n('HassTurnOff'), { name: 'Front Door' }));
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
        await setFlows(flow, 'full', credentials);
        const deadline = Date.now() + 5000;
        const ended = () => completed.find((c) => c.node === 'agent' && c.msg?.marker === 'waiting');
        while (!ended() && Date.now() < deadline) await sleep(20);
        assert.ok(ended(), 'the waiting message was completed');
        assert.match(
          String((ended()!.error as Error)?.message),
          new RegExp(`closed or redeployed while ${n('HassTurnOff')} waited for approval; the call was not made`),
        );
        assert.deepEqual(haCalls(), []);
        assert.equal(fake.requests.length, 1, 'no further Gemini request for the cancelled run');
      } finally {
        hooks.remove('onComplete.approvalTest');
      }
    });
  });
}
