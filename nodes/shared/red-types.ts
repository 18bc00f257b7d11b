// Node-RED's runtime API as published in @types/node-red (DefinitelyTyped), under the short names
// the adapters import. Where a node needs more than the published types say (editor settings on the
// node definition, credentials read by key, the admin credential store), the widening is written here
// once, so the node files stay free of `any` and of casts.
import type * as NodeRed from 'node-red';

export type NodeMessage = NodeRed.NodeMessage;
export type NodeStatus = NodeRed.NodeStatus;
/** A context scope (node, flow or global) with its callback API, which asynchronous stores need. */
export type ContextStore = NodeRed.NodeContextData;

export type SendFn = (msg: NodeMessage | Array<NodeMessage | NodeMessage[] | null>) => void;
export type DoneFn = (err?: Error) => void;

/** Credentials a node reads by key (`node.credentials.apiKey`); absent until the user sets one. */
export type NodeCredentials = Record<string, string | undefined>;

export type Node<TCreds extends object = NodeCredentials> = NodeRed.Node<TCreds>;

/** A node's definition from the flow file: the standard fields plus the editor's settings. */
export interface NodeDef extends NodeRed.NodeDef {
  [setting: string]: unknown;
}

export type RED = NodeRed.NodeAPI;

/** The constructor Node-RED calls with `new` for each deployed node of a type. */
export type NodeConstructor<TNode extends Node = Node> = NodeRed.NodeConstructor<TNode, NodeDef, NodeCredentials>;

// The published registerType infers the credential type from the `credentials` option and then
// rejects a constructor typed for credentials read by key. Our nodes all read credentials by key,
// so this overload states that shape once instead of a cast at every registration.
// (Inside the module block the registry's own names shadow ours, hence the aliases.)
type KeyedCredentials = NodeCredentials;
type AdapterNode = Node;
type AdapterNodeDef = NodeDef;
declare module '@node-red/registry' {
  interface NodeAPINodes {
    registerType<TNode extends AdapterNode>(
      type: string,
      constructor: NodeConstructor<TNode, AdapterNodeDef, KeyedCredentials>,
      opts?: { credentials?: Record<string, NodeCredential>; settings?: Record<string, NodeSetting<unknown>> },
    ): void;
    // The runtime answers undefined for a node without stored credentials (not `object`).
    getCredentials(id: string): KeyedCredentials | undefined;
    addCredentials(id: string, creds: KeyedCredentials): Promise<void>;
  }
}
