// msg.mcp of a finished tools/call: who answered, what was sent, the result as the server gave it
// (or, for a result the SDK's schema rejected, the raw answer and what was read from it), the
// image/audio files lifted out, and the time it took.
import { leniencyOf } from '../lenient/lenient-result';
import type { CallToolResult } from '../protocol/sdk';
import { resultFiles } from './tool-result';
import type { ServerIdentity } from './tool-provider';

export interface CallFacts {
  server: ServerIdentity;
  tool: string;
  args: unknown;
  durationMs: number;
}

export function callReport(result: CallToolResult, facts: CallFacts): Record<string, unknown> {
  const report: Record<string, unknown> = {
    server: facts.server,
    tool: facts.tool,
    arguments: facts.args,
    result: { content: result.content, structuredContent: result.structuredContent, isError: result.isError === true },
    durationMs: facts.durationMs,
  };
  const leniency = leniencyOf(result);
  if (leniency) report.warnings = leniency.warnings;
  if (leniency?.raw !== undefined) report.result = leniency.raw;
  const files = resultFiles(result);
  if (files.length) report.files = files;
  return report;
}
