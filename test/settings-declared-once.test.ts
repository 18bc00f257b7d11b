// Every node type's settings and credentials are declared once (src/settings-declaration.ts explains
// the shape): the dialog builds its `defaults` and `credentials` from the declaration, the runtime
// registers the same credentials and fills what a flow leaves out from the same defaults. This spec
// fails when a setting lives in one place only: declared without a form field, a dialog or adapter
// that states defaults or credentials of its own, or a declared setting the runtime never reads.
// mcp-server's declaration is checked more closely below: its runtime's reads are watched, and what
// the dialog sends for Test connection is built from the declaration, so it cannot miss one.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_CREDENTIALS, SERVER_SETTINGS, SERVER_SETTING_NAMES } from '../src/mcp/settings/server-settings-declaration';
import { AGENT_CREDENTIALS, AGENT_SETTINGS } from '../src/gemini/agent-settings-declaration';
import { LISTENER_SETTINGS } from '../src/esp32/listener-settings-declaration';
import { ENDPOINT_CREDENTIALS, ENDPOINT_SETTINGS } from '../src/server/endpoint-settings-declaration';
import { TOOL_IN_SETTINGS } from '../src/server/flows/tool-in-settings-declaration';
import type { CredentialsDeclaration, SettingsDeclaration } from '../src/settings-declaration';
import { LISTENER_CREDENTIALS } from '../nodes/esp32-listener/credentials';
import * as callTool from '../nodes/mcp-call-tool/settings';
import * as listTools from '../nodes/mcp-list-tools/settings';
import * as prompt from '../nodes/mcp-prompt/settings';
import * as resource from '../nodes/mcp-resource/settings';
import * as toolOut from '../nodes/mcp-tool-out/settings';
import * as promptIn from '../nodes/mcp-prompt-in/settings';
import * as promptOut from '../nodes/mcp-prompt-out/settings';
import * as resourceIn from '../nodes/mcp-resource-in/settings';
import * as resourceOut from '../nodes/mcp-resource-out/settings';
import * as esp32In from '../nodes/esp32-mcp-in/settings';
import * as esp32Say from '../nodes/esp32-say/settings';
import * as haAssist from '../nodes/ha-assist/settings';
import { normalizeSettings, type RawServerConfig } from '../src/mcp/settings/settings';

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

interface Declared {
  settings: SettingsDeclaration;
  credentials?: CredentialsDeclaration;
  /** Engine files that parse the settings (beside the adapter folder's own runtime files). */
  parsers?: string[];
}

describe('a setting added later: new nodes get its default, flows saved before it keep their behaviour', () => {
  it('esp32-listener answerOta: on in a new dialog, off for a listener saved without it', async () => {
    const { deployedSettings, dialogDefaults } = await import('../src/settings-declaration');
    assert.equal(dialogDefaults(LISTENER_SETTINGS).answerOta.value, true);
    assert.equal(deployedSettings({}, LISTENER_SETTINGS).answerOta, false);
    assert.equal(deployedSettings({ answerOta: true }, LISTENER_SETTINGS).answerOta, true);
    assert.equal(deployedSettings({}, LISTENER_SETTINGS).path, '/xiaozhi/v1/');
  });
});

