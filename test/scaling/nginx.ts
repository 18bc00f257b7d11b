// Debian's nginx, started by a test on a free loopback port with a configuration of its own (no
// system files, no root needed beyond what nginx itself asks for), stopped by the test.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NGINX = '/usr/sbin/nginx';
/** Debian builds the stream (TCP) module as a dynamic module of its own package. */
export const STREAM_MODULE = '/usr/lib/nginx/modules/ngx_stream_module.so';
export const APT_LINE = 'apt-get install -y nginx libnginx-mod-stream';

/** Why nginx cannot run these tests here, or undefined when it can. */
export function nginxMissing(options: { stream?: boolean } = {}): string | undefined {
  if (!existsSync(NGINX)) return `nginx is not installed (${APT_LINE})`;
  if (options.stream && !existsSync(STREAM_MODULE)) return `nginx's stream module is not installed (${APT_LINE})`;
  return undefined;
}

export interface Nginx {
  /** nginx's error log so far (failed upstreams are reported there). */
  errors(): string;
  stop(): Promise<void>;
}

/**
 * Starts nginx in the foreground with `http` and (optionally) `stream` blocks; both are written
 * into a temporary prefix that holds the pid file, the logs and the temp paths.
 */
export async function startNginx(blocks: { http?: string; stream?: string }): Promise<Nginx> {
  const prefix = mkdtempSync(join(tmpdir(), 'nginx-test-'));
  mkdirSync(join(prefix, 'logs'));
  mkdirSync(join(prefix, 'tmp'));
  const root = process.getuid?.() === 0;
  const conf = [
    blocks.stream ? `load_module ${STREAM_MODULE};` : '',
    // As root nginx would hand its workers to "nobody", who cannot enter the temporary prefix.
    root ? 'user root;' : '',
    'worker_processes 1;',
    `pid ${prefix}/nginx.pid;`,
    `error_log ${prefix}/logs/error.log warn;`,
    'events { worker_connections 4096; }',
    blocks.http
      ? `http {
  access_log off;
  client_body_temp_path ${prefix}/tmp/body;
  proxy_temp_path ${prefix}/tmp/proxy;
  fastcgi_temp_path ${prefix}/tmp/fastcgi;
  uwsgi_temp_path ${prefix}/tmp/uwsgi;
  scgi_temp_path ${prefix}/tmp/scgi;
${blocks.http}
}`
      : '',
    blocks.stream ? `stream {\n${blocks.stream}\n}` : '',
  ].join('\n');
  const confFile = join(prefix, 'nginx.conf');
  writeFileSync(confFile, conf);
  const check = spawnSync(NGINX, ['-t', '-p', prefix, '-c', confFile], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx refused the configuration:\n${check.stderr}\n${conf}`);
  const child: ChildProcess = spawn(NGINX, ['-p', prefix, '-c', confFile, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  // Up when the pid file exists (nginx writes it after binding its ports).
  const deadline = Date.now() + 10_000;
  while (!existsSync(join(prefix, 'nginx.pid'))) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`nginx did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const errorLog = join(prefix, 'logs', 'error.log');
  return {
    errors: () => (existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : '') + stderr,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
