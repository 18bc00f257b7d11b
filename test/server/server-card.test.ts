// Server Cards in the real runtime: an endpoint with "Publish a server card" serves its card at
// <path>/server-card and is listed in /.well-known/ai-catalog.json (and /.well-known/mcp/catalog.json);
// an endpoint that does not publish is listed nowhere. Every card is checked against the Server Card
// extension's published schema with Ajv 2020 (as the extension's own check does, and that check is
// first run on the extension's valid and invalid examples, so the validator can fail). ETag and
// If-None-Match give 304. Then the mcp-server dialog's route reads the site, and the MCP SDK client
// connects to the URL the card gives and lists the flow's tools.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { helper } from '../helpers/runtime';
import { baseUrl, loadFlow, startEndpointRuntime, stopEndpointRuntime } from './harness';
import { toolFlow } from './tool-flow';

const FIXTURE = join(__dirname, '..', '..', '..', 'shared', 'fixtures', 'mcp', 'server-card');
const TOKEN = 'card-spec-token-51c2';

function cardValidator() {
  const schema = JSON.parse(readFileSync(join(FIXTURE, 'schema.json'), 'utf8'));
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(schema, 'server-card');
  return ajv.getSchema('server-card#/$defs/ServerCard')!;
}

describe('mcp-endpoint: Server Cards and the catalog that lists them', function () {
  this.timeout(30000);
  const validate = cardValidator();
  before(startEndpointRuntime);
  after(stopEndpointRuntime);

  it("the schema check is real: the extension's valid examples pass and its invalid ones fail", () => {
    for (const kind of ['valid', 'invalid'])
      for (const file of readdirSync(join(FIXTURE, 'examples', kind))) {
        const ok = validate(JSON.parse(readFileSync(join(FIXTURE, 'examples', kind, file), 'utf8')));
        assert.equal(ok, kind === 'valid', `${kind}/${file}`);
      }
  });

  describe('one endpoint publishes, one does not', () => {
    before(() =>
      loadFlow(
        [
          ...toolFlow().map((n) => (n.id === 'ep' ? { ...n, publishCard: true } : n)),
          { id: 'ep2', type: 'mcp-endpoint', path: '/private', name: 'private', anonymous: true },
          { id: 'in2', type: 'mcp-tool-in', endpoint: 'ep2', name: 'hidden', wires: [['out2']] },
          { id: 'out2', type: 'mcp-tool-out' },
        ],
        { ep: { tokens: TOKEN } },
        [require('../../nodes/mcp-server/index.ts')],
      ),
    );

    it('the catalog lists the publishing endpoint only, with ETag revalidation and open CORS', async () => {
      for (const path of ['/.well-known/ai-catalog.json', '/.well-known/mcp/catalog.json']) {
        const res = await fetch(baseUrl + path);
        assert.equal(res.status, 200, path);
        assert.match(res.headers.get('content-type') ?? '', /^application\/ai-catalog\+json/);
        assert.equal(res.headers.get('access-control-allow-origin'), '*');
        const doc = await res.json();
        assert.equal(doc.specVersion, 'draft');
        assert.deepEqual(doc.entries, [
          { identifier: 'urn:air:127.0.0.1:mcp', displayName: 'test-endpoint', type: 'application/mcp-server-card+json', url: `${baseUrl}/mcp/server-card` },
        ]);
        const etag = res.headers.get('etag')!;
        const again = await fetch(baseUrl + path, { headers: { 'if-none-match': etag } });
        assert.equal(again.status, 304);
        assert.equal(await again.text(), '');
      }
      assert.equal((await fetch(`${baseUrl}/private/server-card`)).status, 404, 'no card for an endpoint that does not publish');
    });

    it('the card follows the published schema, names the endpoint URL and no secret', async () => {
      const res = await fetch(`${baseUrl}/mcp/server-card`, { headers: { accept: 'application/mcp-server-card+json' } });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^application\/mcp-server-card\+json/);
      const text = await res.text();
      const card = JSON.parse(text);
      assert.ok(validate(card), JSON.stringify(validate.errors));
      assert.equal(card.name, 'local.node-red/mcp');
      assert.equal(card.title, 'test-endpoint');
      assert.equal(card.remotes[0].type, 'streamable-http');
      assert.equal(card.remotes[0].url, `${baseUrl}/mcp`);
      assert.ok(card.remotes[0].supportedProtocolVersions.includes('2026-07-28'));
      assert.equal(card.remotes[0].headers[0].isRequired, true);
      assert.ok(!text.includes(TOKEN), 'the token never appears');
      assert.equal((await fetch(`${baseUrl}/mcp/server-card`, { headers: { 'if-none-match': res.headers.get('etag')! } })).status, 304);
    });

    it("the dialog's route reads the site's catalog, and the card's URL takes the SDK client to the flow's tools", async () => {
      const answer = (
        await helper
          .request()
          .post('/mcp-server/server-card')
          .send({ url: `${baseUrl}/` })
          .expect(200)
      ).body;
      assert.equal(answer.ok, true, answer.error);
      assert.equal(answer.cards.length, 1);
      const [card] = answer.cards;
      assert.deepEqual(
        { title: card.title, transport: card.transport, url: card.url, bearer: card.bearer },
        { title: 'test-endpoint', transport: 'http', url: `${baseUrl}/mcp`, bearer: true },
      );
      const direct = (
        await helper
          .request()
          .post('/mcp-server/server-card')
          .send({ url: `${baseUrl}/mcp/server-card` })
          .expect(200)
      ).body;
      assert.equal(direct.cards[0].url, `${baseUrl}/mcp`);
      const client = new Client({ name: 'card-reader', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(card.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'echo'));
      await client.close();
    });

    it('a page that is no card is named as such', async () => {
      const answer = (
        await helper
          .request()
          .post('/mcp-server/server-card')
          .send({ url: `${baseUrl}/private/server-card` })
          .expect(200)
      ).body;
      assert.equal(answer.ok, false);
      assert.match(answer.error, /answered 404/);
    });
  });

  it('with no endpoint publishing, the catalog is not there', async () => {
    await loadFlow(toolFlow(), { ep: { tokens: TOKEN } });
    assert.equal((await fetch(`${baseUrl}/.well-known/ai-catalog.json`)).status, 404);
    assert.equal((await fetch(`${baseUrl}/mcp/server-card`)).status, 404);
  });
});
