// mcp-call-tool's settings, declared once (src/settings-declaration.ts): the dialog's defaults and the
// adapter's defaults come from here, and test/settings-declared-once.test.ts checks them against the form.
// Plain data: the editor bundle includes this file.
export const SETTINGS = {
  name: { value: '' },
  server: { value: '', type: 'mcp-server', required: true },
  tool: { value: '' },
  arguments: { value: '' },
  /** A blank Arguments is shown as the value-less "default" type: msg.payload (or msg.payload.args). */
  argumentsType: { value: 'msg' },
  validate: { value: true },
  timeout: { value: '' },
  /** Seconds a flow has to answer a server's request for input (output 2, topic "input") before it is declined. */
  inputTimeout: { value: 300 },
  output: { value: 'auto' },
  toolErrors: { value: 'throw' },
} as const;
