// Starting the fastmcp todo peer (server.ts beside this file): as a stdio command line for an
// mcp-server node, or as a Streamable HTTP server on a free loopback port that a test stops.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../free-port';

const ENTRY = join(__dirname, 'server.ts');

/** The command line an `mcp-server` node spawns; the child appends "ready <pid>" to `pidLog`. */
export function fastmcpStdio(pidLog: string): { command: string; args: string[] } {
  return { command: process.execPath, args: ['--import', 'tsx', ENTRY, 'stdio', pidLog] };
}

export interface FastmcpHttp {
  url: string;
  stop(): Promise<void>;
}

export async function startFastmcpHttp(): Promise<FastmcpHttp> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, 'http', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fastmcp peer did not start within 20 s:\n${output}`)), 20_000);
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`listening ${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`fastmcp peer exited with ${code}:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
