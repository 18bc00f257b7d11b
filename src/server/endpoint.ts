// One MCP endpoint: the tools, prompts and resources flows registered, the object-graph tools (and
// its roots as resources) when roots are exposed, and the requests waiting for flows. It builds a fresh SDK `Server` for every serving unit (one
// HTTP request in 2026-07-28, one session in 2025, one xiaozhi connection) from the same tools.
import { ProtocolError, ProtocolErrorCode, Server, type GetPromptResult } from '@modelcontextprotocol/server';
import { PendingCalls } from './calls/pending-calls';
import { PendingRequests, requestFailure } from './calls/pending-requests';
import { ToolRegistry } from './flows/tool-registry';
import { FlowRegistry } from './flows/flow-registry';
import { ResourceRegistry, type ResourceBody } from './flows/flow-resources';
import type { FlowPrompt, PromptRequest } from './flows/flow-prompts';
import type { ResourceRequest } from './flows/flow-resources';
import { servePromptsAndResources } from './flows/prompts-resources-serving';
import { SKILLS_EXTENSION, SkillRegistry } from './flows/flow-skills';
import { serveSkills } from './flows/skills-serving';
import { callHandleCodec, serveToolCalls, type TaskServing } from './tool-call-serving';
import { FlowTasks, TASKS_CAPABILITY } from './tasks/flow-tasks';
import { TaskBudget, type TaskLimits } from './tasks/task-budget';
import { ExtensionTasks } from './tasks/flow-tasks-extension';
import type { GraphTools, Tool, ToolAnswer, ToolCall } from './calls/types';
import type { NodeRedTools } from './node-red/node-red-tools';

export type { GraphTools } from './calls/types';

export interface EndpointOptions {
  name: string;
  version: string;
  instructions?: string;
  /** Flow tools running as tasks at once, per client and in all (./task-budget.ts). */
  taskLimits?: TaskLimits;
}

export class McpEndpoint {
  readonly tools = new ToolRegistry();
  readonly pending = new PendingCalls();
  private readonly callHandles = callHandleCodec();
  readonly prompts = new FlowRegistry<FlowPrompt>((p) => p.definition.name);
  readonly resources = new ResourceRegistry();
  /** Skills flows offer (mcp-skill): served through the Skills extension, their files as resources. */
  readonly skills = new SkillRegistry();
  readonly pendingPrompts = new PendingRequests<GetPromptResult, PromptRequest>(requestFailure, 'wire its mcp-prompt-in to an mcp-prompt-out (keep msg._mcp)');
  readonly pendingReads = new PendingRequests<ResourceBody, ResourceRequest>(requestFailure, 'wire its mcp-resource-in to an mcp-resource-out (keep msg._mcp)');
  graph: GraphTools | undefined;
  /** Node-RED's own flows as read tools, when the endpoint offers them (node-red/node-red-tools.ts). */
  nodeRed: NodeRedTools | undefined;
  /** Tasks running at once, on both revisions. */
  readonly taskBudget: TaskBudget;
  /** 2026-07-28 tasks outlive the request that made them, so the endpoint keeps them. */
  readonly extensionTasks: ExtensionTasks;
  private readonly updateListeners = new Set<(uri: string) => void>();

  constructor(readonly options: EndpointOptions) {
    this.taskBudget = new TaskBudget(options.taskLimits);
    this.extensionTasks = new ExtensionTasks(this.taskBudget);
  }

  /** Every tool a client sees: flow tools first, then the graph's six and Node-RED's own (a flow tool cannot shadow them). */
  listTools(): Tool[] {
    const builtIn = [...(this.graph?.definitions() ?? []), ...(this.nodeRed?.definitions() ?? [])];
    const builtInNames = new Set(builtIn.map((t) => t.name));
    return [
      ...this.tools
        .topLevel()
        .map((t) => t.definition)
        .filter((t) => !builtInNames.has(t.name)),
      ...builtIn,
    ];
  }

  /** The task limit of a long-running flow tool (a client may call it as a task), else undefined. */
  taskLimitOf(name: string): number | undefined {
    return this.graph?.has(name) || this.nodeRed?.has(name) ? undefined : this.tools.find(name)?.taskLimitMs;
  }

  async callTool(name: string, args: Record<string, unknown>, call: Omit<ToolCall, 'tool' | 'arguments'>): Promise<ToolAnswer> {
    const full: ToolCall = { ...call, tool: name, arguments: args };
    if (this.graph?.has(name)) return this.graph.call(name, args, full);
    if (this.nodeRed?.has(name)) return this.nodeRed.call(name, args, full);
    const tool = this.tools.find(name);
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    return tool.invoke(full);
  }

  /** A flow changed a resource: subscribed clients hear notifications/resources/updated. */
  resourceUpdated(uri: string): void {
    for (const l of this.updateListeners) l(uri);
  }

  onResourceUpdated(listener: (uri: string) => void): () => void {
    this.updateListeners.add(listener);
    return () => this.updateListeners.delete(listener);
  }

  /** A fresh SDK server for one serving unit: `modern` serves one 2026-07-28 request, `legacy` a 2025 session or link. */
  createServer(era: 'legacy' | 'modern' = 'legacy', client = ''): Server {
    // Tasks (2025-11-25) live as long as the session that made them: no other client reaches them.
    const asTask: TaskServing =
      era === 'legacy'
        ? { era, tasks: new FlowTasks(this.taskBudget, client), limitOf: (name) => this.taskLimitOf(name) }
        : { era, tasks: this.extensionTasks, limitOf: (name) => this.taskLimitOf(name) };
    const server = new Server(
      { name: this.options.name, version: this.options.version },
      {
        capabilities: {
          tools: { listChanged: true },
          prompts: { listChanged: true },
          resources: { listChanged: true, subscribe: true },
          ...(era === 'legacy' ? { tasks: TASKS_CAPABILITY } : {}),
          extensions: { [SKILLS_EXTENSION]: {}, ...(era === 'modern' ? ExtensionTasks.capability : {}) },
        },
        instructions: this.options.instructions || undefined,
        // A 2026-07-28 retry brings back a call handle sealed by this endpoint (tool-call-serving.ts).
        ...(era === 'modern' ? { requestState: { verify: this.callHandles.verify } } : {}),
      },
    );
    server.setRequestHandler('tools/list', () => ({ tools: this.listTools() }));
    serveToolCalls(server, era, (name, args, call) => this.callTool(name, args, call), this.pending, this.callHandles, asTask);
    asTask.tasks.serve(server);
    if (asTask.era === 'legacy') server.onclose = () => asTask.tasks.close();
    servePromptsAndResources(server, this, era);
    serveSkills(server, this.skills, era);
    return server;
  }

  /**
   * The flows behind the waiting calls and requests are gone (a deploy): each gets `reason` now,
   * while the lists, the sessions and the serving stay for the flows that start next.
   */
  interrupt(reason: string): void {
    this.pending.closeAll(reason);
    this.pendingPrompts.closeAll(reason);
    this.pendingReads.closeAll(reason);
  }

  close(reason: string): void {
    this.pending.closeAll(reason);
    this.extensionTasks.close();
    this.pendingPrompts.closeAll(reason);
    this.pendingReads.closeAll(reason);
    this.tools.close();
    this.prompts.close();
    this.resources.close();
    this.skills.close();
    this.updateListeners.clear();
  }
}
