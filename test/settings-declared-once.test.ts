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
import { deployedSettings, isTextSetting, withDeclaredDefaults, type CredentialsDeclaration, type SettingsDeclaration } from '../src/settings-declaration';
import { recordLookup, type EnvLookup } from '../src/env-expand';
import { endpointSettings } from '../src/server/settings';
import { flowToolSettings } from '../src/server/flows/flow-tool';
import { flowPromptSettings } from '../src/server/flows/flow-prompts';
import { flowResourceSettings } from '../src/server/flows/flow-resources';
import { parseAgentSettings } from '../src/gemini/agent-settings';
import { parseListenerSettings, type RawListenerConfig } from '../src/esp32/listener-settings';
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
import * as skill from '../nodes/mcp-skill/settings';
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
  /**
   * What the deployed node makes of its flow JSON, as its adapter reads it (with the node's own
   * `${VAR}` lookup, which in Node-RED is nodes/shared/node-env.ts: node, group, tab, global, process).
   */
  reads: (def: Record<string, unknown>, env: EnvLookup) => unknown;
  /** A flow JSON the node accepts, so a value under test is not hidden behind another setting's error. */
  base?: Record<string, unknown>;
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
  'mcp-server': {
    settings: SERVER_SETTINGS,
    credentials: SERVER_CREDENTIALS,
    parsers: ['src/mcp/settings/settings.ts'],
    reads: (def, env) => normalizeSettings({ id: 's', ...def } as RawServerConfig, undefined, env),
    base: { transport: 'http', url: 'http://127.0.0.1:1/mcp', headers: '{"x":"1"}', args: '["a"]', env: '{"A":"1"}' },
  },
  'mcp-list-tools': { settings: listTools.SETTINGS, reads: (def, env) => deployedSettings(def, listTools.SETTINGS, env) },
  'mcp-call-tool': { settings: callTool.SETTINGS, reads: (def, env) => deployedSettings(def, callTool.SETTINGS, env) },
  'mcp-prompt': { settings: prompt.SETTINGS, reads: (def, env) => deployedSettings(def, prompt.SETTINGS, env) },
  'mcp-resource': { settings: resource.SETTINGS, reads: (def, env) => deployedSettings(def, resource.SETTINGS, env) },
  'mcp-tool-out': { settings: toolOut.SETTINGS, reads: (def, env) => deployedSettings(def, toolOut.SETTINGS, env) },
  'mcp-prompt-in': {
    settings: promptIn.SETTINGS,
    parsers: ['src/server/flows/flow-prompts.ts'],
    reads: (def, env) => flowPromptSettings(withDeclaredDefaults(def, promptIn.SETTINGS, env), promptIn.SETTINGS.timeout.value),
    base: { name: 'p' },
  },
  'mcp-prompt-out': { settings: promptOut.SETTINGS, reads: (def, env) => deployedSettings(def, promptOut.SETTINGS, env) },
  'mcp-resource-in': {
    settings: resourceIn.SETTINGS,
    parsers: ['src/server/flows/flow-resources.ts'],
    reads: (def, env) => flowResourceSettings(withDeclaredDefaults(def, resourceIn.SETTINGS, env), resourceIn.SETTINGS.timeout.value),
    base: { uri: 'file:///r.txt' },
  },
  'mcp-resource-out': { settings: resourceOut.SETTINGS, reads: (def, env) => deployedSettings(def, resourceOut.SETTINGS, env) },
  'mcp-skill': { settings: skill.SETTINGS, parsers: ['src/server/flows/flow-skills.ts'], reads: (def, env) => deployedSettings(def, skill.SETTINGS, env) },
  'mcp-tool-in': {
    settings: TOOL_IN_SETTINGS,
    parsers: ['src/server/flows/flow-tool.ts'],
    reads: (def, env) => flowToolSettings(withDeclaredDefaults(def, TOOL_IN_SETTINGS, env)),
    base: { name: 't' },
  },
  'mcp-endpoint': {
    settings: ENDPOINT_SETTINGS,
    credentials: ENDPOINT_CREDENTIALS,
    parsers: ['src/server/settings.ts'],
    reads: (def, env) => endpointSettings(withDeclaredDefaults(def, ENDPOINT_SETTINGS, env)),
  },
  'gemini-agent': {
    settings: AGENT_SETTINGS,
    credentials: AGENT_CREDENTIALS,
    parsers: ['src/gemini/agent-settings.ts', 'src/gemini/google-tools.ts'],
    // The adapter keeps the expanded flow JSON too: the instruction, approval and tools are read from it.
    reads: (def, env) => {
      const deployed = withDeclaredDefaults(def, AGENT_SETTINGS, env);
      return { deployed, parsed: parseAgentSettings(deployed, env) };
    },
  },
  'esp32-listener': {
    settings: LISTENER_SETTINGS,
    credentials: LISTENER_CREDENTIALS,
    parsers: ['src/esp32/listener-settings.ts', 'src/voice/listener-voice.ts'],
    reads: (def, env) => {
      const deployed = withDeclaredDefaults(def, LISTENER_SETTINGS, env);
      return { deployed, parsed: parseListenerSettings(deployed as RawListenerConfig, {}, env) };
    },
  },
  'esp32-mcp-in': { settings: esp32In.SETTINGS, reads: (def, env) => deployedSettings(def, esp32In.SETTINGS, env) },
  'esp32-say': { settings: esp32Say.SETTINGS, credentials: esp32Say.CREDENTIALS, reads: (def, env) => deployedSettings(def, esp32Say.SETTINGS, env) },
  'ha-assist': { settings: haAssist.SETTINGS, reads: (def, env) => deployedSettings(def, haAssist.SETTINGS, env) },
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

      it('every text setting may come from a variable: "${VAR}" inside it reads as the value itself would', () => {
        const texts = Object.entries(declared.settings).filter(([, d]) => isTextSetting(d));
        assert.ok(texts.length > 0 || type.endsWith('-out'), 'the node has text settings');
        const outcome = (def: Record<string, unknown>, env: EnvLookup) => {
          try {
            // compared as JSON: a parser may hand back functions (a compiled schema check)
            return { value: JSON.parse(JSON.stringify(declared.reads({ ...declared.base, ...def }, env)) ?? 'null') };
          } catch (err) {
            return { error: (err as Error).message };
          }
        };
        const none = recordLookup({});
        for (const [name, d] of texts) {
          // A value the setting accepts: the base flow's, else the default, else a plain word.
          const base = declared.base?.[name];
          const value = typeof base === 'string' && base ? base : String(d.value) || `value-of-${name}`;
          const variable = `TAB_${name.toUpperCase()}`;
          // A JSON setting (headers, args, env of mcp-server) takes variables inside its strings.
          const json = /^[[{]/.test(value) ? value.match(/"([^"]+)"(?=\s*[,}\]])/) : null;
          const [written, meant] = json ? [value.replace(json[0], `"\${${variable}}"`), json[1]] : [`\${${variable}}`, value];
          const fromVariable = outcome({ [name]: written }, recordLookup({ [variable]: meant }));
          assert.deepEqual(fromVariable, outcome({ [name]: value }, none), `${type}.${name} = '${written}'`);
          // and beside other text, where Node-RED itself leaves it alone
          const beside = json ? written : `\${${variable}}${value}`;
          const inside = outcome({ [name]: beside }, recordLookup({ [variable]: json ? meant : '' }));
          assert.deepEqual(inside, outcome({ [name]: value }, none), `${type}.${name} = '${beside}'`);
          assert.doesNotMatch(JSON.stringify(fromVariable), new RegExp(`\\$\\{${variable}`), `${type}.${name}: the variable is left unexpanded`);
        }
      });

      it("the adapter hands its settings the node's own variable lookup", () => {
        const adapter = runtimeFiles(type).map(read).join('\n');
        if (type === 'mcp-server') return assert.match(adapter, /normalizeSettings\(raw, [^)]*nodeEnvLookup\(RED, node\)\)/);
        if (type.endsWith('-out')) return; // a label only, read by Node-RED itself
        assert.match(adapter, /\b(deployedSettings|withDeclaredDefaults)\(\w+, \w+, (env|nodeEnvLookup\(RED, (node|this)\))\)/);
      });

      it('the runtime reads every declared setting (the label settings are read by Node-RED itself)', () => {
        const unread = Object.keys(declared.settings).filter((n) => !['name', 'caption'].includes(n) && !new RegExp(`\\.${n}\\b|'${n}'`).test(runtime));
        assert.deepEqual(unread, []);
      });
    });
  }
});
