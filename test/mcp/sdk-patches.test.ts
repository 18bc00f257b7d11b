// The fixes the build applies to the bundled MCP SDK (scripts/sdk-patches.mjs) must change cost,
// never behaviour. Here each patch is checked against the SDK installed in node_modules: its text is
// found as often as the build expects, and the patched initialize check answers exactly as the
// SDK's own does, for the handshake and for everything else that passes through it.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import * as esbuild from 'esbuild';
import type { SdkPatch } from '../../scripts/sdk-patches.mjs';

const sdkFiles = (): string[] =>
  ['client', 'server'].flatMap((pkg) => {
    const dist = dirname(require.resolve(`@modelcontextprotocol/${pkg}`)); // …/dist/index.cjs
    return readdirSync(dist).map((f) => join(dist, f));
  });

/** The SDK package bundled into `dir` with the build's own patch plugin, loaded; `patch` must have applied. */
async function bundlePatched(pkg: string, dir: string, patch: string): Promise<unknown> {
  const { sdkPatchPlugin } = await import('../../scripts/sdk-patches.mjs');
  const applied = new Map<string, number>();
  const outfile = join(dir, `${pkg.split('/').pop()}.cjs`);
  await esbuild.build({
    entryPoints: [require.resolve(pkg)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'warning',
    plugins: [sdkPatchPlugin(applied) as esbuild.Plugin],
  });
  assert.ok(
    [...applied.keys()].some((k) => k.startsWith(patch)),
    `${patch}: applied to the bundle`,
  );
  return require(outfile);
}

/** In the current suite: the SDK package bundled with the patches before its tests, removed after. */
function usePatchedBundle<T>(pkg: string, patch: string, use: (sdk: T) => void): void {
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sdk-patched-'));
    use((await bundlePatched(pkg, dir, patch)) as T);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
}

describe('SDK patches applied by the build', () => {
  let patches: SdkPatch[];
  let expectedCount: (patch: SdkPatch, file: string) => number;
  before(async () => {
    ({ SDK_PATCHES: patches, expectedCount } = await import('../../scripts/sdk-patches.mjs'));
  });

  it('each finds its text in the installed SDK as often as the build expects, in the client and the server', () => {
    for (const patch of patches) {
      const hits = sdkFiles()
        .filter((f) => patch.files.test(f))
        .map((f) => ({ f, n: readFileSync(f, 'utf8').split(patch.find).length - 1 }))
        .filter((h) => h.n > 0);
      assert.ok(hits.length > 0, `${patch.name}: not found in any SDK file`);
      for (const h of hits) assert.equal(h.n, expectedCount(patch, h.f), `${patch.name} in ${h.f}`);
      // Each patch is meant for the packages its file pattern names.
      const meant = ['client', 'server'].filter((pkg) => patch.files.source.includes(pkg));
      assert.deepEqual([...new Set(hits.map((h) => /[\\/](client|server)[\\/]/.exec(h.f)?.[1]))].sort(), meant, patch.name);
      // And each says which upstream change retires it.
      assert.ok(patch.exit.length > 20, `${patch.name}: no exit`);
    }
  });

  it('the initialize check answers as the SDK does for every kind of message', () => {
    const patch = patches.find((p) => p.name.startsWith('initialize'))!;
    const core = require('@modelcontextprotocol/core/internal');
    const guardFrom = (source: string) =>
      new Function('_modelcontextprotocol_core_internal', `${source}\nreturn isInitializeRequest;`)(core) as (v: unknown) => boolean;
    const original = guardFrom(patch.find);
    const patched = guardFrom(patch.replace);
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    };
    const messages: unknown[] = [
      initialize,
      { ...initialize, id: 'a' },
      { ...initialize, params: { protocolVersion: '2025-11-25' } }, // no clientInfo: not a valid initialize
      { ...initialize, params: undefined },
      { ...initialize, method: 'Initialize' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 't', arguments: {} } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 3, result: { tools: [] } },
      { method: 'initialize', params: initialize.params }, // no jsonrpc envelope: the schema is the request's own
      [initialize],
      null,
      undefined,
      'initialize',
      42,
    ];
    for (const m of messages) assert.equal(patched(m), original(m), JSON.stringify(m));
    // The cases above cover both answers, so the comparison cannot pass by always saying no.
    assert.ok(messages.some((m) => original(m)) && messages.some((m) => !original(m)));
  });

  describe('a closing connection, with the client bundled and patched as the build does', function () {
    this.timeout(30_000);
    type ClientModule = typeof import('@modelcontextprotocol/client');
    let patched: ClientModule;
    usePatchedBundle<ClientModule>('@modelcontextprotocol/client', 'connection-closed', (sdk) => (patched = sdk));

    // A server that completes the handshake and never answers anything else, then drops the connection.
    async function closeWhileWaiting(sdk: ClientModule, waiting: boolean): Promise<unknown> {
      const [clientSide, serverSide] = sdk.InMemoryTransport.createLinkedPair();
      serverSide.onmessage = (m: any) => {
        if (m.method === 'initialize')
          void serverSide.send({
            jsonrpc: '2.0',
            id: m.id,
            result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'silent', version: '1' } },
          });
      };
      await serverSide.start();
      const client = new sdk.Client({ name: 'c', version: '1' });
      await client.connect(clientSide);
      const call = waiting
        ? client.callTool({ name: 't', arguments: {} }).then(
            () => 'answered',
            (err: unknown) => err,
          )
        : Promise.resolve('nothing waited');
      await new Promise((r) => setImmediate(r));
      await serverSide.close();
      return call;
    }

    it('fails a waiting call with the SDK\'s own "Connection closed", as the unpatched SDK does', async () => {
      const sdk: ClientModule = require('@modelcontextprotocol/client');
      const [mine, theirs] = [await closeWhileWaiting(patched, true), await closeWhileWaiting(sdk, true)] as Array<{
        code?: unknown;
        message?: string;
        name?: string;
      }>;
      assert.equal(theirs.code, sdk.SdkErrorCode.ConnectionClosed);
      assert.deepEqual({ code: mine.code, message: mine.message, name: mine.name }, { code: theirs.code, message: theirs.message, name: theirs.name });
    });

    it('closes quietly when nothing waits', async () => {
      assert.equal(await closeWhileWaiting(patched, false), 'nothing waited');
    });
  });

  describe('the 2026-07-28 server, bundled and patched as the build does', function () {
    this.timeout(30_000);
    type ServerModule = typeof import('@modelcontextprotocol/server');
    let patched: ServerModule;
    usePatchedBundle<ServerModule>('@modelcontextprotocol/server', 'JSON answers', (sdk) => (patched = sdk));

    // One tools/call (and a call the server refuses) through the real client, on the 2026-07-28
    // revision, against a handler made from `sdk`; each answer as the client's fetch received it.
    async function exchange(sdk: ServerModule) {
      const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
      const handler = sdk.createMcpHandler(() => {
        const server = new sdk.Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
        server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' as const } }] }));
        server.setRequestHandler('tools/call', (req, ctx) => {
          signals.push(ctx.mcpReq.signal);
          if (req.params.name !== 'echo') throw new sdk.ProtocolError(sdk.ProtocolErrorCode.InvalidParams, `no tool ${req.params.name}`);
          return { content: [{ type: 'text', text: `grüße ${JSON.stringify(req.params.arguments)}` }] };
        });
        return server;
      });
      const answers: Array<{ unread: boolean; status: number; type: string | null; text: string }> = [];
      const signals: AbortSignal[] = [];
      const { JsonAnswer } = await import('../../src/server/http/json-answer');
      const fetch = async (url: string | URL, init?: RequestInit) => {
        const response = await handler.fetch(new Request(url, init));
        const unread = JsonAnswer.unread(response) !== undefined;
        answers.push({ unread, status: response.status, type: response.headers.get('content-type'), text: await response.clone().text() });
        return response;
      };
      const client = new Client({ name: 'c', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } } as any);
      await client.connect(new StreamableHTTPClientTransport(new URL('http://sdk-patch.invalid/mcp'), { fetch } as any));
      const result = await client.callTool({ name: 'echo', arguments: { a: 1 } });
      const refused = await client.callTool({ name: 'nope', arguments: {} }).then(
        () => 'answered',
        (err: Error) => err.message,
      );
      // No prompts here: the server refuses the method itself, answered with an HTTP status of its own.
      const unknown = await client.request({ method: 'prompts/list', params: {} } as any).then(
        () => 'answered',
        (err: Error) => err.message,
      );
      await client.close();
      await handler.close();
      await new Promise((r) => setImmediate(r)); // past the per-request connection's close
      return { result, refused, unknown, answers, signals };
    }

    it('answers exactly as the unpatched server does, read by the real client', async () => {
      const mine = await exchange(patched);
      const theirs = await exchange(require('@modelcontextprotocol/server'));
      assert.deepEqual(mine.result, theirs.result);
      assert.equal(mine.refused, theirs.refused);
      assert.deepEqual(
        mine.answers.map(({ status, type, text }) => ({ status, type, text })),
        theirs.answers.map(({ status, type, text }) => ({ status, type, text })),
      );
      assert.match(mine.refused, /no tool nope/);
      assert.equal(mine.unknown, theirs.unknown);
      assert.ok(
        mine.answers.some((a) => a.status === 404 && /"error"/.test(a.text)),
        'the method refused with 404',
      );
      assert.ok(mine.answers.some((a) => /"result"/.test(a.text)) && mine.answers.some((a) => /"error"/.test(a.text)), 'a result and a refusal');
    });

    it('makes those answers JsonAnswers, which the unpatched server does not', async () => {
      const mine = await exchange(patched);
      const theirs = await exchange(require('@modelcontextprotocol/server'));
      const json = (a: { type: string | null }) => a.type === 'application/json';
      assert.ok(mine.answers.filter(json).length >= 2, JSON.stringify(mine.answers));
      assert.ok(
        mine.answers.filter(json).every((a) => a.unread),
        JSON.stringify(mine.answers),
      );
      assert.ok(theirs.answers.every((a) => !a.unread));
    });

    it('leaves a handler that answered alone, where the unpatched server aborts it with "Connection closed" afterwards', async () => {
      const mine = await exchange(patched);
      const theirs = await exchange(require('@modelcontextprotocol/server'));
      assert.equal(mine.signals.length, 2); // the result and the in-band error
      assert.deepEqual(
        mine.signals.map((s) => s.aborted),
        [false, false],
      );
      assert.deepEqual(
        theirs.signals.map((s) => (s.reason as { message?: string } | undefined)?.message),
        ['Connection closed', 'Connection closed'],
      );
    });

    it('still aborts a handler that is running when its connection closes', async () => {
      for (const sdk of [patched, require('@modelcontextprotocol/server') as ServerModule]) {
        let running!: AbortSignal;
        let started!: () => void;
        const isRunning = new Promise<void>((resolve) => (started = resolve));
        const handler = sdk.createMcpHandler(() => {
          const server = new sdk.Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
          server.setRequestHandler('tools/call', (_req, ctx) => {
            running = ctx.mcpReq.signal;
            started();
            return new Promise(() => undefined); // never answers
          });
          return server;
        });
        const client = new AbortController();
        const call = {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'wait',
            arguments: {},
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        };
        const answer = handler
          .fetch(
            new Request('http://sdk-patch.invalid/mcp', {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                accept: 'application/json, text/event-stream',
                'mcp-protocol-version': '2026-07-28',
                'mcp-method': 'tools/call',
                'mcp-name': 'wait',
              },
              body: JSON.stringify(call),
              signal: client.signal,
            }),
          )
          .catch((err: Error) => err);
        await isRunning;
        client.abort(new Error('client left'));
        await answer;
        await new Promise((r) => setImmediate(r));
        assert.equal(running.aborted, true);
        assert.equal((running.reason as { code?: unknown }).code, sdk.SdkErrorCode.ConnectionClosed);
        await handler.close();
      }
    });
  });
});
