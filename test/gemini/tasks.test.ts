// gemini-agent and a long tool: when Gemini calls a task-only tool of server-everything (the MCP
// reference server, v1 SDK task runtime, protocol 2025-11-25), the agent's session calls it as a
// task, waits for the task's end, and gives Gemini the task's result; the call shows in the trace.
import assert from 'node:assert/strict';
import { everythingStdio } from '../peers/everything';
import { reply } from '../peers/fake-gemini';
import { loadAgent, run, type FakeGemini, useAgentPeers } from './harness';

describe('gemini-agent: a task-only tool (server-everything, protocol 2025-11-25)', function () {
  this.timeout(60000);
  let fake: FakeGemini;
  const peers = useAgentPeers({ homeAssistant: false });
  beforeEach(() => (fake = peers.fake));

  it("Gemini's call runs as a task and the report goes back to Gemini", async () => {
    await loadAgent({ fake, servers: [{ id: 'ev', name: 'everything', transport: 'stdio', command: everythingStdio.command, args: everythingStdio.args }] });
    fake.script(reply.call('simulate_research_query', { topic: 'heat pumps' }), reply.text('The report is ready.'));
    const { answer, caught } = await run({ payload: 'research heat pumps' });
    assert.equal(caught, undefined, caught?.error?.message);
    assert.equal(answer.payload, 'The report is ready.');
    const call = answer.gemini.steps[0].calls[0];
    assert.equal(call.tool, 'simulate-research-query');
    assert.equal(call.isError, false);
    // Called the ordinary way, the server refuses a task-only tool; the report proves the task ran.
    assert.match(JSON.stringify(fake.requests[1].body.contents.at(-1)), /Research Report: heat pumps/);
  });
});
