// mcp-prompt's settings, declared once (src/settings-declaration.ts): the dialog's defaults and the
// adapter's defaults come from here, and test/settings-declared-once.test.ts checks them against the form.
// Plain data: the editor bundle includes this file.
export const SETTINGS = {
  /** The node's own label: `name` is the prompt's name on the server. */
  caption: { value: '' },
  server: { value: '', type: 'mcp-server', required: true },
  operation: { value: 'get' },
  name: { value: '' },
  arguments: { value: '' },
  /** "default": msg.payload when it is an object. */
  argumentsType: { value: 'default' },
  timeout: { value: '' },
} as const;
