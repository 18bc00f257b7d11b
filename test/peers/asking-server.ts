// An MCP server that asks the client for input in the middle of a call, on both protocol eras (the
// server SDK's own API): over HTTP behind the todo example's node:http endpoint (startAskingServer),
// or over stdio (asking-stdio.ts). Its answer text says what the server received.
// - 2025 revisions: the tool sends `elicitation/create` while the call is open (ctx.mcpReq.elicitInput);
// - 2026-07-28: the tool answers `input_required` with an embedded elicitation, and reads the
//   client's answer from the retried call's `inputResponses` (inputRequired, inputResponse).
// `order` asks in form mode (a confirmation and a quantity), `sign_in` in URL mode.
import { Server, inputRequired, inputResponse, type Tool } from '@modelcontextprotocol/server';
import { serveHttp, type HttpEndpoint } from '../../servers/todo/http-transport';

export const ORDER_FORM = {
  type: 'object' as const,
  properties: {
    confirm: { type: 'boolean' as const, description: 'Place the order?' },
    quantity: { type: 'integer' as const, minimum: 1, maximum: 9 },
  },
  required: ['confirm', 'quantity'],
};

const TOOLS: Tool[] = [
  { name: 'order', description: 'Orders an item, after asking how many.', inputSchema: { type: 'object', properties: { item: { type: 'string' } } } },
  { name: 'sign_in', description: 'Signs in through a page the person opens.', inputSchema: { type: 'object', properties: {} } },
];

type Answer = { action: string; content?: Record<string, unknown> };

/** A fresh server; each answer it receives is also pushed to `answers`. */
export function askingServer(answers: Answer[] = []): Server {
  const server = new Server({ name: 'asking', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({ tools: TOOLS }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name } = request.params;
    const ask =
      name === 'order'
        ? { mode: 'form' as const, message: `How many ${String(request.params.arguments?.item ?? 'items')}?`, requestedSchema: ORDER_FORM }
        : { mode: 'url' as const, message: 'Sign in to continue', url: 'https://auth.example/sign-in?session=42', elicitationId: 'sign-in-42' };
    // 2026-07-28: the answer arrives with the retried call.
    const given = inputResponse(ctx.mcpReq.inputResponses, 'ask');
    let answer: Answer;
    if (given.kind === 'elicit') answer = { action: given.action, content: given.content };
    else if (ctx.mcpReq.envelope) {
      const { elicitationId: _id, ...urlAsk } = ask as typeof ask & { elicitationId?: string };
      return inputRequired({ inputRequests: { ask: ask.mode === 'form' ? inputRequired.elicit(ask) : inputRequired.elicitUrl(urlAsk as never) } });
    } else answer = await ctx.mcpReq.elicitInput(ask); // 2025 revisions: a request while the call is open
    answers.push(answer);
    const text = answer.action !== 'accept' ? `not done: ${answer.action}` : name === 'order' ? `ordered ${String(answer.content?.quantity)}` : 'signed in';
    return { content: [{ type: 'text', text }] };
  });
  return server;
}

export interface AskingServer extends HttpEndpoint {
  /** Every answer the server received, in order: {action, content}. */
  answers: Answer[];
}

/**
 * Over HTTP. Its 2025 era is served statelessly (the SDK handler's default), so a 2025 client's
 * capabilities are not known to it and it cannot ask: the 2025 era is exercised over stdio.
 */
export async function startAskingServer(): Promise<AskingServer> {
  const answers: Answer[] = [];
  const endpoint = await serveHttp(() => askingServer(answers), 0, '127.0.0.1');
  return Object.assign(endpoint, { answers });
}
