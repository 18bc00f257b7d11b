// The tools an endpoint serves, as `mcp-tool-in` nodes register and deregister them. A change is
// announced once per burst (a redeploy deregisters and registers many nodes in one tick), so a
// client sees one notifications/tools/list_changed per deploy, not one per node.
import type { FlowTool } from './types';

export class ToolRegistry {
  private readonly tools = new Map<string, FlowTool>();
  private readonly listeners = new Set<() => void>();
  private pending: NodeJS.Timeout | undefined;

  /** Returns a reason when the name is taken by another node (the tool is then not served). */
  register(tool: FlowTool): string | undefined {
    const key = keyOf(tool);
    const held = this.tools.get(key);
    if (held && held.owner !== tool.owner) return held.owner;
    this.tools.set(key, tool);
    this.changed();
    return undefined;
  }

  deregister(owner: string): void {
    for (const [key, tool] of this.tools) if (tool.owner === owner) this.tools.delete(key);
    this.changed();
  }

  /** Top-level tools (not bound to a subject), in registration order. */
  topLevel(): FlowTool[] {
    return [...this.tools.values()].filter((t) => !t.subject);
  }

  find(name: string): FlowTool | undefined {
    const tool = this.tools.get(name);
    return tool && !tool.subject ? tool : undefined;
  }

  /** Methods bound to the subject at `subject` (a normalised object-graph path). */
  methodsOf(subject: string): FlowTool[] {
    return [...this.tools.values()].filter((t) => t.subject === subject);
  }

  method(subject: string, method: string): FlowTool | undefined {
    return this.tools.get(`${subject}#${method}`);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    clearTimeout(this.pending);
    this.listeners.clear();
  }

  private changed(): void {
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      for (const l of this.listeners) l();
    }, 50);
    this.pending.unref?.();
  }
}

function keyOf(tool: FlowTool): string {
  return tool.subject ? `${tool.subject}#${tool.method ?? tool.definition.name}` : tool.definition.name;
}
