// The tools an endpoint serves, as `mcp-tool-in` nodes register them (flow-registry.ts announces
// changes once per deploy): top-level tools by name, object-graph methods by subject and method.
import { FlowRegistry } from './flow-registry';
import type { FlowTool } from '../calls/types';

export class ToolRegistry extends FlowRegistry<FlowTool> {
  constructor() {
    super(keyOf);
  }

  /** Top-level tools (not bound to a subject), in registration order. */
  topLevel(): FlowTool[] {
    return this.all().filter((t) => !t.subject);
  }

  find(name: string): FlowTool | undefined {
    const tool = this.get(name);
    return tool && !tool.subject ? tool : undefined;
  }

  /** Methods bound to the subject at `subject` (a normalised object-graph path). */
  methodsOf(subject: string): FlowTool[] {
    return this.all().filter((t) => t.subject === subject);
  }

  method(subject: string, method: string): FlowTool | undefined {
    return this.get(`${subject}#${method}`);
  }
}

function keyOf(tool: FlowTool): string {
  return tool.subject ? `${tool.subject}#${tool.method ?? tool.definition.name}` : tool.definition.name;
}
