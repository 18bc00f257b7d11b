// An MCP stdio server meant to be started through `sh -c` (see index.ts): it spawns a grandchild
// that ignores SIGTERM, and it keeps running after stdin closes because that child keeps its event
// loop alive, like real servers that ignore EOF. Its pid, the shell's and the grandchild's land in
// the file named by STUBBORN_PID_FILE so a test can check by pid that none survives.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const pidFile = process.env.STUBBORN_PID_FILE;
if (pidFile) appendFileSync(pidFile, `server ${process.pid}\n`);

const grandchild = spawn(process.execPath, [join(__dirname, 'grandchild.cjs')], { stdio: 'ignore', env: process.env });

const server = new Server({ name: 'stubborn-stdio', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler('tools/list', () => ({
  tools: [
    {
      name: 'pid',
      description: 'Returns the pids of this server, its parent shell and its SIGTERM-ignoring grandchild.',
      inputSchema: { type: 'object', properties: {} },
    },
  ],
}));
server.setRequestHandler('tools/call', (request) => {
  if (request.params.name !== 'pid') {
    return { content: [{ type: 'text', text: `Unknown tool: ${request.params.name}` }], isError: true };
  }
  const pids = { shell: process.ppid, server: process.pid, grandchild: grandchild.pid };
  return { content: [{ type: 'text', text: JSON.stringify(pids) }], structuredContent: pids };
});

void server.connect(new StdioServerTransport());
