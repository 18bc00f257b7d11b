// mcp-resource-in's settings, declared once (src/settings-declaration.ts): the dialog's defaults and
// the adapter's defaults come from here, and test/settings-declared-once.test.ts checks them against
// the form. Plain data: the editor bundle includes this file.
export const SETTINGS = {
  /** The node's own label. */
  caption: { value: '' },
  endpoint: { value: '', type: 'mcp-endpoint', required: true },
  /** A fixed URI (notes://today) or a URI template (notes://day/{day}). */
  uri: { value: '', required: true },
  name: { value: '' },
  title: { value: '' },
  description: { value: '' },
  mimeType: { value: 'text/plain' },
  /** Seconds the flow has to answer. */
  timeout: { value: 30 },
} as const;
