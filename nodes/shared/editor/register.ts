// RED.nodes.registerType for our dialogs, typed from the node's settings declaration: the dialog
// passes its declaration (`settings`, and `credentials` where it has them) instead of `defaults`, and
// every callback the editor calls with the node as `this` (label, oneditprepare, oneditsave …) sees
// that node's settings by name with the types a dialog holds them in.
import type editorClient from '@node-red/editor-client';
import { dialogDefaults, type CredentialsDeclaration, type SettingCheck, type SettingsDeclaration } from '../../../src/settings-declaration';
import { addSharedStyles } from './shared-styles';

/**
 * A declared default's type as the dialog holds the setting: literal defaults widen ('websocket' is
 * any string), and a number may come back from its form field as text ("30", or "${TIMEOUT}").
 */
export type DialogValue<V> = V extends string
  ? string
  : V extends boolean
    ? boolean
    : V extends number
      ? number | string
      : V extends readonly (infer E)[]
        ? DialogValue<E>[]
        : V extends object
          ? { -readonly [K in keyof V]: DialogValue<V[K]> }
          : V;

/** The settings of a node the dialog edits, by name. */
export type DialogSettings<D extends SettingsDeclaration> = { -readonly [K in keyof D]: DialogValue<D[K]['value']> };

/**
 * The node the editor hands a dialog's callbacks as `this`: its settings, what the editor adds (id,
 * `_` for the node's strings …), its credentials while the dialog is open, and `Own`: what the
 * dialog keeps on the node between oneditprepare and oneditsave.
 */
export type DialogNode<D extends SettingsDeclaration, Own = object> = editorClient.NodeInstance<DialogSettings<D>> & {
  credentials?: Record<string, string | boolean | undefined>;
} & Partial<Own>;

/** The node's strings: `this._('mcp-call-tool.editor.pick', { count })`. */
export type DialogText = editorClient.NodeInstance['_'];

type Callback<D extends SettingsDeclaration, Own, R = void> = (this: DialogNode<D, Own>) => R;

export interface DialogDefinition<D extends SettingsDeclaration, Own = object> {
  category: string;
  color?: string;
  /** The node's settings declaration: the dialog's `defaults` are built from it. */
  settings: D;
  /** Checks of single settings in the dialog (a red field when one fails). */
  checks?: Partial<Record<keyof D, SettingCheck>>;
  credentials?: CredentialsDeclaration;
  inputs?: 0 | 1;
  outputs?: number;
  icon?: string;
  align?: 'left' | 'right';
  paletteLabel?: string;
  label: Callback<D, Own, string>;
  labelStyle?: Callback<D, Own, string>;
  outputLabels?: (this: DialogNode<D, Own>, index: number) => string;
  oneditprepare?: Callback<D, Own>;
  oneditsave?: Callback<D, Own>;
  oneditcancel?: Callback<D, Own>;
}

export function registerDialog<D extends SettingsDeclaration, Own = object>(type: string, definition: DialogDefinition<D, Own>): void {
  const { settings, checks, ...rest } = definition;
  // The editor's own typings key `defaults` by literal types; ours are built from the declaration,
  // so the one conversion to its shape is here.
  const nodeDef = { ...rest, defaults: dialogDefaults(settings, checks) } as unknown as editorClient.NodeDef<editorClient.NodeProperties>;
  addSharedStyles();
  RED.nodes.registerType(type, nodeDef);
}
