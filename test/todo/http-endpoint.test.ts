// What the Streamable HTTP endpoint does besides MCP itself: one path (/mcp), and, bound to
// loopback, refusing requests whose Host or Origin is not local (DNS-rebinding protection). Also
// proves the compiled server that `npm run build` produces (dist/) is the one that starts.
import { strict as assert } from 'node:assert';
import { skipBecause } from '../helpers/skip';
import { existsSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { startTodoServer, TODO_MAIN_DIST, type RunningTodoServer, emptyTodoFolder } from './todo-server-process';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

function post(url: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(INITIALIZE);
  });
}

describe('todo server: Streamable HTTP endpoint', function () {
  this.timeout(180000);
  let dataDir: string;
  let server: RunningTodoServer;
  before(async () => {
    dataDir = emptyTodoFolder('todo-http-');
    server = await startTodoServer('http', { TODO_DATA_DIR: dataDir });
  });
  after(async () => {
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves MCP at /mcp on 127.0.0.1 and nothing elsewhere', async () => {
    assert.match(server.url!, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const port = new URL(server.url!).port;
    const served = await post(server.url!, '/mcp', { host: `127.0.0.1:${port}` });
    assert.equal(served.status, 200, served.body);
    assert.match(served.body, /"serverInfo":\{"name":"todo-server"/);
    const elsewhere = await post(server.url!, '/other', { host: `127.0.0.1:${port}` });
    assert.equal(elsewhere.status, 404);
  });

  it('refuses a foreign Host or Origin header (DNS rebinding)', async () => {
    const port = new URL(server.url!).port;
    const foreignHost = await post(server.url!, '/mcp', { host: `evil.example:${port}` });
    assert.equal(foreignHost.status, 403, foreignHost.body);
    const foreignOrigin = await post(server.url!, '/mcp', { host: `localhost:${port}`, origin: 'http://evil.example' });
    assert.equal(foreignOrigin.status, 403, foreignOrigin.body);
    const localOrigin = await post(server.url!, '/mcp', { host: `localhost:${port}`, origin: `http://localhost:${port}` });
    assert.equal(localOrigin.status, 200, localOrigin.body);
  });
});

describe('todo server: compiled entry point (dist/)', function () {
  this.timeout(180000);

  it('starts from dist/servers/todo/main.js and lists the four tools', async function () {
    if (!existsSync(TODO_MAIN_DIST)) skipBecause(this, 'the compiled todo server', `${TODO_MAIN_DIST} does not exist (npm test builds it; run npm run build)`);
    const dataDir = emptyTodoFolder('todo-dist-');
    const server = await startTodoServer('stdio', { TODO_DATA_DIR: dataDir }, { entry: TODO_MAIN_DIST });
    try {
      const { tools } = await server.client.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        ['create_todo', 'list_todos', 'update_todo', 'delete_todo'],
      );
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
