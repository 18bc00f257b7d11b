// The asking server (asking-server.ts) on stdio, where a 2025-era session keeps the client's
// capabilities and the server can send elicitation/create while a call is open. Run with
// `node --import tsx asking-stdio.ts`.
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { askingServer } from './asking-server';

askingServer()
  .connect(new StdioServerTransport())
  .catch((err) => {
    process.stderr.write(String(err) + '\n');
    process.exit(1);
  });
