// The client under test for the official conformance suite: our engine's McpSession, exactly as the
// mcp-server node uses it. The suite runs `<command> <url>` with MCP_CONFORMANCE_SCENARIO set; per
// scenario we list tools and call the tools that scenario's mock server expects.
import { McpSession } from '../../../src/mcp/session';

/** Tool calls each client scenario scores (conformance 0.1.16 src/scenarios/client/*). */
const CALLS_BY_SCENARIO: Record<string, Array<{ name: string; args: Record<string, unknown> }>> = {
  initialize: [],
  tools_call: [{ name: 'add_numbers', args: { a: 2, b: 3 } }],
  // The mock closes the tools/call SSE stream after a priming event with retry: 500; the result
  // arrives only if the client reconnects with GET (Last-Event-ID) after waiting that long.
  'sse-retry': [{ name: 'test_reconnection', args: {} }],
};

async function main(): Promise<void> {
  const url = process.argv[process.argv.length - 1];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const calls = CALLS_BY_SCENARIO[scenario];
  if (!calls) throw new Error(`no plan for conformance scenario "${scenario}"`);

  const session = new McpSession({ id: 'conformance', name: 'conformance', transport: 'http', url, timeoutMs: 30000, protocolVersion: 'auto' });
  try {
    const { tools } = await session.listTools();
    process.stdout.write(`tools: ${tools.map((t) => t.name).join(', ')}\n`);
    for (const call of calls) {
      if (!tools.some((t) => t.name === call.name)) throw new Error(`scenario ${scenario}: server did not list ${call.name}`);
      const result = await session.callTool(call.name, call.args);
      process.stdout.write(`${call.name}: ${JSON.stringify(result)}\n`);
      if (result.isError) throw new Error(`${call.name} returned isError`);
    }
  } finally {
    await session.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
