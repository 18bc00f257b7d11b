// A real PostgreSQL server for the todo contract suite, found in this order:
//   1. TODO_TEST_DATABASE_URL, a server someone already runs (left as it is: tests only add rows
//      tagged with their own run id, never drop anything);
//   2. Debian's postgresql binaries (/usr/lib/postgresql/<version>/bin): a throwaway cluster in a
//      temp dir, on a free 127.0.0.1 port, removed afterwards. initdb refuses to run as root, so as
//      root the cluster is created and run as the `postgres` system user through runuser;
//   3. neither: the caller skips the PostgreSQL variant and prints the reason returned here.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PostgresForTests {
  url: string;
  /** Only for a cluster this helper started: stop and start it to make the database unavailable. */
  cluster?: { stop(): void; start(): void };
  dispose(): void;
}

export type PostgresLookup = { available: true; postgres: PostgresForTests } | { available: false; reason: string };

function findBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function systemUser(name: string): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    return undefined;
  }
}

export async function findPostgres(): Promise<PostgresLookup> {
  const given = process.env.TODO_TEST_DATABASE_URL;
  if (given) return { available: true, postgres: { url: given, dispose: () => undefined } };

  const bin = findBinDir();
  if (!bin) {
    return {
      available: false,
      reason: 'no TODO_TEST_DATABASE_URL and no /usr/lib/postgresql/*/bin/initdb (apt-get install postgresql)',
    };
  }
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? systemUser('postgres') : undefined;
  if (asRoot && !owner) return { available: false, reason: 'running as root and there is no `postgres` user to run initdb as' };

  // As root the cluster runs as `postgres`, which must be able to reach its directory: /tmp is
  // world-traversable, a TMPDIR under /root is not.
  const dir = mkdtempSync(join(asRoot ? '/tmp' : tmpdir(), 'todo-pg-'));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const dataDir = join(dir, 'data');
  const run = (tool: string, args: string[]) => {
    const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
    return execFileSync(command, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
  };
  const port = await freePort();
  // The Unix socket goes into our own dir: /var/run/postgresql may not exist or be writable.
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () => run('pg_ctl', ['-D', dataDir, '-o', serverOptions, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  const stop = () => run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '60', 'stop']);
  try {
    run('initdb', ['-D', dataDir, '-U', 'todo', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    start();
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const detail = (err as { stderr?: string }).stderr || (err as Error).message;
    return { available: false, reason: `could not start a throwaway PostgreSQL cluster: ${detail.trim()}` };
  }
  return {
    available: true,
    postgres: {
      url: `postgres://todo@127.0.0.1:${port}/postgres`,
      cluster: { stop: () => void stop(), start: () => void start() },
      dispose() {
        try {
          stop();
        } catch {
          // already stopped
        }
        rmSync(dir, { recursive: true, force: true });
      },
    },
  };
}
