// The system instruction from a server prompt (Home Assistant's `Assist`: the live instruction HA
// gives its own assistants, with the exposed areas and devices). Fetched for every request because
// the text changes with the home; it comes first, the node's own instruction after it.
import { McpNodeError, errorMessage } from '../errors';
import { promptText, promptsAndResources } from '../mcp/prompts-resources';
import type { ToolProvider } from '../mcp/call/tool-provider';

export interface SystemPromptSource {
  provider: ToolProvider;
  name: string;
  arguments?: Record<string, unknown>;
}

export async function systemInstructionWithPrompt(source: SystemPromptSource | undefined, own: string | undefined): Promise<string | undefined> {
  if (!source) return own;
  let text: string;
  try {
    text = promptText(await promptsAndResources(source.provider).getPrompt(source.name, source.arguments ?? {}));
  } catch (err) {
    const who = source.provider.identity().name || source.provider.identity().id;
    throw new McpNodeError(
      `Could not fetch the system prompt "${source.name}" from ${who}: ${errorMessage(err)}. Check the server, or clear System prompt in the node`,
      'system prompt failed',
      'GEMINI_SYSTEM_PROMPT',
    );
  }
  return [text, own].filter((s) => typeof s === 'string' && s.trim() !== '').join('\n\n') || undefined;
}
