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

describe('SDK patches applied by the build', () => {
  let patches: SdkPatch[];
  before(async () => {
    ({ SDK_PATCHES: patches } = await import('../../scripts/sdk-patches.mjs'));
  });

  it('each finds its text in the installed SDK as often as the build expects, in the client and the server', () => {
    for (const patch of patches) {
      const hits = sdkFiles()
        .filter((f) => patch.files.test(f))
        .map((f) => ({ f, n: readFileSync(f, 'utf8').split(patch.find).length - 1 }))
        .filter((h) => h.n > 0);
      assert.ok(hits.length > 0, `${patch.name}: not found in any SDK file`);
      for (const h of hits) assert.equal(h.n, patch.count, `${patch.name} in ${h.f}`);
      assert.deepEqual(hits.map((h) => /[\\/](client|server)[\\/]/.exec(h.f)?.[1]).sort(), ['client', 'server'], patch.name);
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
    let dir: string;
    let patched: ClientModule;
    before(async () => {
      const { sdkPatchPlugin } = await import('../../scripts/sdk-patches.mjs');
      dir = mkdtempSync(join(tmpdir(), 'sdk-patched-'));
      const applied = new Map<string, number>();
      await esbuild.build({
        entryPoints: [require.resolve('@modelcontextprotocol/client')],
        outfile: join(dir, 'client.cjs'),
        bundle: true,
        platform: 'node',
        format: 'cjs',
        logLevel: 'warning',
        plugins: [sdkPatchPlugin(applied) as esbuild.Plugin],
      });
      assert.ok(
        [...applied.keys()].some((k) => k.startsWith('connection-closed')),
        'the patch was applied to the bundle',
      );
      patched = require(join(dir, 'client.cjs'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

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
});
