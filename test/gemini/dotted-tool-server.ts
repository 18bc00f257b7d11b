// A small stdio MCP server with xiaozhi-style dotted tool names (as ESP32 firmware registers them,
// test/peers/xiaozhi-device/fixtures/device-tools.json), built with the official server SDK. Run with
// `node --import tsx dotted-tool-server.ts`. Each result names the tool it was called as, so a test
// sees which MCP name the declared (sanitised) name was mapped back to.
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const server = new McpServer({ name: 'otto-robot', version: '2.4.2' });

server.registerTool(
  'self.audio_speaker.set_volume',
  {
    description: 'Set the volume of the audio speaker.',
    inputSchema: z.object({ volume: z.number().int().min(0).max(100) }),
  },
  async ({ volume }) => ({ content: [{ type: 'text', text: JSON.stringify({ tool: 'self.audio_speaker.set_volume', volume }) }] }),
);

server.registerTool('self.get_device_status', { description: 'Current device status: volume, screen, battery.' }, async () => ({
  content: [{ type: 'text', text: JSON.stringify({ tool: 'self.get_device_status', audio_speaker: { volume: 40 } }) }],
}));

server.connect(new StdioServerTransport()).catch((err) => {
  process.stderr.write(String(err) + '\n');
  process.exit(1);
});
