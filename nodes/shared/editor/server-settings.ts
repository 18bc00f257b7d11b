// What an mcp-server config node in the editor (saved or not) would deploy with, as the admin
// routes POST mcp-server/test and POST mcp-server/tools expect it: every declared setting, plus a
// token or secret entries typed before a deploy. The names come from the one declaration.
import { PASSWORD_PLACEHOLDER } from '../secret-destinations';
import { SERVER_SETTING_NAMES, type DialogServer } from '../../../src/mcp/settings/server-settings-declaration';
import { parseObject } from './requests';

export type { DialogServer };

/** An mcp-server config node as the editor holds it: its settings, and credentials typed in the dialog. */
export type EditorServer = Readonly<Record<string, unknown>> & { id: string; credentials?: { token?: unknown; secrets?: unknown } };

export function settingsOf(cfg: EditorServer): DialogServer {
  const config: Record<string, unknown> = {};
  for (const k of SERVER_SETTING_NAMES) if (cfg[k] !== undefined) config[k] = cfg[k];
  const typed = cfg.credentials && cfg.credentials.secrets;
  return {
    id: cfg.id,
    z: typeof cfg.z === 'string' && cfg.z ? cfg.z : undefined,
    config,
    token: (cfg.credentials && typeof cfg.credentials.token === 'string' && cfg.credentials.token) || undefined,
    secrets: typed && typed !== PASSWORD_PLACEHOLDER ? parseObject(typed) : undefined,
  };
}
