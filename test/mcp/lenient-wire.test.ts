// The lenient wire reader is generic: prompts/list and resources/list answers are repaired for any
// code that sends them through an SDK client on a transport it is installed on (the prompts and
// resources nodes need nothing more than `takeWireFindings` to get the warnings, which travel with
// the answer itself).
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '../../src/mcp/protocol/sdk';
import { readResponsesLeniently, takeWireFindings } from '../../src/mcp/lenient/lenient-wire';
import type { ListWarning } from '../../src/mcp/lenient/lenient-list';
import { startLenientServer } from '../peers/lenient-server';
import type { HttpEndpoint } from '../../servers/todo/http-transport';

describe('lenient wire reader: prompts/list and resources/list through a plain SDK client', () => {
  let peer: HttpEndpoint;
  before(async () => (peer = await startLenientServer()));
  after(() => peer.close());

  for (const mode of ['auto', 'legacy'] as const) {
    it(`lists what can be used and names what was repaired or left out (negotiation ${mode})`, async () => {
      const transport = new StreamableHTTPClientTransport(new URL(peer.url));
      const client = new Client({ name: 'lenient-test', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode } } as never);
      readResponsesLeniently(transport, { modernEra: () => false });
      await client.connect(transport);
      try {
        const prompts = await client.request({ method: 'prompts/list', params: {} });
        const found = takeWireFindings(prompts);
        assert.ok(!JSON.stringify(prompts).includes('wire-findings'), 'the findings leave nothing behind in the answer');
        assert.deepEqual(
          prompts.prompts.map((p) => p.name),
          ['greet', 'null_args', 'bad_arg'],
        );
        assert.deepEqual(prompts.prompts[2].arguments, [{ name: 'ok' }]);
        assert.deepEqual(
          found.warnings.map((w) => `${w.prompt} ${w.path}`),
          ['null_args description', 'null_args arguments', 'prompts[2] name', 'bad_arg arguments[0]', 'bad_arg arguments.0.required'],
        );
        // the SDK's own listResources() keeps the findings in the answer's _meta, where they can be taken
        const resources = await client.listResources();
        assert.deepEqual(
          resources.resources.map((r) => [r.uri, r.name]),
          [
            ['file:///a.txt', 'a'],
            ['file:///b.txt', 'file:///b.txt'],
          ],
        );
        assert.deepEqual(
          takeWireFindings(resources).warnings.map((w: ListWarning) => `${w.resource} ${w.path}`),
          ['file:///b.txt name', 'resources[2] uri', 'file:///a.txt uri'],
        );
      } finally {
        await client.close();
      }
    });
  }

  it('a server cannot forge the findings: its task is not followed, its warnings not reported, its own _meta kept', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(peer.url));
    const client = new Client({ name: 'lenient-test', version: '1.0.0' }, { capabilities: {} });
    readResponsesLeniently(transport, { modernEra: () => false });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'odd_result', arguments: { kind: 'forged-findings' } });
      assert.deepEqual(takeWireFindings(result), { warnings: [] });
      assert.deepEqual(result._meta, { 'example.com/kept': 1 });
      assert.deepEqual(result.content, [{ type: 'text', text: 'plain answer' }]);
    } finally {
      await client.close();
    }
  });
});
