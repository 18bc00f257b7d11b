// An httpAdminMiddleware for settings.js. With httpAdminRoot "/" (Node-RED's default) the editor's
// API sits in front of every HTTP route, and its body parsers read and parse up to 5 MB of any JSON
// or form POST, an MCP endpoint's too, before the endpoint has checked the caller's token. Node-RED
// runs httpAdminMiddleware before those parsers: this one sends requests for a deployed endpoint's
// path past the editor's API (`next('router')` leaves its router) to the endpoint, which reads the
// body itself after authentication, up to its own limit. Every other request is untouched.
//   httpAdminMiddleware: require('node-red-contrib-mcp-gemini/dist/nodes/mcp-endpoint/skip-editor-parsing.js'),
import type { RequestHandler } from 'express';
import { isEndpointPath } from '../../src/server/http/endpoint-paths';
import { SKIP_EDITOR_PARSING } from '../shared/skip-editor-parsing-mark';

const skipEditorParsing: RequestHandler = (req, _res, next) => {
  if (isEndpointPath(req.originalUrl ?? req.url ?? '')) next('router');
  else next();
};

// Marked, so an endpoint knows this middleware guards nothing (ahead-of-express.ts).
Object.defineProperty(skipEditorParsing, SKIP_EDITOR_PARSING, { value: true });

export = skipEditorParsing;
