// ha-assist's settings, declared once (src/settings-declaration.ts): the dialog's defaults and the
// adapter's defaults come from here, and test/settings-declared-once.test.ts checks them against the form.
// Plain data: the editor bundle includes this file.
export const SETTINGS = {
  name: { value: '' },
  /** the mcp-server whose URL is Home Assistant's (…/api/mcp): its address and token are used */
  server: { value: '', type: 'mcp-server', required: true },
  /** an Assist pipeline id; blank: the one speaking `language`, else Home Assistant's preferred */
  pipeline: { value: '' },
  language: { value: '' },
  /** seconds Home Assistant gets for one answer */
  timeout: { value: 60 },
} as const;
