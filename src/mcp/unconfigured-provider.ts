// Stands in for a server whose settings are invalid, so every request fails with the reason
// (reaching Catch nodes) instead of the config node throwing and its users silently dropping messages.
import { McpNodeError } from '../errors';
import type { ListToolsResult, ProviderState, ServerIdentity, ToolProvider } from './call/tool-provider';

export class UnconfiguredProvider implements ToolProvider {
  constructor(
    private readonly id: string,
    private readonly name: string,
    private readonly reason: string,
  ) {}
  identity(): ServerIdentity {
    return { id: this.id, name: this.name };
  }
  private fail(): never {
    throw new McpNodeError(`mcp-server "${this.name || this.id}" is misconfigured: ${this.reason}`, 'bad config', 'BAD_CONFIG');
  }
  async listTools(): Promise<ListToolsResult> {
    this.fail();
  }
  async findTool(): Promise<undefined> {
    this.fail();
  }
  async callTool(): Promise<never> {
    this.fail();
  }
  // Prompts and resources fail with the same reason (not "serves tools only").
  async listPrompts(): Promise<never> {
    this.fail();
  }
  async getPrompt(): Promise<never> {
    this.fail();
  }
  async listResources(): Promise<never> {
    this.fail();
  }
  async listResourceTemplates(): Promise<never> {
    this.fail();
  }
  async readResource(): Promise<never> {
    this.fail();
  }
  async subscribeResource(): Promise<never> {
    this.fail();
  }
  state(): ProviderState {
    return { kind: 'error', reason: 'bad config' };
  }
  onStateChange(): () => void {
    return () => undefined;
  }
  async close(): Promise<void> {}
}
