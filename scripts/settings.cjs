// Node-RED settings for `npm start` and for the example tests (test/examples/), which start
// Node-RED the same way. Everything a run may need to change comes from the environment, so one
// file serves both: the demo on 127.0.0.1:1880, a test on a free port.
//   PORT                         editor/admin port (default 1880)
//   NODE_RED_HOST                interface to listen on (default 127.0.0.1: the demo is not
//                                reachable from the network; set 0.0.0.0 for real ESP32 devices)
//   NODE_RED_CREDENTIAL_SECRET   key that encrypts flows_cred.json (default: a fixed demo key, so
//                                credentials survive restarts; set your own for anything real)
//   NODE_RED_LOG_LEVEL           info (default), debug, trace …
module.exports = {
  uiHost: process.env.NODE_RED_HOST || '127.0.0.1',
  uiPort: Number(process.env.PORT) || 1880,
  flowFile: 'flows.json',
  flowFilePretty: true,
  credentialSecret: process.env.NODE_RED_CREDENTIAL_SECRET || 'node-red-contrib-mcp-gemini-demo',
  // Tool lists and agent traces are long; the default 1000 characters cuts them in the sidebar.
  debugMaxLength: 20000,
  logging: {
    console: { level: process.env.NODE_RED_LOG_LEVEL || 'info', metrics: false, audit: false },
  },
  // The editor's API is at "/" here, in front of the MCP endpoints: let their requests past its body
  // parsers, so a caller without a token is refused before its body is read (docs/mcp-endpoint.md).
  httpAdminMiddleware: require('../dist/nodes/mcp-endpoint/skip-editor-parsing.js'),
  // No network is needed: no module auto-install, no telemetry prompt, no projects.
  externalModules: { autoInstall: false },
  telemetry: { enabled: false },
  editorTheme: {
    projects: { enabled: false },
    tours: false,
  },
};
