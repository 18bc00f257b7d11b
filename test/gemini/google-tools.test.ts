// gemini-agent with Google's own tools (Search, URL context, code execution) beside the MCP tools,
// through the real Node-RED runtime, the real @google/genai client and the fake Gemini: the request
// carries both kinds (and asks for the server-side invocations, which the API requires when they are
// combined), what Google's tools did reaches msg.gemini.google and the trace, the answer is the text
// alone, and approval rules, which guard this node's own calls, never hold Google's.
import assert from 'node:assert/strict';
import { reply } from '../peers/fake-gemini';
import { HA_GENERATIONS, haToolName, type HaGeneration } from '../peers/home-assistant';
import { haServer, loadAgent, run, useAgentPeers } from './harness';

for (const generation of HA_GENERATIONS) describeGoogleTools(generation);

/** A final model turn as the Gemini API sends it after Search, URL context and code execution ran. */
function groundedAnswer(text: string) {
  return {
    candidates: [
      {
        content: {
          role: 'model',
          parts: [
            { executableCode: { language: 'PYTHON', code: 'print(21 * 2)' } },
            { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '42\n' } },
            { text },
          ],
        },
        finishReason: 'STOP',
        groundingMetadata: {
          webSearchQueries: ['kitchen light energy use'],
          groundingChunks: [{ web: { uri: 'https://example.org/led', title: 'LED lamps' } }],
          groundingSupports: [{ segment: { startIndex: 0, endIndex: 10, text: text.slice(0, 10) }, groundingChunkIndices: [0] }],
        },
        urlContextMetadata: { urlMetadata: [{ retrievedUrl: 'https://example.org/manual', urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_SUCCESS' }] },
      },
    ],
    usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 12, totalTokenCount: 32 },
    modelVersion: 'gemini-3.5-flash',
  };
}

const EXPECTED_USE = {
  searches: ['kitchen light energy use'],
  sources: [{ uri: 'https://example.org/led', title: 'LED lamps' }],
  urls: [{ url: 'https://example.org/manual', status: 'URL_RETRIEVAL_STATUS_SUCCESS' }],
  code: [{ language: 'PYTHON', code: 'print(21 * 2)', outcome: 'OUTCOME_OK', output: '42\n' }],
};

function describeGoogleTools(generation: HaGeneration) {
  describe(`gemini-agent: Google's tools beside MCP tools (Home Assistant ${generation})`, function () {
    const n = (tool: string) => haToolName(generation, tool);
    const peers = useAgentPeers({ generation });
    const google = { googleSearch: true, urlContext: true, codeExecution: true };

    it('one request offers both kinds; what Search, URL context and code execution did is in msg.gemini.google and the trace', async () => {
      const { fake, ha } = peers;
      await loadAgent({ fake, servers: [haServer(ha)], agent: google });
      fake.script(reply.call(n('HassTurnOn'), { name: 'Kitchen Light' }), reply.raw(groundedAnswer('The kitchen light is on; LED lamps use about 8 W.')));
      const { answer, caught } = await run({ payload: 'Turn on the kitchen light and tell me what it uses' });
      assert.equal(caught, undefined, caught && caught.error?.message);
      assert.equal(answer.payload, 'The kitchen light is on; LED lamps use about 8 W.', 'the answer is the text, not the code');
      const tools = fake.requests[0].body.tools;
      assert.ok(Array.isArray(tools[0].functionDeclarations) && tools[0].functionDeclarations.length > 0);
      assert.deepEqual(tools.slice(1), [{ googleSearch: {} }, { urlContext: {} }, { codeExecution: {} }]);
      assert.deepEqual(fake.requests[0].body.toolConfig, { functionCallingConfig: { mode: 'AUTO' }, includeServerSideToolInvocations: true });
      assert.deepEqual(answer.gemini.google, EXPECTED_USE);
      assert.deepEqual(answer.gemini.steps[1].google, EXPECTED_USE);
      assert.equal(answer.gemini.steps[0].google, undefined, 'the first turn only called Home Assistant');
      assert.equal(ha.requests.filter((r) => r.rpcMethod === 'tools/call').length, 1);
    });

    it('unticked, the request has only the MCP functions and no server-side flag', async () => {
      const { fake, ha } = peers;
      await loadAgent({ fake, servers: [haServer(ha)] });
      fake.script(reply.text('Hello.'));
      const { caught } = await run({ payload: 'hi' });
      assert.equal(caught, undefined, caught && caught.error?.message);
      assert.equal(fake.requests[0].body.tools.length, 1);
      assert.deepEqual(fake.requests[0].body.toolConfig, { functionCallingConfig: { mode: 'AUTO' } });
    });

    it('approval rules guard only this node\'s calls: a grounded answer under "every tool" arrives without an approval request', async () => {
      const { fake, ha } = peers;
      await loadAgent({ fake, servers: [haServer(ha)], agent: { ...google, approval: '*' } });
      fake.script(reply.raw(groundedAnswer('LED lamps use about 8 W.')));
      // A held call would wait for an answer that never comes; the grounded answer arrives at once.
      const { answer, caught } = await run({ payload: 'What does an LED lamp use?' });
      assert.equal(caught, undefined, caught && caught.error?.message);
      assert.equal(answer.payload, 'LED lamps use about 8 W.');
      assert.deepEqual(answer.gemini.google, EXPECTED_USE);
      assert.equal(ha.requests.filter((r) => r.rpcMethod === 'tools/call').length, 0);
    });

    it('streamed, the grounding that comes with the last chunk still reaches msg.gemini.google', async () => {
      const { fake, ha } = peers;
      await loadAgent({ fake, servers: [haServer(ha)], agent: { ...google, stream: true } });
      fake.script(reply.raw(groundedAnswer('LED lamps use about 8 W.')));
      const { answer, caught } = await run({ payload: 'What does an LED lamp use?' });
      assert.equal(caught, undefined, caught && caught.error?.message);
      assert.deepEqual(answer.gemini.google, EXPECTED_USE);
    });
  });
}
