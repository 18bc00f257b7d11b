// One declaration per Node-RED node type of its settings (name, default, config-node type) and credentials:
// the dialog builds its `defaults` and `credentials` from it, the adapter fills what a flow leaves
// out from the same defaults, and test/settings-declared-once.test.ts checks both against the
// dialog's form. Plain data and small functions: the editor bundle includes this file too.
import { expandEnv, type EnvLookup } from './env-expand';

export interface DeclaredSetting {
  /** The default, in the dialog for a new node and in the runtime for a flow saved without it. */
  readonly value: unknown;
  /** A config node type: the editor picks and counts users of that config node. */
  readonly type?: string;
  readonly required?: boolean;
  /** false: set by the dialog's code (a list, a table), not by a form field of the same name. */
  readonly form?: false;
  /**
   * What a flow without this setting means, when that differs from a new node's default: flows saved
   * before the setting existed keep the behaviour they were saved with.
   */
  readonly whenMissing?: unknown;
}

export type SettingsDeclaration = Readonly<Record<string, DeclaredSetting>>;
export type CredentialsDeclaration = Readonly<Record<string, { readonly type: 'password' | 'text' }>>;

/** A node's settings as deployedSettings gives them: every declared name, values still unchecked. */
export type DeployedSettings<D extends SettingsDeclaration> = { [K in keyof D]: unknown };

/** A setting's own check in the dialog, called by the editor with the node as `this`. */
export type SettingCheck = (this: never, value: never) => boolean;

/** The dialog's `defaults`: every declared setting, with the dialog's check where it has one. */
export function dialogDefaults<D extends SettingsDeclaration>(declared: D, checks: Partial<Record<keyof D, SettingCheck>> = {}) {
  const defaults: Record<string, { value: unknown; type?: string; required?: boolean; validate?: SettingCheck }> = {};
  for (const [name, { value, type, required }] of Object.entries(declared)) {
    defaults[name] = { value, ...(type ? { type } : {}), ...(required ? { required } : {}), ...(checks[name] ? { validate: checks[name] } : {}) };
  }
  return defaults;
}

/** A setting a user types as text (not a config node, not a number, a flag or a list): it may hold `${VAR}`. */
export function isTextSetting(d: DeclaredSetting): boolean {
  return typeof d.value === 'string' && !d.type;
}

/**
 * A deployed node's settings: what the flow holds, else the declared default (a flow saved by an
 * older version of this package lacks the settings added since). Object defaults are copied, so a
 * node never shares one with another. Given the node's lookup (nodes/shared/node-env.ts), `${VAR}`
 * and `${VAR:-default}` inside every text setting are expanded: Node-RED itself replaces only a
 * value that is nothing but one `${VAR}`, and users keep addresses and names in tab variables.
 */
export function deployedSettings<D extends SettingsDeclaration>(def: Readonly<Record<string, unknown>>, declared: D, lookup?: EnvLookup): DeployedSettings<D> {
  const settings: Record<string, unknown> = {};
  for (const [name, d] of Object.entries(declared)) {
    const given = def[name];
    const fallback = 'whenMissing' in d ? d.whenMissing : d.value;
    const value = given === undefined || given === null ? (typeof fallback === 'object' && fallback !== null ? structuredClone(fallback) : fallback) : given;
    settings[name] = lookup && typeof value === 'string' && isTextSetting(d) ? expandEnv(value, lookup) : value;
  }
  return settings as DeployedSettings<D>;
}

/** `def` itself (id, type, z, wires …) with every declared setting present, as deployedSettings gives it. */
export function withDeclaredDefaults<T extends Readonly<Record<string, unknown>>, D extends SettingsDeclaration>(
  def: T,
  declared: D,
  lookup?: EnvLookup,
): T & DeployedSettings<D> {
  return { ...def, ...deployedSettings(def, declared, lookup) };
}
