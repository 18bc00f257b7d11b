// One MCP endpoint: the tools flows registered, the object-graph tools when roots are exposed,
// and the calls waiting for flows. It builds a fresh SDK `Server` for every serving unit (one
// HTTP request in 2026-07-28, one session in 2025, one xiaozhi connection) from the same tools.
import { CLIENT_INFO_META_KEY, ProtocolError, ProtocolErrorCode, Server, type ServerContext } from '@modelcontextprotocol/server';
import { PendingCalls } from './pending-calls';
import { ToolRegistry } from './tool-registry';
import { errorResult, type CallToolResult, type Tool, type ToolCall } from './types';

/** The object graph as the endpoint sees it (src/server/object-graph implements it). */
export interface GraphTools {
  definitions(): Tool[];
  has(name: string): boolean;
  call(name: string, args: Record<string, unknown>, call: ToolCall): Promise<CallToolResult>;
}

export interface EndpointOptions {
  name: string;
  version: string;
  instructions?: string;
}

export class McpEndpoint {
  readonly tools = new ToolRegistry();
  readonly pending = new PendingCalls();
  graph: GraphTools | undefined;

  constructor(readonly options: EndpointOptions) {}

  /** Every tool a client sees: flow tools first, then the graph's six (a flow tool cannot shadow them). */
  listTools(): Tool[] {
    const graph = this.graph?.definitions() ?? [];
    const graphNames = new Set(graph.map((t) => t.name));
    return [
      ...this.tools
        .topLevel()
        .map((t) => t.definition)
        .filter((t) => !graphNames.has(t.name)),
      ...graph,
    ];
  }

  async callTool(name: string, args: Record<string, unknown>, call: Omit<ToolCall, 'tool' | 'arguments'>): Promise<CallToolResult> {
    const full: ToolCall = { ...call, tool: name, arguments: args };
    if (this.graph?.has(name)) return this.graph.call(name, args, full);
    const tool = this.tools.find(name);
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    return tool.invoke(full);
  }

  /** A fresh SDK server for one serving unit. */
  createServer(): Server {
    const server = new Server(
      { name: this.options.name, version: this.options.version },
      { capabilities: { tools: { listChanged: true } }, instructions: this.options.instructions || undefined },
    );
    server.setRequestHandler('tools/list', () => ({ tools: this.listTools() }));
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const params = request.params;
      const args = (params.arguments ?? {}) as Record<string, unknown>;
      try {
        return await this.callTool(params.name, args, callContext(server, ctx, params._meta?.progressToken));
      } catch (err) {
        if (err instanceof ProtocolError) throw err;
        return errorResult(err instanceof Error ? err.message : String(err));
      }
    });
    return server;
  }

  close(reason: string): void {
    this.pending.closeAll(reason);
    this.tools.close();
  }
}

function callContext(server: Server, ctx: ServerContext, progressToken: string | number | undefined): Omit<ToolCall, 'tool' | 'arguments'> {
  const envelopeClient = ctx.mcpReq.envelope?.[CLIENT_INFO_META_KEY as keyof typeof ctx.mcpReq.envelope] as { name?: string; version?: string } | undefined;
  const client = envelopeClient ?? server.getClientVersion() ?? {};
  return {
    requestId: ctx.mcpReq.id,
    client: { name: client.name, version: client.version },
    signal: ctx.mcpReq.signal,
    progress: async (update) => {
      if (progressToken === undefined) return;
      await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, ...update } });
    },
  };
}
