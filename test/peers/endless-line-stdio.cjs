// A stdio MCP server written from the protocol's JSON-RPC framing (one message per line), for the
// reply-limit specs: it answers initialize and tools/list with one tool, `endless`, and answers a
// call to it with a line that never ends (`{"jsonrpc":"2.0","id":…,"result":{"content":[{"text":"`
// and then `x` for ever, in 64 KB writes, until its stdin closes or it is killed).
const readline = require('node:readline');

const write = (m) => process.stdout.write(JSON.stringify(m) + '\n');
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let m;
  try {
    m = JSON.parse(line);
  } catch {
    return;
  }
  if (m.method === 'initialize') {
    write({
      jsonrpc: '2.0',
      id: m.id,
      result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'endless-line', version: '1.0.0' } },
    });
  } else if (m.method === 'tools/list') {
    write({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'endless', inputSchema: { type: 'object', properties: {} } }] } });
  } else if (m.method === 'tools/call') {
    process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(m.id)},"result":{"content":[{"type":"text","text":"`);
    const piece = 'x'.repeat(64 * 1024);
    const more = () => {
      while (process.stdout.write(piece));
      process.stdout.once('drain', more);
    };
    more();
  } else if (m.id !== undefined) {
    write({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
  }
});
process.stdout.on('error', () => process.exit(0));
