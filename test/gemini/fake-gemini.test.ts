// The fake Gemini itself, driven by the real @google/genai client: both API versions, and each
// server rule it enforces answers Gemini's 400 (so the agent tests that pass could have failed).
import assert from 'node:assert/strict';
import { GoogleGenAI } from '@google/genai';
import { reply, startFakeGemini, type FakeGemini } from '../peers/fake-gemini';

describe('fake Gemini: wire format and enforced rules', () => {
  let fake: FakeGemini;
  const client = (apiVersion: string, apiKey = fake.apiKey) => new GoogleGenAI({ apiKey, apiVersion, httpOptions: { baseUrl: fake.url, apiVersion } });
  const status = async (p: Promise<unknown>) =>
    p.then(
      () => 200,
      (e: any) => `${e.status} ${e.message}`,
    );

  beforeEach(async () => {
    fake = await startFakeGemini();
  });
  afterEach(() => fake.close());

  it('answers only on the pinned API version unless told otherwise', async () => {
    fake.script(reply.text('pinned'));
    assert.match(String(await status(client('v1').models.generateContent({ model: 'gemini-3.5-flash', contents: 'hi' }))), /^404 .*answers on \/v1beta\/ only/);
    const r = await client('v1beta').models.generateContent({ model: 'gemini-3.5-flash', contents: 'hi' });
    assert.equal(r.text, 'pinned');
    // @google/genai 3's own default (no apiVersion given) is v1: the package always names its version.
    const unpinned = new GoogleGenAI({ apiKey: fake.apiKey, httpOptions: { baseUrl: fake.url } });
    assert.match(String(await status(unpinned.models.generateContent({ model: 'gemini-3.5-flash', contents: 'hi' }))), /^404 .*not \/v1\/models/);
  });

  it('answers on /v1/ and /v1beta/ when told to, streaming with every event ended by a blank line', async () => {
    await fake.close();
    fake = await startFakeGemini({ apiVersions: ['v1', 'v1beta'] });
    fake.script(reply.text('one'), reply.text('two halves'));
    const r = await client('v1').models.generateContent({ model: 'gemini-3.5-flash', contents: 'hi' });
    assert.equal(r.text, 'one');
    const chunks: string[] = [];
    for await (const c of await client('v1beta').models.generateContentStream({ model: 'gemini-3.5-flash', contents: 'hi' })) chunks.push(c.text ?? '');
    assert.deepEqual(chunks, ['two h', 'alves']);
    assert.deepEqual(
      fake.requests.map((q) => [q.version, q.method]),
      [
        ['v1', 'generateContent'],
        ['v1beta', 'streamGenerateContent'],
      ],
    );
  });

  it('refuses a wrong key (400 API_KEY_INVALID) and a missing one (403)', async () => {
    assert.match(String(await status(client('v1beta', 'wrong').models.generateContent({ model: 'm', contents: 'hi' }))), /^400 .*API key not valid/);
    const bare = await fetch(`${fake.url}/v1beta/models/m:generateContent`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    assert.equal(bare.status, 403);
    assert.equal((await bare.json()).error.status, 'PERMISSION_DENIED');
  });

  it('enforces roles, counts, ids, signatures and declarations', async () => {
    const ai = client('v1beta');
    const model = 'gemini-3.5-flash';
    fake.script(reply.calls([{ name: 'a' }, { name: 'b' }], { ids: ['i1', 'i2'] }));
    const first = await ai.models.generateContent({ model, contents: 'go' });
    const modelTurn = first.candidates![0].content!;
    const resp = (id: string, name: string) => ({ functionResponse: { id, name, response: { output: 1 } } });
    const base = [{ role: 'user', parts: [{ text: 'go' }] }, modelTurn];
    const cases: Array<[string, any[], RegExp]> = [
      ['role', [{ role: 'function', parts: [{ text: 'x' }] }], /valid role/],
      ['count', [...base, { role: 'user', parts: [resp('i1', 'a')] }], /number of function response parts/],
      ['ids', [...base, { role: 'user', parts: [resp('i2', 'a'), resp('i1', 'b')] }], /functionResponse.id does not match/],
      [
        'signature',
        [
          base[0],
          { role: 'model', parts: modelTurn.parts!.map((p) => ({ functionCall: p.functionCall })) },
          { role: 'user', parts: [resp('i1', 'a'), resp('i2', 'b')] },
        ],
        /thought_signature/,
      ],
    ];
    for (const [rule, contents, expected] of cases) {
      assert.match(String(await status(ai.models.generateContent({ model, contents }))), expected, rule);
    }
    const badTool = ai.models.generateContent({
      model,
      contents: 'x',
      config: { tools: [{ functionDeclarations: [{ name: 'bad name!', parametersJsonSchema: { type: 'object' } }] }] },
    });
    assert.match(String(await status(badTool)), /^400 /);
    // Google's built-in tools beside functions only with the server-side invocations asked for.
    const fn = { functionDeclarations: [{ name: 'f', parametersJsonSchema: { type: 'object' } }] };
    const combined = ai.models.generateContent({ model, contents: 'x', config: { tools: [fn, { googleSearch: {} }] } });
    assert.match(String(await status(combined)), /^400 .*include_server_side_tool_invocations/);
    fake.script(reply.text('combined'));
    const allowed = await ai.models.generateContent({
      model,
      contents: 'x',
      config: { tools: [fn, { googleSearch: {} }], toolConfig: { includeServerSideToolInvocations: true } },
    });
    assert.equal(allowed.text, 'combined');
    fake.script(reply.text('valid'));
    const ok = await ai.models.generateContent({ model, contents: [...base, { role: 'user', parts: [resp('i1', 'a'), resp('i2', 'b')] }] });
    assert.equal(ok.text, 'valid');
  });

  it('lets each rule be switched off', async () => {
    await fake.close();
    fake = await startFakeGemini({ strict: { roles: false } });
    fake.script(reply.text('fine'));
    const r = await client('v1beta').models.generateContent({ model: 'gemini-3.5-flash', contents: [{ role: 'function', parts: [{ text: 'x' }] }] });
    assert.equal(r.text, 'fine');
  });
});
