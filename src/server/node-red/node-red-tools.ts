// The `node-red` tool set an endpoint can offer (its "Node-RED tools" box, off by default): read
// tools always (read-tools.ts), and write tools only when the endpoint allows changes
// (write-tools.ts). Every result leaves scrubbed of the secrets the package knows; a node that has
// stored credentials shows only their names, each "[redacted]", never a value.
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { ToolAnswer, ToolCall } from '../calls/types';
import { NODE_RED_READ_TOOLS, READ_TOOL_NAMES, readTool } from './read-tools';
import { NODE_RED_WRITE_TOOLS, Refusal, type NodeRedChanges } from './write-tools';
import { REDACTED } from './change-plan';
import type { NodeRedRuntime, NodeRedView } from './types';

export class NodeRedTools {
  private readonly tools: Tool[];
  private readonly names: Set<string>;

  constructor(
    private readonly view: NodeRedView,
    /** Applied to every result before it leaves (the package's known secrets). */
    private readonly scrub: <T>(value: T) => T = (v) => v,
    private readonly runtime?: NodeRedRuntime,
    /** Present when the endpoint allows changes. */
    readonly changes?: NodeRedChanges,
  ) {
    this.tools = [...NODE_RED_READ_TOOLS, ...(changes ? NODE_RED_WRITE_TOOLS : [])];
    this.names = new Set(this.tools.map((t) => t.name));
  }

  definitions(): Tool[] {
    return this.tools;
  }

  has(name: string): boolean {
    return this.names.has(name);
  }

  async call(name: string, args: Record<string, unknown>, call: ToolCall): Promise<ToolAnswer> {
    try {
      const value = READ_TOOL_NAMES.has(name)
        ? this.withCredentialNames(await readTool(name, args, this.view, this.runtime))
        : await this.changes!.call(name, args, call);
      if (value.resultType === 'input_required') return value as ToolAnswer; // the person is asked first (2026-07-28)
      return this.answer(this.scrub(value));
    } catch (err) {
      if (err instanceof Refusal) return { ...this.answer(this.scrub(err.detail)), isError: true };
      return { content: [{ type: 'text', text: this.scrub((err as Error).message) }], isError: true };
    }
  }

  /** flow_read shows which credentials a node has stored, each as "[redacted]" (sent back, it keeps the stored one). */
  private withCredentialNames(value: Record<string, unknown>): Record<string, unknown> {
    const runtime = this.runtime;
    if (!runtime || !Array.isArray(value.nodes) || !('flow' in value)) return value;
    const nodes = (value.nodes as Array<{ id: string }>).map((n) => {
      const keys = runtime.credentialKeys(n.id);
      return keys.length ? { ...n, credentials: Object.fromEntries(keys.map((k) => [k, REDACTED])) } : n;
    });
    return { ...value, nodes };
  }

  private answer(value: Record<string, unknown>): CallToolResult {
    return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
  }
}
