// A plain type with no imports: the dialogs (editor bundles) read it too.

/**
 * One server row as a dialog saves it (gemini-agent's server list, an esp32-listener's Live
 * servers): the mcp-server's id, include/exclude globs (one per line, or an array) and a prefix.
 */
export interface ServerRow {
  server?: string;
  include?: string | string[];
  exclude?: string | string[];
  prefix?: string;
  /** gemini-agent rows: the server's skills to load into the instructions (names, comma-separated, or a list). */
  skills?: string | string[];
}
