// mcp-prompt-in's settings, declared once (src/settings-declaration.ts): the dialog's defaults and the
// adapter's defaults come from here, and test/settings-declared-once.test.ts checks them against the form.
// Plain data: the editor bundle includes this file.
export const SETTINGS = {
  /** The node's own label: `name` is the prompt's name on the wire. */
  caption: { value: '' },
  endpoint: { value: '', type: 'mcp-endpoint', required: true },
  name: { value: '', required: true },
  title: { value: '' },
  description: { value: '' },
  /** `room, day?` (a `?` marks an optional argument) or a JSON array of {name, description, required}. */
  arguments: { value: '' },
  /** Seconds the flow has to answer. */
  timeout: { value: 30 },
} as const;
