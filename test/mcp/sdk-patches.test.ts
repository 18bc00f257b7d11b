// The fixes the build applies to the bundled MCP SDK (scripts/sdk-patches.mjs) must change cost,
// never behaviour. Here each patch is checked against the SDK installed in node_modules: its text is
// found as often as the build expects, and the patched initialize check answers exactly as the
// SDK's own does, for the handshake and for everything else that passes through it.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
      if (patch.name.startsWith('initialize')) assert.deepEqual(hits.map((h) => /[\\/](client|server)[\\/]/.exec(h.f)?.[1]).sort(), ['client', 'server']);
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
});
