// How this package introduces itself in `initialize` (servers log it; Home Assistant shows it).
export const CLIENT_INFO = { name: 'node-red-contrib-mcp-gemini', version: '0.1.0' };
