// The lenient wire reader is generic: prompts/list and resources/list answers are repaired for any
// code that sends them through an SDK client on a transport it is installed on (the prompts and
// resources nodes need nothing more than `captureLeniency` to get the warnings).
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '../../src/mcp/sdk';
import { captureLeniency, readResponsesLeniently } from '../../src/mcp/lenient-wire';
import type { ListWarning } from '../../src/mcp/lenient-list';
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
      const uncaptured: ListWarning[] = [];
      readResponsesLeniently(transport, { modernEra: () => false, onUncaptured: (w) => uncaptured.push(...w) });
      await client.connect(transport);
      try {
        const { value: prompts, capture } = await captureLeniency(() => client.request({ method: 'prompts/list', params: {} }));
        assert.deepEqual(
          prompts.prompts.map((p) => p.name),
          ['greet', 'null_args', 'bad_arg'],
        );
        assert.deepEqual(prompts.prompts[2].arguments, [{ name: 'ok' }]);
        assert.deepEqual(
          capture.warnings.map((w) => `${w.prompt} ${w.path}`),
          ['null_args description', 'null_args arguments', 'prompts[2] name', 'bad_arg arguments[0]', 'bad_arg arguments.0.required'],
        );
        // without a capture the warnings still go somewhere (the session logs them)
        const resources = await client.listResources();
        assert.deepEqual(
          resources.resources.map((r) => [r.uri, r.name]),
          [
            ['file:///a.txt', 'a'],
            ['file:///b.txt', 'file:///b.txt'],
          ],
        );
        assert.deepEqual(
          uncaptured.map((w) => `${w.resource} ${w.path}`),
          ['file:///b.txt name', 'resources[2] uri', 'file:///a.txt uri'],
        );
      } finally {
        await client.close();
      }
    });
  }
});
