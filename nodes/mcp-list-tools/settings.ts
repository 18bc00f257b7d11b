// mcp-list-tools's settings, declared once (src/settings-declaration.ts): the dialog's defaults and the
// adapter's defaults come from here, and test/settings-declared-once.test.ts checks them against the form.
// Plain data: the editor bundle includes this file.
export const SETTINGS = {
  name: { value: '' },
  server: { value: '', type: 'mcp-server', required: true },
  format: { value: 'mcp' },
  include: { value: '' },
  exclude: { value: '' },
  prefix: { value: '' },
  expected: { value: '' },
  userOnly: { value: false },
  property: { value: 'payload', required: true },
} as const;
