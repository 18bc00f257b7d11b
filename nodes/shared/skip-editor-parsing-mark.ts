// How the endpoint recognises skip-editor-parsing among a user's httpAdminMiddleware: settings.js
// loads it from its own file, so it is another copy of the function than the runtime bundle's, and
// a registered symbol is the same in both.
export const SKIP_EDITOR_PARSING = Symbol.for('node-red-contrib-mcp-gemini.skipEditorParsing');
