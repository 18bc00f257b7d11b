// The mcp-server config nodes a gemini-agent's server rows name, read once for the node and for
// the dialog's admin routes: each deployed row as a tool-catalog source, the ids not deployed yet,
// and the tools a message brings along (msg.tools from an mcp-list-tools node).
import type { MessageTools, ServerRow, ServerSource } from '../../src/gemini/tool-catalog';
import { lines } from '../shared/input-handler';
import { skillNames } from '../../src/gemini/system-prompt';
import type { NodeMessage, RED } from '../shared/red-types';
import { getServerNode, type McpServerConfigNode } from '../shared/server-config';

/** One row of the agent's server list, as the editor saves it. */
export type ServerEntry = ServerRow;

export interface AgentServer {
  id: string;
  node: McpServerConfigNode;
  source: ServerSource;
  /** The skills this row loads into the instructions. */
  skills: string[];
}

export function agentServers(RED: RED, entries: unknown): { servers: AgentServer[]; missing: string[] } {
  const servers: AgentServer[] = [];
  const missing: string[] = [];
  for (const entry of Array.isArray(entries) ? (entries as ServerEntry[]) : []) {
    if (!entry || !entry.server) continue;
    const id = String(entry.server);
    const node = getServerNode(RED, id);
    if (!node) {
      missing.push(id);
      continue;
    }
    servers.push({
      id,
      node,
      source: { provider: node.provider, include: lines(entry.include), exclude: lines(entry.exclude), prefix: entry.prefix || undefined },
      skills: skillNames(entry.skills),
    });
  }
  return { servers, missing };
}

/** msg.tools (and the msg.mcp that came with them) as an extra catalog source. */
export function messageTools(RED: RED, msg: NodeMessage): MessageTools[] {
  if (msg.tools === undefined || msg.tools === null) return [];
  const mcp = (msg.mcp ?? {}) as { names?: Record<string, string>; server?: { id?: string; name?: string }; tools?: unknown };
  return [
    {
      tools: msg.tools,
      names: mcp.names,
      server: mcp.server,
      raw: Array.isArray(mcp.tools) ? (mcp.tools as MessageTools['raw']) : undefined,
      provider: getServerNode(RED, mcp.server?.id)?.provider,
    },
  ];
}
