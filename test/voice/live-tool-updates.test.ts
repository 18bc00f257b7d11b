// Gemini Live takes new tools without hanging up: when a server's tool list changes (here a
// stateless MCP server that gains a tool, refreshed as Home Assistant's list is), the open session
// gets the new list through the Live API's context update (BidiGenerateContentClientContextUpdate)
// on the same connection. The Live stand-in records every frame: one setup, one contextUpdate with
// both tools, no second connection; the conversation goes on (its resumption handle is offered
// after the next turn) and the model can call the new tool, which runs on the server.
import assert from 'node:assert/strict';
import { Server, type Tool } from '@modelcontextprotocol/server';
import { serveHttp, type HttpEndpoint } from '../../servers/todo/http-transport';
import { McpSession } from '../../src/mcp/session';
import { createGeminiClient } from '../../src/gemini/client';
import { LiveSession } from '../../src/gemini/live-session';
import { buildCatalog, watchServerTools } from '../../src/gemini/tool-catalog';
import { mcpExecutor } from '../../src/gemini/auto-executor';
import { startFakeGemini, type FakeGemini } from '../peers/fake-gemini';
import { until } from '../helpers/wait';

const KEY = 'live-tools-key-0123456789';
const object = { type: 'object' as const, properties: {} };

describe('Gemini Live: new tools reach an open conversation through a context update', function () {
  this.timeout(30000);
  let fake: FakeGemini;
  let mcp: HttpEndpoint;
  let provider: McpSession;
  const tools: Tool[] = [{ name: 'lamp_on', description: 'Turns the lamp on.', inputSchema: object }];
  const ran: string[] = [];

  before(async () => {
    fake = await startFakeGemini({ apiKey: KEY });
    mcp = await serveHttp(
      () => {
        const server = new Server({ name: 'lamp', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
        server.setRequestHandler('tools/list', () => ({ tools }));
        server.setRequestHandler('tools/call', (request) => {
          ran.push(request.params.name);
          return { content: [{ type: 'text', text: `${request.params.name} done` }] };
        });
        return server;
      },
      0,
      '127.0.0.1',
    );
    provider = new McpSession({ id: 'lamp', name: 'lamp', transport: 'http', url: mcp.url, timeoutMs: 10000, protocolVersion: 'auto' });
  });
  after(async () => {
    await provider.close();
    await mcp.close();
    await fake.close();
  });

  it('sends the new list on the same connection, keeps the conversation, and the new tool can be called', async () => {
    const sources = [{ provider }];
    const handles: string[] = [];
    const live = await LiveSession.open(
      {
        client: createGeminiClient({ apiKey: KEY, baseUrl: fake.url }),
        systemInstruction: 'You control a lamp.',
        catalog: await buildCatalog(sources),
        executor: mcpExecutor(),
        secrets: [KEY],
        watchTools: (update) => watchServerTools(sources, update),
      },
      { resumable: (handle) => void handles.push(handle) },
    );
    try {
      const [session] = fake.live.sessions;
      assert.deepEqual(
        session.setup.tools[0].functionDeclarations.map((d: { name: string }) => d.name),
        ['lamp_on'],
      );
      tools.push({ name: 'lamp_off', description: 'Turns the lamp off.', inputSchema: object });
      await provider.listTools({ refresh: true }); // the refresh a list_changed (or Home Assistant's timer) starts
      await until('a context update', () => session.contextUpdates.length > 0, 5000);
      assert.deepEqual(
        session.contextUpdates[0].tools.tools[0].functionDeclarations.map((d: { name: string }) => d.name),
        ['lamp_on', 'lamp_off'],
      );
      await provider.listTools({ refresh: true }); // the same list again: nothing is sent
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(session.contextUpdates.length, 1);

      fake.live.script({ transcript: 'Lamp off.', calls: [{ name: 'lamp_off' }], text: 'Done.' });
      live.sendText('Lamp off.');
      await until('the new tool to run', () => ran.includes('lamp_off'), 5000);
      await until('the answer to go back', () => session.toolResponses.length === 1, 5000);
      assert.equal(fake.live.sessions.length, 1, 'no second connection');
      // The conversation goes on: after the turn, a newer point to resume from reaches the session.
      await until(
        'a resumption handle after the turn',
        () => session.handles.length >= 2 && handles.includes(session.handles[session.handles.length - 1]),
        5000,
      );
    } finally {
      live.close();
    }
  });
});
