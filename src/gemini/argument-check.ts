// Checks the arguments Gemini produced against the MCP tool's inputSchema before calling, so a bad
// call goes back to the model as an `{error}` it can correct instead of reaching the device.
import { validateArguments } from '../mcp/call/argument-validator';
import type { Tool } from '../mcp/call/tool-provider';

/** undefined when valid, else "path: reason". */
export function checkArguments(tool: Tool, args: unknown): string | undefined {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return '(arguments): must be an object';
  return validateArguments(tool, args);
}
