// mcp-resource-out's settings: like mcp-tool-out, an answering node has only its label.
export { SETTINGS } from '../mcp-tool-out/settings';
