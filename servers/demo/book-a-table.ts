// `book-a-table`: a tool that asks the person in the middle of the call (an MCP input request), so the
// getting-started flows can show one offline. On MCP 2026-07-28 the call answers `input_required`
// with a form and reads the answer from the retried call's `inputResponses`; on the 2025 revisions it
// sends `elicitation/create` while the call is open. Both through the server SDK's own API.
import { inputRequired, inputResponse, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';

export const BOOKING_FORM = {
  type: 'object' as const,
  properties: {
    people: { type: 'integer' as const, minimum: 1, maximum: 12, description: 'How many people?' },
    confirm: { type: 'boolean' as const, description: 'Book it?' },
  },
  required: ['people', 'confirm'],
};

type Answer = { action: string; content?: Record<string, unknown> };

export async function bookATable(args: Record<string, unknown>, ctx: ServerContext): Promise<CallToolResult> {
  const restaurant = String(args.restaurant ?? 'the demo restaurant');
  const ask = { mode: 'form' as const, message: `A table at ${restaurant}: for how many people, and shall I book it?`, requestedSchema: BOOKING_FORM };
  const given = inputResponse(ctx.mcpReq.inputResponses, 'booking');
  let answer: Answer;
  if (given.kind === 'elicit') answer = { action: given.action, content: given.content };
  else if (ctx.mcpReq.envelope) return inputRequired({ inputRequests: { booking: inputRequired.elicit(ask) } }) as unknown as CallToolResult;
  else {
    try {
      answer = await ctx.mcpReq.elicitInput(ask);
    } catch (err) {
      // A 2025 client that did not declare input requests (mcp-call-tool with output 2 unwired).
      return { content: [{ type: 'text', text: `Cannot ask anyone: ${(err as Error).message}` }], isError: true };
    }
  }
  const content = answer.content ?? {};
  if (answer.action !== 'accept' || content.confirm !== true) {
    return {
      content: [{ type: 'text', text: `Not booked (${answer.action === 'accept' ? 'not confirmed' : answer.action}).` }],
      structuredContent: { booked: false },
    };
  }
  const people = Number(content.people);
  return { content: [{ type: 'text', text: `Booked a table for ${people} at ${restaurant}.` }], structuredContent: { booked: true, people, restaurant } };
}
