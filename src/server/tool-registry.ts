// The tools an endpoint serves, as `mcp-tool-in` nodes register and deregister them. A change is
// announced once per burst (a redeploy stops and starts many nodes), so a client sees one
// notifications/tools/list_changed per deploy, not one per node: the adapter calls flush() when the
// runtime says the flows started, and a quiet period announces changes made outside a deploy.
import type { FlowTool } from './types';

export class ToolRegistry {
  private readonly tools = new Map<string, FlowTool>();
  private readonly listeners = new Set<() => void>();
  private pending: NodeJS.Timeout | undefined;
  private dirty = false;

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

  /** Announces pending changes now (the runtime finished starting the flows). */
  flush(): void {
    clearTimeout(this.pending);
    this.pending = undefined;
    if (!this.dirty) return;
    this.dirty = false;
    for (const l of this.listeners) l();
  }

  private changed(): void {
    this.dirty = true;
    clearTimeout(this.pending);
    this.pending = setTimeout(() => this.flush(), 250);
    this.pending.unref?.();
  }
}

function keyOf(tool: FlowTool): string {
  return tool.subject ? `${tool.subject}#${tool.method ?? tool.definition.name}` : tool.definition.name;
}
