// The examples that show MCP's newer call features and Gemini's own tools, deployed into a real
// Node-RED as a user imports them:
// - input-requests.json: the demo server's book-a-table asks in the middle of the call; the flow's
//   stand-in person answers through the same call node, and the booking comes back;
// - tasks.json: the demo server runs research as a task; its status changes leave output 2, the
//   result output 1, and the cancel button ends a running task at the Catch node;
// - gemini-google-tools.json: Gemini (the fake, through the real @google/genai client) gets
//   Google Search, URL context and code execution, and what they did reaches the second debug node.
// The first two run offline on the demo server that ships with the package.
import assert from 'node:assert/strict';
import { readExample, startNodeRed, assertCleanDeploy, type NodeRedProcess } from '../helpers/node-red';
import { reply, startFakeGemini, type FakeGemini } from '../peers/fake-gemini';

describe('examples: input-requests.json, tasks.json and gemini-google-tools.json', function () {
  this.timeout(120_000);
  let nr: NodeRedProcess;
  let gemini: FakeGemini;
  const asks = readExample('input-requests');
  const tasks = readExample('tasks');
  const google = readExample('gemini-google-tools');

  before(async () => {
    gemini = await startFakeGemini();
    nr = await startNodeRed({ env: { GEMINI_API_KEY: gemini.apiKey, GEMINI_BASE_URL: gemini.url } });
    await nr.deploy([...asks, ...tasks, ...google]);
  });
  after(async () => {
    await nr?.stop();
    await gemini?.close();
  });
  beforeEach(() => nr.debug.clear());

  it('deploy without errors or unknown node types', async () => {
    await assertCleanDeploy(nr, [...asks, ...tasks, ...google]);
  });

  it('book a table: the question leaves output 2, the flow answers it, and the booking comes back', async () => {
    await nr.inject('ir-inject');
    const question = await nr.debug.next('ir-question');
    assert.equal(question.value.topic, 'input');
    assert.match(question.value.payload.message, /A table at Luigi's: for how many people/);
    assert.deepEqual(Object.keys(question.value.payload.schema.properties).sort(), ['confirm', 'people']);
    const booking = await nr.debug.next('ir-result');
    assert.deepEqual(booking.value, { booked: true, people: 2, restaurant: "Luigi's" });
    assert.deepEqual(nr.debug.errors(), []);
  });

  it('research: runs as a task, each status on output 2, the result on output 1', async () => {
    await nr.inject('tk-inject');
    const result = await nr.debug.next('tk-result', undefined, 60_000);
    assert.deepEqual(result.value, { topic: 'heat pumps', sources: 3 });
    const statuses = nr.debug.messages.filter((m) => m.name === 'task status').map((m) => m.value);
    assert.ok(statuses.length >= 2, JSON.stringify(statuses));
    assert.equal(statuses[0].status, 'working');
    assert.match(statuses[0].statusMessage, /reading source 1 of 3/);
    assert.equal(statuses[statuses.length - 1].status, 'completed');
    assert.equal(new Set(statuses.map((s) => s.taskId)).size, 1, 'one task');
  });

  it('research, then cancel: the task ends on the server and the call reaches the Catch node', async () => {
    await nr.inject('tk-inject');
    await nr.debug.next('tk-status', (m) => m.value?.status === 'working');
    await nr.inject('tk-cancel');
    const error = await nr.debug.next('tk-errors');
    assert.match(String(error.value?.message ?? error.value), /cancel/i);
    await new Promise((r) => setTimeout(r, 3500)); // longer than the task would have taken
    assert.equal(
      nr.debug.messages.some((m) => m.name === 'research result'),
      false,
      'no result after cancel',
    );
  });

  it("Google's tools: Gemini is offered Search, URL context and code execution, and msg.gemini.google says what they did", async () => {
    gemini.script(
      reply.raw({
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { executableCode: { language: 'PYTHON', code: 'print(sum(primes[:50]))' } },
                { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '5117\n' } },
                { text: 'The sum is 5117.' },
              ],
            },
            finishReason: 'STOP',
          },
        ],
        usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 12, totalTokenCount: 32 },
      }),
    );
    await nr.inject('gt-primes');
    const answer = await nr.debug.next('gt-answer');
    assert.equal(answer.value, 'The sum is 5117.');
    const did = await nr.debug.next('gt-google');
    assert.deepEqual(did.value.code, [{ language: 'PYTHON', code: 'print(sum(primes[:50]))', outcome: 'OUTCOME_OK', output: '5117\n' }]);
    const tools = gemini.requests[gemini.requests.length - 1].body.tools;
    assert.deepEqual(tools, [{ googleSearch: {} }, { urlContext: {} }, { codeExecution: {} }]);
  });

  it('book a table on a server pinned to MCP 2025-11-25: the same flow answers the question sent during the call', async () => {
    const pinned = asks.map((n) => (n.type === 'mcp-server' ? { ...n, protocolVersion: '2025-11-25' } : n));
    await nr.deploy(pinned);
    await assertCleanDeploy(nr, pinned);
    nr.debug.clear();
    await nr.inject('ir-inject');
    const question = await nr.debug.next('ir-question');
    assert.match(question.value.payload.message, /A table at Luigi's/);
    const booking = await nr.debug.next('ir-result');
    assert.deepEqual(booking.value, { booked: true, people: 2, restaurant: "Luigi's" });
  });
});
