// Manual runs: `npx tsx test/peers/home-assistant/cli.ts --port 8123 [--token T]` starts the
// stand-in on 127.0.0.1 and prints its URL and token; Ctrl-C stops it.
import { parseArgs } from 'node:util';
import { startHomeAssistant } from './server';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '8123' }, token: { type: 'string' } } });
  const ha = await startHomeAssistant({ port: Number(values.port), token: values.token });
  process.stdout.write(`Home Assistant MCP stand-in: ${ha.url}\nBearer token: ${ha.token}\n`);
  const stop = (): void => void ha.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
