// The real @google/genai client carries our declarations to a Gemini-speaking server unchanged: the
// SDK's own rewriting of `parameters` (upper-casing types, folding type lists, dropping
// additionalProperties, gemini-api.md §3.1) finds nothing left to do, and what arrives on the wire
// passes the validator.
import assert from 'node:assert/strict';
import { GoogleGenAI } from '@google/genai';
import { compileTools, validateDeclarations } from '../../src/schema';
import { reply, startFakeGemini, type FakeGemini } from '../peers/fake-gemini';
import { everythingTools, staticCorpora, type Corpus } from './corpus';

describe('schema compiler: through the real @google/genai client', function () {
  let fake: FakeGemini;
  const corpora: Corpus[] = staticCorpora();

  before(async function () {
    corpora.push({ name: 'server-everything (live)', tools: await everythingTools() });
  });
  beforeEach(async function () {
    fake = await startFakeGemini();
  });
  afterEach(async function () {
    await fake.close();
  });

  for (const format of ['gemini', 'gemini-schema'] as const) {
    it(`sends every corpus as ${format} byte-for-byte and gets a 200`, async function () {
      const ai = new GoogleGenAI({ apiKey: fake.apiKey, apiVersion: 'v1beta', httpOptions: { baseUrl: fake.url, apiVersion: 'v1beta' } });
      for (const corpus of corpora) {
        const { payload } = compileTools(corpus.tools, format);
        fake.script(reply.text('ok'));
        // The SDK rewrites the declarations it is given in place: hand it a copy.
        const response = await ai.models.generateContent({
          model: 'gemini-3.5-flash',
          contents: 'list',
          config: { tools: [structuredClone(payload) as never] },
        });
        assert.equal(response.text, 'ok', corpus.name);
        const sent = fake.requests.at(-1)!;
        assert.deepEqual(sent.violations, [], corpus.name);
        assert.deepEqual(sent.body.tools, [payload], `${corpus.name}: the SDK changed the ${format} declarations`);
        assert.deepEqual(validateDeclarations(sent.body.tools, format), [], corpus.name);
      }
    });
  }
});
