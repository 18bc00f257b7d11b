// Connection errors a newcomer meets, in plain words, through the real runtime to a Catch node:
// a 404 page (HTML) from a wrong path, Home Assistant without its MCP integration, an SSE server
// setting against a Streamable-HTTP-only server, https:// to a plain HTTP server, and the add-on
// preset used outside the add-on. Each used to show raw HTML or "fetch failed".
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { helper, load, nextMessage, send, setEnv, startRuntime, stopRuntime } from '../helpers/runtime';
import { startHomeAssistant, type HomeAssistantStandIn } from '../peers/home-assistant';

function flow(server: Record<string, unknown>) {
  return [
    { id: 'srv', type: 'mcp-server', name: 'server', transport: 'http', timeout: 10, ...server },
    { id: 'list', type: 'mcp-list-tools', server: 'srv', wires: [['out']] },
    { id: 'out', type: 'helper' },
    { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', type: 'helper' },
  ];
}

async function errorFor(server: Record<string, unknown>, credentials: Record<string, unknown> = {}): Promise<string> {
  await load(flow(server), { srv: credentials });
  const caught = nextMessage('caught');
  send('list', { payload: '' });
  return (await caught).error.message as string;
}

describe('connection errors in plain words (real runtime)', function () {
  this.timeout(60_000);
  let web: Server;
  let webUrl: string;
  let ha: HomeAssistantStandIn;
  before(async () => {
    await startRuntime();
    ha = await startHomeAssistant();
    // A web server with an HTML error page for every path, as nginx or a router answers.
    web = createServer((_req, res) =>
      res
        .writeHead(404, { 'content-type': 'text/html' })
        .end(
          '<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>',
        ),
    );
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((r) => web.close(r));
    await ha.close();
    await stopRuntime();
  });
  afterEach(() => helper.unload());

  it('a 404 page says there is nothing at that path, without its HTML', async () => {
    const message = await errorFor({ url: `${webUrl}/mcp` });
    assert.match(message, /HTTP 404 \(nothing at this path: check the URL's path\)/);
    assert.doesNotMatch(message, /<|DOCTYPE/);
  });

  it('Home Assistant answering 404 at /api/mcp names the missing integration', async () => {
    const message = await errorFor({ url: `${webUrl}/api/mcp` }, { token: 'x-token' });
    assert.match(message, /add the "Model Context Protocol Server" integration/);
    assert.doesNotMatch(message, /<|DOCTYPE/);
  });

  it('Home Assistant answering 404 for /api/mcp/<API id> names the LLM API it does not have', async () => {
    const message = await errorFor({ url: `${ha.url}/music_assistant` }, { token: ha.token });
    assert.match(message, /Home Assistant has no LLM API "music_assistant"/);
    assert.match(message, /"assist" is Assist's id/);
  });

  it('the SSE transport against a Streamable-HTTP-only server suggests Streamable HTTP', async () => {
    const message = await errorFor({ url: ha.url, transport: 'sse' }, { token: ha.token });
    assert.match(message, /choose the Streamable HTTP transport/);
  });

  it('https:// to a plain HTTP server says to use http://', async () => {
    const message = await errorFor({ url: ha.url.replace('http://', 'https://') }, { token: ha.token });
    assert.match(message, /answered in plain HTTP, not HTTPS: use http:\/\//);
    assert.doesNotMatch(message, /fetch failed/);
  });

  it('the add-on preset outside the add-on says Node-RED is not the add-on and points to the URL preset', async () => {
    const restore = setEnv({ SUPERVISOR_TOKEN: undefined });
    try {
      const message = await errorFor({ url: 'http://supervisor/core/api/mcp' }, { token: '${SUPERVISOR_TOKEN}' });
      assert.match(message, /Node-RED is not running as the Home Assistant add-on \(there is no SUPERVISOR_TOKEN\)/);
      assert.match(message, /"Home Assistant URL" preset/);
    } finally {
      restore();
    }
  });
});