const NODES: Record<string, Declared> = {
  'mcp-server': { settings: SERVER_SETTINGS, credentials: SERVER_CREDENTIALS, parsers: ['src/mcp/settings/settings.ts'] },
  'mcp-list-tools': { settings: listTools.SETTINGS },
  'mcp-call-tool': { settings: callTool.SETTINGS },
  'mcp-prompt': { settings: prompt.SETTINGS },
  'mcp-resource': { settings: resource.SETTINGS },
  'mcp-tool-out': { settings: toolOut.SETTINGS },
  'mcp-prompt-in': { settings: promptIn.SETTINGS, parsers: ['src/server/flows/flow-prompts.ts'] },
  'mcp-prompt-out': { settings: promptOut.SETTINGS },
  'mcp-resource-in': { settings: resourceIn.SETTINGS, parsers: ['src/server/flows/flow-resources.ts'] },
  'mcp-resource-out': { settings: resourceOut.SETTINGS },
  'mcp-tool-in': { settings: TOOL_IN_SETTINGS, parsers: ['src/server/flows/flow-tool.ts'] },
  'mcp-endpoint': { settings: ENDPOINT_SETTINGS, credentials: ENDPOINT_CREDENTIALS, parsers: ['src/server/settings.ts'] },
  'gemini-agent': { settings: AGENT_SETTINGS, credentials: AGENT_CREDENTIALS, parsers: ['src/gemini/agent-settings.ts', 'src/gemini/google-tools.ts'] },
  'esp32-listener': {
    settings: LISTENER_SETTINGS,
    credentials: LISTENER_CREDENTIALS,
    parsers: ['src/esp32/listener-settings.ts', 'src/voice/listener-voice.ts'],
  },
  'esp32-mcp-in': { settings: esp32In.SETTINGS },
  'esp32-say': { settings: esp32Say.SETTINGS, credentials: esp32Say.CREDENTIALS },
  'ha-assist': { settings: haAssist.SETTINGS },
};

const ROOT = join(__dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
/** The node folder's runtime files: everything but the dialog's code and its declaration. */
const runtimeFiles = (type: string) =>
  readdirSync(join(ROOT, 'nodes', type))
    .filter((f) => f.endsWith('.ts') && !/^(editor|settings|credentials)\.ts$/.test(f) && !f.endsWith('-editor.ts'))
    .map((f) => `nodes/${type}/${f}`);

describe('every node type: settings and credentials declared once, used by the dialog and the runtime', () => {
  it('covers every node type in package.json', () => {
    const types = Object.keys(JSON.parse(read('package.json'))['node-red'].nodes).sort();
    assert.deepEqual(Object.keys(NODES).sort(), types);
  });

  for (const [type, declared] of Object.entries(NODES)) {
    describe(type, () => {
      const editor = read(`nodes/${type}/editor.ts`);
      const form = read(`nodes/${type}/editor.html`);
      const runtime = [...runtimeFiles(type), ...(declared.parsers ?? [])].map(read).join('\n');

      it('the dialog states no defaults or credentials of its own', () => {
        assert.doesNotMatch(editor, /\bdefaults:\s*\{/, 'defaults come from the declaration');
        assert.doesNotMatch(editor, /\bcredentials:\s*\{/, 'credentials come from the declaration');
        assert.doesNotMatch(editor, /\{\s*type:\s*'password'\s*\}/);
      });

      it('the form has a field for every setting (except those the dialog keeps by code) and every credential', () => {
        const fields = [
          ...Object.entries(declared.settings)
            .filter(([, d]) => d.form !== false)
            .map(([n]) => n),
          ...Object.keys(declared.credentials ?? {}),
        ];
        const missing = fields.filter((n) => !form.includes(`id="node-input-${n}"`) && !form.includes(`id="node-config-input-${n}"`));
        assert.deepEqual(missing, []);
      });

      it('the runtime registers the declared credentials and fills defaults from the declaration', () => {
        const adapter = read(`nodes/${type}/index.ts`);
        assert.doesNotMatch(adapter, /type:\s*'password'/, 'credentials come from the declaration');
        if (!['mcp-server', 'mcp-tool-out', 'mcp-prompt-out', 'mcp-resource-out'].includes(type))
          assert.match(adapter, /\b(deployedSettings|withDeclaredDefaults)\(/, 'defaults come from the declaration');
      });

      it('the runtime reads every declared setting (the label settings are read by Node-RED itself)', () => {
        const unread = Object.keys(declared.settings).filter((n) => !['name', 'caption'].includes(n) && !new RegExp(`\\.${n}\\b|'${n}'`).test(runtime));
        assert.deepEqual(unread, []);
      });
    });
  }
});
