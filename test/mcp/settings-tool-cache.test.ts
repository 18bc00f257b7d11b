// The cache behind POST /mcp-server/tools (undeployed servers): same settings within the time
// limit share one listing, expired or different settings list again, failures are not kept.
import assert from 'node:assert/strict';
import { SettingsToolCache } from '../../src/mcp/settings/settings-tool-cache';
import type { ListToolsResult } from '../../src/mcp/call/tool-provider';

const list = (name: string): ListToolsResult => ({
  tools: [{ name, inputSchema: { type: 'object' } }],
  pages: 1,
  server: { id: 's', name: 's' } as ListToolsResult['server'],
});

describe('SettingsToolCache', () => {
  let now = 0;
  let fetches = 0;
  const fetch =
    (name = 'a') =>
    () => (fetches++, Promise.resolve(list(name)));
  beforeEach(() => {
    now = 0;
    fetches = 0;
  });

  it('answers the same settings (in any key order) from one listing until the time limit', async () => {
    const cache = new SettingsToolCache(30_000, () => now);
    await cache.get({ transport: 'stdio', command: 'x', env: { A: '1', B: '2' } }, fetch());
    now = 29_999;
    await cache.get({ env: { B: '2', A: '1' }, command: 'x', transport: 'stdio' }, fetch());
    assert.equal(fetches, 1);
    now = 30_000;
    await cache.get({ transport: 'stdio', command: 'x', env: { A: '1', B: '2' } }, fetch());
    assert.equal(fetches, 2);
  });

  it('lists again for other settings, a changed token included', async () => {
    const cache = new SettingsToolCache(30_000, () => now);
    await cache.get({ url: 'http://h/mcp', token: 'one' }, fetch());
    await cache.get({ url: 'http://h/mcp', token: 'two' }, fetch());
    assert.equal(fetches, 2);
  });

  it('does not keep a failed listing', async () => {
    const cache = new SettingsToolCache(30_000, () => now);
    await assert.rejects(cache.get({ url: 'u' }, () => (fetches++, Promise.reject(new Error('down')))));
    const again = await cache.get({ url: 'u' }, fetch('b'));
    assert.equal(again.tools[0].name, 'b');
    assert.equal(fetches, 2);
  });
});
