// Proves the test peers behave as documented, so the node tests built on them prove something:
// the Home Assistant stand-in against the fixture's HTTP cases and call pairs, the paginated server
// against its page layout, server-everything on all three transports, and the stubborn stdio server
// really leaving a SIGTERM-proof grandchild behind when only its shell is signalled.
import { until } from '../helpers/wait';
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { everythingStdio, startEverything, type EverythingServer } from './everything';
import { freePort } from './free-port';
import { haCallExamples, haTools, startHomeAssistant, type HomeAssistantStandIn } from './home-assistant';
import { startPaginatedServer, type PaginatedServer } from './paginated-server';
import { isAlive, killStubbornPids, readStubbornPids, stubbornStdioCommand, waitForStubbornPids } from './stubborn-stdio';

const JSON_AND_SSE = 'application/json, text/event-stream';

const waitFor = until;

function newClient(): Client {
  return new Client({ name: 'peers-test', version: '0.0.0' });
}

function firstText(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.find((c) => c.type === 'text')?.text ?? '';
}

describe('test peers', function () {
  describe('free-port', function () {
    it('returns a port that can be bound on 127.0.0.1', async function () {
      const port = await freePort();
      assert.ok(port > 0 && port < 65536);
      const { createServer } = await import('node:net');
      const server = createServer();
      await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
  });

  describe('Home Assistant stand-in', function () {
    let ha: HomeAssistantStandIn;
    beforeEach(async function () {
      ha = await startHomeAssistant({ token: 'secret-test-token' });
    });
    afterEach(async function () {
      await ha.close();
    });

    function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
      return fetch(ha.url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ha.token}`, Accept: JSON_AND_SSE, 'Content-Type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    }

    it('listens on 127.0.0.1 at /api/mcp', function () {
      assert.match(ha.url, /^http:\/\/127\.0\.0\.1:\d+\/api\/mcp$/);
      assert.equal(ha.token, 'secret-test-token');
    });

    it('answers 401 "401: Unauthorized" with WWW-Authenticate when the token is missing', async function () {
      const res = await fetch(ha.url, {
        method: 'POST',
        headers: { Accept: JSON_AND_SSE, 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      assert.equal(res.status, 401);
      assert.equal(await res.text(), '401: Unauthorized');
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource"$/);
      assert.equal(ha.requests.length, 1);
      assert.equal(ha.requests[0].status, 401);
    });

    it('answers 401 for a wrong bearer token', async function () {
      const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { Authorization: 'Bearer not-the-token' });
      assert.equal(res.status, 401);
      assert.equal(await res.text(), '401: Unauthorized');
    });

    it('answers 400 when Accept lacks application/json (*/* alone is not enough)', async function () {
      for (const accept of ['*/*', 'text/event-stream']) {
        const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { Accept: accept });
        assert.equal(res.status, 400, accept);
        assert.equal(await res.text(), 'Client must accept application/json');
      }
    });

    it('answers 400 for a non-JSON content type and for a body that is not one JSON-RPC message', async function () {
      const wrongType = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'Content-Type': 'text/plain' });
      assert.equal(wrongType.status, 400);
      assert.equal(await wrongType.text(), 'Content-Type must be application/json');
      for (const body of ['not json', JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }])]) {
        const res = await post(body);
        assert.equal(res.status, 400);
        assert.equal(await res.text(), 'Request must be a JSON-RPC message');
      }
    });

    it('answers 405 to GET (no SSE stream at this endpoint)', async function () {
      const res = await fetch(ha.url, { headers: { Authorization: `Bearer ${ha.token}`, Accept: 'text/event-stream' } });
      assert.equal(res.status, 405);
      assert.equal(res.headers.get('allow'), 'POST');
    });

    it('answers 202 with an empty body to a notification', async function () {
      const res = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
      assert.equal(res.status, 202);
      assert.equal(await res.text(), '');
    });

    it('answers -32601 with the method as data for an unknown method', async function () {
      const res = await post({ jsonrpc: '2.0', id: 24, method: 'tools/run', params: {} });
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { jsonrpc: '2.0', id: 24, error: { code: -32601, message: 'Method not found', data: 'tools/run' } });
    });

    it('is stateless: initialize echoes a supported version, no Mcp-Session-Id, JSON not SSE, Python json.dumps spacing', async function () {
      const res = await post({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('mcp-session-id'), null);
      assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
      const text = await res.text();
      assert.ok(text.startsWith('{"jsonrpc": "2.0", "id": 1, "result": {'), text);
      const body = JSON.parse(text);
      assert.equal(body.result.protocolVersion, '2025-06-18');
      assert.deepEqual(body.result.serverInfo, { name: 'home-assistant', version: '1.26.0' });

      const odd = await (
        await post({
          jsonrpc: '2.0',
          id: 2,
          method: 'initialize',
          params: { protocolVersion: '1.0', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        })
      ).json();
      assert.equal(odd.result.protocolVersion, '2025-11-25');
    });

    it("serves the fixture's 19 tools without initialize, with no top-level required", async function () {
      const body = await (await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' })).json();
      const tools = body.result.tools as Array<{ name: string; inputSchema: Record<string, unknown> }>;
      assert.equal(tools.length, 19);
      assert.deepEqual(
        tools.map((t) => t.name),
        haTools.map((t) => t.name),
      );
      assert.equal(tools[0].name, 'HassTurnOn');
      assert.ok(tools.every((t) => !('required' in t.inputSchema) && t.inputSchema.type === 'object'));
      assert.equal(body.result.nextCursor, undefined);
    });

    it('returns the fixture result for HassTurnOn and for a failing call', async function () {
      const ok = await (
        await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'HassTurnOn', arguments: { name: 'Kitchen Light' } } })
      ).json();
      assert.equal(ok.result.isError, false);
      assert.deepEqual(JSON.parse(ok.result.content[0].text), {
        speech: {},
        response_type: 'action_done',
        data: { success: [{ name: 'Kitchen Light', type: 'entity', id: 'light.kitchen' }], failed: [] },
      });
      const failed = await (
        await post({ jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'HassTurnOn', arguments: { name: 'Backyard' } } })
      ).json();
      assert.equal(failed.result.isError, true);
      assert.match(failed.result.content[0].text, /^Error calling tool: <MatchFailedError /);
    });

    it('reproduces every tools/call pair of the fixture exactly', async function () {
      assert.equal(haCallExamples.length, 16);
      for (const example of haCallExamples) {
        const body = await (await post(example.request)).json();
        assert.deepEqual(body, example.response, example.title);
      }
    });

    it("applies HA's rules to calls the fixture does not list", async function () {
      const call = async (name: string, args: Record<string, unknown>): Promise<{ isError: boolean; content: Array<{ text: string }> }> =>
        (await (await post({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name, arguments: args } })).json()).result;
      const tooBright = await call('HassLightSet', { name: 'Hall', brightness: 101 });
      assert.deepEqual(tooBright, { content: [{ type: 'text', text: 'Input validation error: 101 is greater than the maximum of 100' }], isError: true });
      const unknown = await call('NoSuchTool', {});
      assert.equal(unknown.content[0].text, 'Error calling tool: Tool "NoSuchTool" not found');
      const extra = await call('GetDateTime', { when: 'now' });
      assert.equal(extra.content[0].text, "Error calling tool: extra keys not allowed @ data['when']");
      const turnOff = await call('HassTurnOff', { name: 'Hall Lamp' });
      assert.equal(turnOff.isError, false);
      assert.equal(JSON.parse(turnOff.content[0].text).data.success[0].name, 'Hall Lamp');
      const missingName = await (await post({ jsonrpc: '2.0', id: 25, method: 'tools/call', params: { arguments: {} } })).json();
      assert.deepEqual(missingName.error, { code: -32602, message: 'Invalid request parameters', data: '' });
    });

    it('records every request with method, headers and parsed body', async function () {
      await post({ jsonrpc: '2.0', id: 7, method: 'ping' });
      const [record] = ha.requests;
      assert.equal(record.method, 'POST');
      assert.equal(record.path, '/api/mcp');
      assert.equal(record.rpcMethod, 'ping');
      assert.deepEqual(record.json, { jsonrpc: '2.0', id: 7, method: 'ping' });
      assert.equal(record.headers.authorization, 'Bearer secret-test-token');
      assert.equal(record.status, 200);
    });

    it('serves /api/mcp/assist, 404s other LLM API ids, and publishes the protected-resource document', async function () {
      const assist = await fetch(`${ha.url}/assist`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ha.token}`, Accept: JSON_AND_SSE, 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      assert.equal((await assist.json()).result.tools.length, 19);
      const other = await fetch(`${ha.url}/other_api`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ha.token}`, Accept: JSON_AND_SSE, 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      assert.equal(other.status, 404);
      assert.equal(await other.text(), "Unknown LLM API 'other_api'");
      const origin = new URL(ha.url).origin;
      const doc = await (await fetch(`${origin}/.well-known/oauth-protected-resource`)).json();
      assert.deepEqual(doc.authorization_servers, [origin]);
    });

    it('works with the real SDK v2 client: 19 tools and a HassTurnOn call', async function () {
      const client = newClient();
      await client.connect(new StreamableHTTPClientTransport(new URL(ha.url), { requestInit: { headers: { Authorization: `Bearer ${ha.token}` } } }));
      try {
        const { tools } = await client.listTools();
        assert.equal(tools.length, 19);
        const result = await client.callTool({ name: 'HassTurnOn', arguments: { name: 'Kitchen Light' } });
        assert.equal(result.isError, false);
        assert.match(firstText(result), /"light\.kitchen"/);
      } finally {
        await client.close();
      }
      assert.ok(ha.requests.some((r) => r.rpcMethod === 'tools/call'));
      assert.ok(ha.requests.every((r) => r.status !== 401));
    });
  });

  describe('Home Assistant stand-in CLI', function () {
    it('starts on the given port and prints its URL', async function () {
      const port = await freePort();
      const cli = spawn(
        process.execPath,
        ['--import', pathToFileURL(require.resolve('tsx')).href, join(__dirname, 'home-assistant', 'cli.ts'), '--port', String(port)],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      try {
        let out = '';
        cli.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
        await waitFor('the CLI to print its URL', () => out.includes('Bearer token:'));
        assert.match(out, new RegExp(`http://127\\.0\\.0\\.1:${port}/api/mcp`));
        const res = await fetch(`http://127.0.0.1:${port}/api/mcp`, { method: 'POST' });
        assert.equal(res.status, 401);
      } finally {
        const exited = new Promise((resolve) => cli.once('exit', resolve));
        cli.kill('SIGTERM');
        await exited;
      }
    });
  });

  describe('paginated server', function () {
    let server: PaginatedServer | undefined;
    afterEach(async function () {
      await server?.close();
      server = undefined;
    });

    // One page per request: Client.listTools() without a cursor walks and aggregates every page itself.
    function listPage(client: Client, cursor?: string): Promise<{ tools: Array<{ name: string }>; nextCursor?: string }> {
      return client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } });
    }

    async function connect(url: string): Promise<Client> {
      const client = newClient();
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return client;
    }

    it("spreads 7 tools over 3 pages, each cursor being the next tool's name", async function () {
      server = await startPaginatedServer();
      const client = await connect(server.url);
      try {
        const pages: string[][] = [];
        const cursors: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await listPage(client, cursor);
          pages.push(page.tools.map((t) => t.name));
          cursor = page.nextCursor;
          if (cursor !== undefined) cursors.push(cursor);
          assert.ok(pages.length <= 10, 'pagination must end');
        } while (cursor !== undefined);
        assert.deepEqual(pages, [['tool-01', 'tool-02', 'tool-03'], ['tool-04', 'tool-05', 'tool-06'], ['tool-07']]);
        assert.deepEqual(cursors, ['tool-04', 'tool-07']);
        assert.deepEqual(server.listRequests, [undefined, 'tool-04', 'tool-07']);
        const { tools: all } = await client.listTools();
        assert.equal(all.length, 7, "the SDK's own aggregation sees all 7");
        const result = await client.callTool({ name: 'tool-05', arguments: { text: 'hello' } });
        assert.equal(firstText(result), 'tool-05: hello');
      } finally {
        await client.close();
      }
    });

    it('with repeatCursor answers every page with the same nextCursor', async function () {
      server = await startPaginatedServer({ repeatCursor: true });
      const client = await connect(server.url);
      try {
        const first = await listPage(client);
        const seen: Array<string | undefined> = [];
        let cursor = first.nextCursor;
        for (let i = 0; i < 4; i++) {
          assert.ok(cursor);
          const page = await listPage(client, cursor);
          seen.push(page.nextCursor);
          cursor = page.nextCursor;
        }
        assert.deepEqual(seen, [first.nextCursor, first.nextCursor, first.nextCursor, first.nextCursor]);
        // Why the node cannot lean on the SDK here: its aggregating listTools() stops silently when a
        // page repeats the previous one and returns page 1 only (SDK 2.4 _walkPages), where mcp-list-tools'
        // help promises an error.
        const { tools } = await client.listTools();
        assert.equal(tools.length, 3, 'SDK 2.4 truncates silently on a repeated page');
      } finally {
        await client.close();
      }
    });
  });

  describe('server-everything launcher', function () {
    let everything: EverythingServer | undefined;
    afterEach(async function () {
      await everything?.stop();
      everything = undefined;
    });

    it('serves Streamable HTTP on 127.0.0.1, restarts on the same port (old session gone), stops', async function () {
      everything = await startEverything('streamableHttp');
      assert.equal(everything.url, `http://127.0.0.1:${everything.port}/mcp`);
      const client = newClient();
      const transport = new StreamableHTTPClientTransport(new URL(everything.url));
      await client.connect(transport);
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'echo'));
      assert.equal(firstText(await client.callTool({ name: 'echo', arguments: { message: 'hi' } })), 'Echo: hi');
      const firstPid = everything.pid();

      await everything.restart();
      assert.notEqual(everything.pid(), firstPid);
      await assert.rejects(client.callTool({ name: 'echo', arguments: { message: 'stale' } }));
      await client.close().catch(() => undefined);

      const fresh = newClient();
      await fresh.connect(new StreamableHTTPClientTransport(new URL(everything.url)));
      assert.equal(firstText(await fresh.callTool({ name: 'echo', arguments: { message: 'again' } })), 'Echo: again');
      await fresh.close();

      const pid = everything.pid();
      await everything.stop();
      assert.ok(pid !== undefined && !isAlive(pid));
      assert.equal(everything.pid(), undefined);
    });

    it('serves legacy HTTP+SSE at /sse', async function () {
      everything = await startEverything('sse');
      assert.equal(everything.url, `http://127.0.0.1:${everything.port}/sse`);
      const client = newClient();
      await client.connect(new SSEClientTransport(new URL(everything.url)));
      try {
        const { tools } = await client.listTools();
        assert.ok(tools.some((t) => t.name === 'get-sum'));
      } finally {
        await client.close();
      }
    });

    it('gives a stdio command line that serves the same tools', async function () {
      const client = newClient();
      await client.connect(new StdioClientTransport({ command: everythingStdio.command, args: everythingStdio.args, stderr: 'ignore' }));
      try {
        const { tools } = await client.listTools();
        assert.ok(tools.some((t) => t.name === 'trigger-long-running-operation'));
      } finally {
        await client.close();
      }
    });
  });

  describe('stubborn stdio server', function () {
    let dir: string;
    let pidFile: string;
    beforeEach(function () {
      dir = mkdtempSync(join(tmpdir(), 'stubborn-'));
      pidFile = join(dir, 'pids');
    });
    afterEach(function () {
      killStubbornPids(pidFile);
      rmSync(dir, { recursive: true, force: true });
    });

    it('its grandchild survives a plain SIGTERM to the shell (and ignores SIGTERM itself)', async function () {
      const cmd = stubbornStdioCommand(pidFile);
      const shell = spawn(cmd.command, cmd.args, { env: { ...process.env, ...cmd.env }, stdio: ['pipe', 'ignore', 'ignore'] });
      const pids = await waitForStubbornPids(pidFile);
      assert.equal(pids.shell, shell.pid);
      assert.notEqual(pids.server, pids.shell, 'the shell must stay in between (no exec)');

      const shellExit = new Promise((resolve) => shell.once('exit', resolve));
      shell.kill('SIGTERM');
      await shellExit;
      assert.equal(isAlive(pids.shell), false);
      assert.equal(isAlive(pids.server), true, 'server orphaned, still running');
      assert.equal(isAlive(pids.grandchild), true, 'grandchild orphaned, still running');

      process.kill(pids.grandchild, 'SIGTERM');
      await waitFor('the grandchild to report the ignored SIGTERM', () => readStubbornPids(pidFile).grandchildIgnoredSigterm);
      assert.equal(isAlive(pids.grandchild), true, 'SIGTERM must not end the grandchild');
    });

    it('speaks MCP over stdio: its pid tool matches the pid file, and the bare SDK close() leaks it', async function () {
      const cmd = stubbornStdioCommand(pidFile);
      const client = newClient();
      await client.connect(new StdioClientTransport({ command: cmd.command, args: cmd.args, env: cmd.env, stderr: 'ignore' }));
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        ['pid'],
      );
      const reported = JSON.parse(firstText(await client.callTool({ name: 'pid', arguments: {} })));
      const pids = await waitForStubbornPids(pidFile);
      assert.deepEqual(reported, pids);

      await client.close();
      await waitFor('the shell to be gone', () => !isAlive(pids.shell));
      assert.equal(isAlive(pids.server), true, 'the SDK closes only its direct child: server leaks');
      assert.equal(isAlive(pids.grandchild), true, 'the SDK closes only its direct child: grandchild leaks');
    });
  });
});
