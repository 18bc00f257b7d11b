// mcp-skill's settings, declared once (src/settings-declaration.ts): the dialog's defaults and the
// adapter's defaults come from here, and test/settings-declared-once.test.ts checks them against the form.
// Plain data: the editor bundle includes this file.
export const SETTINGS = {
  /** The node's own label: `name` is the skill's name on the wire. */
  caption: { value: '' },
  endpoint: { value: '', type: 'mcp-endpoint', required: true },
  /** lowercase letters, digits and single hyphens (the Skills extension's rule). */
  name: { value: '', required: true },
  description: { value: '', required: true },
  /** The instructions (Markdown): what SKILL.md holds below its frontmatter. */
  text: { value: '', required: true },
  /** Further files of the skill: `[{path, text}]`, the dialog's rows (kept by code). */
  files: { value: [] as { path: string; text: string }[], form: false },
} as const;
