// A small MCP server that ships with the package, so the getting-started example works offline in a
// real install (server-everything is only a devDependency). Its tools carry the names the example
// uses (echo, get-sum, trigger-long-running-operation) and show each kind of result: text,
// structured content, progress notifications and an image; `book-a-table` asks the person a question
// in the middle of the call (./book-a-table.ts) and `research` runs as a task (./research-task.ts).
//   node main.js            MCP over stdin/stdout (what the example's mcp-server starts)
import { ProtocolError, ProtocolErrorCode, Server, type CallToolResult } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { DEMO_TOOLS } from './tools';
import { bookATable } from './book-a-table';
import { researchTasks, tasksCapability } from './research-task';

// A 1×1 red PNG: enough to show image content arriving as a Buffer in msg.mcp.files.
const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

type Notify = (n: { method: string; params: Record<string, unknown> }) => Promise<void>;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), reject(new Error('cancelled'))), { once: true });
  });

async function call(name: string, args: Record<string, unknown>, notify: Notify, progressToken: unknown, signal?: AbortSignal): Promise<CallToolResult> {
  switch (name) {
    case 'echo':
      return { content: [{ type: 'text', text: `Echo: ${String(args.message ?? '')}` }] };
    case 'get-sum': {
      const sum = Number(args.a) + Number(args.b);
      return { content: [{ type: 'text', text: `The sum of ${args.a} and ${args.b} is ${sum}.` }], structuredContent: { sum } };
    }
    case 'trigger-long-running-operation': {
      const duration = Number(args.duration ?? 10);
      const steps = Math.max(1, Math.floor(Number(args.steps ?? 5)));
      for (let i = 1; i <= steps; i++) {
        await sleep((duration * 1000) / steps, signal);
        if (progressToken !== undefined) {
          await notify({ method: 'notifications/progress', params: { progressToken, progress: i, total: steps, message: `step ${i} of ${steps}` } });
        }
      }
      return { content: [{ type: 'text', text: `Long running operation completed. Duration: ${duration} seconds, Steps: ${steps}.` }] };
    }
    case 'get-tiny-image':
      return {
        content: [
          { type: 'text', text: 'A 1×1 red pixel:' },
          { type: 'image', data: TINY_PNG, mimeType: 'image/png' },
        ],
      };
    case 'get-time':
      return { content: [{ type: 'text', text: new Date().toISOString() }], structuredContent: { iso: new Date().toISOString() } };
    default:
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
  }
}

/** One server per connection; `research` keeps its tasks in `tasks`, which outlive a request. */
export function createDemoServer(tasks = researchTasks(Number(process.env.DEMO_RESEARCH_STEP_MS) || 1000)): Server {
  const server = new Server({ name: 'mcp-gemini-demo', version: '1.0.0' }, { capabilities: { tools: {}, ...tasksCapability } });
  server.setRequestHandler('tools/list', async () => ({ tools: DEMO_TOOLS.map((t) => ({ ...t })) }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args } = request.params;
    const notify = (ctx as unknown as { mcpReq: { notify: Notify } }).mcpReq.notify;
    const given = (args ?? {}) as Record<string, unknown>;
    const progressToken = request.params._meta?.progressToken;
    if (name === 'book-a-table') return bookATable(given, ctx);
    if (name === 'research')
      return tasks.call(given, ctx, async (progress, total) => {
        if (progressToken !== undefined)
          await notify({ method: 'notifications/progress', params: { progressToken, progress, total, message: `source ${progress} of ${total} read` } });
      });
    return call(name, given, notify, progressToken, ctx.mcpReq.signal);
  });
  tasks.register(server);
  server.onclose = () => tasks.close();
  return server;
}

if (require.main === module) {
  const handle = serveStdio(() => createDemoServer(), { onerror: (err) => process.stderr.write(`demo server: ${err.message}\n`) });
  // The client closing stdin is the stdio way of saying goodbye (MCP lifecycle, shutdown).
  process.stdin.on('end', () => void handle.close().finally(() => process.exit(0)));
}
