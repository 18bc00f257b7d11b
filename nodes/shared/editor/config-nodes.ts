// The config nodes of the open flows, as dialogs read them. The editor's typings give them as plain
// `object`; a dialog reads them by setting name, so they are typed here once as a record.

/** A config node in the editor: its settings by name, its id and type, the tab it is scoped to (`z`). */
export type EditorConfigNode = Readonly<Record<string, unknown>> & { id: string; type: string; z?: string; name?: string };

/** Every config node of one type, in the editor's order. */
export function configNodesOf(type: string): EditorConfigNode[] {
  const found: EditorConfigNode[] = [];
  RED.nodes.eachConfig(function (conf) {
    const c = conf as EditorConfigNode;
    if (c.type === type) found.push(c);
    return true;
  });
  return found;
}

/** The node or config node with this id, or null. */
export function editorNode(id: string): EditorConfigNode | null {
  return id ? (RED.nodes.node(id) as EditorConfigNode | null) : null;
}
