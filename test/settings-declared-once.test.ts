// mcp-server's settings are declared once (src/mcp/server-settings-declaration.ts). This spec fails
// when a setting exists in one place only: declared but not read by the runtime, read by the runtime
// but not declared, or declared without a field in the dialog's form. What the dialog sends for Test
// connection is built from the declaration, so it cannot miss one (checked too).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_CREDENTIALS, SERVER_SETTING_NAMES } from '../src/mcp/server-settings-declaration';
import { normalizeSettings, type RawServerConfig } from '../src/mcp/settings';

/** Every key normalizeSettings reads from a raw config, for one shape of server. */
function keysRead(raw: RawServerConfig): Set<string> {
  const read = new Set<string>();
  const watched = new Proxy(raw, {
    get(target, key) {
      if (typeof key === 'string') read.add(key);
      return (target as Record<string, unknown>)[key as string];
    },
  });
  normalizeSettings(watched, undefined, () => undefined);
  return read;
}

describe('mcp-server settings: declared once, read by the runtime and the dialog', () => {
  const shapes: RawServerConfig[] = [
    { id: 'a', transport: 'http', url: 'http://127.0.0.1:1/mcp', headers: '{"x":"1"}', auth: 'token', timeout: 5, protocolVersion: 'auto', name: 'n' },
    { id: 'b', transport: 'stdio', command: 'node', args: '["x"]', cwd: '/tmp', env: '{"A":"1"}', secrets: '{"env":{"K":"v"}}' },
    { id: 'c', transport: 'esp32', listener: 'l1', deviceId: 'aa:bb:cc:dd:ee:ff' },
  ];
  const read = new Set(shapes.flatMap((s) => [...keysRead(s)]));

  it('the runtime reads every declared setting', () => {
    assert.deepEqual(
      SERVER_SETTING_NAMES.filter((k) => !read.has(k)),
      [],
    );
  });

  it('the runtime reads nothing that is not declared (besides the node id and the secrets credential)', () => {
    const declared = new Set<string>([...SERVER_SETTING_NAMES, ...Object.keys(SERVER_CREDENTIALS), 'id']);
    assert.deepEqual(
      [...read].filter((k) => !declared.has(k)),
      [],
    );
  });

  it("the dialog's form has a field for every setting and credential", () => {
    const form = readFileSync(join(__dirname, '..', 'nodes', 'mcp-server', 'editor.html'), 'utf8');
    const missing = [...SERVER_SETTING_NAMES, ...Object.keys(SERVER_CREDENTIALS)].filter((k) => !form.includes(`id="node-config-input-${k}"`));
    assert.deepEqual(missing, []);
  });

  it('what Test connection sends is every declared setting (nodes/shared/editor/server-settings.ts)', async () => {
    const { settingsOf } = await import('../nodes/shared/editor/server-settings');
    const cfg = Object.fromEntries(SERVER_SETTING_NAMES.map((k) => [k, `value of ${k}`]));
    const sent = settingsOf({ id: 'x', ...cfg, unrelated: 1, credentials: { token: 't' } });
    assert.deepEqual(Object.keys(sent.config).sort(), [...SERVER_SETTING_NAMES].sort());
    assert.equal(sent.token, 't');
  });
});
