// mcp-tool-out's settings, declared once (src/settings-declaration.ts): the dialog's defaults and the
// adapter's defaults come from here, and test/settings-declared-once.test.ts checks them against the form.
// Plain data: the editor bundle includes this file.
export const SETTINGS = {
  name: { value: '' },
} as const;
