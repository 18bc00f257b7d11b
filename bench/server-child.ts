// A benchmark's server in a process of its own, so its work is not on the bench's event loop: the
// script (run through tsx) sends `{url}` over IPC once it listens; close() ends it. `env`: variables
// added to the child's environment.
import { fork } from 'node:child_process';

export async function forkServer(script: string, env: Record<string, string> = {}): Promise<{ url: string; pid: number; close(): void }> {
  const child = fork(script, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, ...env } });
  const url = await new Promise<string>((res, rej) => {
    child.once('message', (m: any) => res(m.url));
    child.once('exit', (code) => rej(new Error(`${script} exited (${code}) before it listened`)));
  });
  return { url, pid: child.pid!, close: () => child.kill() };
}
