// RED.nodes.registerType for our dialogs. The editor's typings infer each default's literal type
// ("websocket", "get"), which then forbids comparing a node's setting with any other value; a
// dialog reads and writes its settings by name, so the definition is passed as a plain record.
export function registerDialog(type: string, definition: Record<string, unknown>): void {
  RED.nodes.registerType(type, definition as never);
}
