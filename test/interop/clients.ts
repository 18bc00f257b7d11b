// The third-party MCP clients our users run, as installed by scripts/test-tools.mjs into
// .tools/interop (versions in test/tools.json): the MCP Inspector's CLI and Gemini CLI, each run as
// a user runs it, in a throwaway HOME so neither reads nor writes the developer's own settings.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TOOLS = join(__dirname, '..', '..', '.tools', 'interop', 'node_modules');
// The Node 24 of .tools/nr5 (the add-on's runtime): one Node binary per version in .tools (test/tools.json).
const NODE = join(__dirname, '..', '..', '.tools', 'nr5', 'node_modules', '.bin', 'node');
const INSPECTOR = join(TOOLS, '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
const GEMINI = join(TOOLS, '@google', 'gemini-cli', 'bundle', 'gemini.js');

export const interopVersions = (): { inspector: string; gemini: string } => ({
  inspector: JSON.parse(readFileSync(join(TOOLS, '@modelcontextprotocol', 'inspector', 'package.json'), 'utf8')).version,
  gemini: JSON.parse(readFileSync(join(TOOLS, '@google', 'gemini-cli', 'package.json'), 'utf8')).version,
});

/** Why the clients cannot run here, or undefined when they can. */
export function interopMissing(): string | undefined {
  for (const file of [NODE, INSPECTOR, GEMINI]) if (!existsSync(file)) return `${file} is missing: npm test installs it (node scripts/test-tools.mjs)`;
  return undefined;
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function run(args: string[], options: { cwd: string; home: string }): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      NODE,
      args,
      // No proxy, no update check reaching out: the machine is offline, and a client must not hang on it.
      { cwd: options.cwd, env: { PATH: process.env.PATH, HOME: options.home, NO_COLOR: '1', CI: '1' }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: typeof err?.code === 'number' ? err.code : err ? -1 : 0, stdout, stderr }),
    );
  });
}

/** A throwaway HOME for one client run. */
function withHome<T>(body: (home: string) => Promise<T>): Promise<T> {
  const home = mkdtempSync(join(tmpdir(), 'mcp-interop-home-'));
  return body(home).finally(() => rmSync(home, { recursive: true, force: true }));
}

/** `mcp-inspector --cli <url> --transport http --method …`; JSON answers come parsed. */
export function inspector(url: string, args: string[]): Promise<CliRun & { json?: any }> {
  return withHome(async (home) => {
    const result = await run([INSPECTOR, '--cli', url, '--transport', 'http', ...args], { cwd: home, home });
    let json: any;
    try {
      json = JSON.parse(result.stdout);
    } catch {
      /* not JSON: the caller looks at the text */
    }
    return { ...result, json };
  });
}

/**
 * `mcp-inspector --cli <url> … --callback-url <callback>` against a server that needs OAuth: the CLI
 * registers, prints "Please navigate to: <authorization URL>" and waits on its own callback server.
 * `signIn` gets that URL and plays the person's part; the run then ends as the CLI's answer.
 * MCP_AUTO_OPEN_ENABLED=true is the CLI's documented switch for a run without a terminal; BROWSER
 * points xdg-open at `true`, so no browser is started.
 */
export function inspectorSigningIn(
  url: string,
  args: string[],
  callbackUrl: string,
  signIn: (authorizationUrl: string) => Promise<void>,
): Promise<CliRun & { json?: any }> {
  return withHome(
    (home) =>
      new Promise((resolve, reject) => {
        const child = spawn(NODE, [INSPECTOR, '--cli', url, '--transport', 'http', '--callback-url', callbackUrl, ...args], {
          cwd: home,
          env: { PATH: process.env.PATH, HOME: home, NO_COLOR: '1', CI: '1', MCP_AUTO_OPEN_ENABLED: 'true', BROWSER: 'true' },
        });
        let stdout = '';
        let stderr = '';
        let started = false;
        const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
        child.stdout.on('data', (d: Buffer) => (stdout += d));
        child.stderr.on('data', (d: Buffer) => {
          stderr += d;
          const at = /Please navigate to: (\S+)/.exec(stderr)?.[1];
          if (at && !started) {
            started = true;
            signIn(at).catch((err) => {
              child.kill('SIGKILL');
              reject(err);
            });
          }
        });
        child.on('close', (code) => {
          clearTimeout(timer);
          let json: any;
          try {
            json = JSON.parse(stdout);
          } catch {
            /* not JSON: the caller looks at the text */
          }
          resolve({ code: code ?? -1, stdout, stderr, json });
        });
      }),
  );
}

/** `gemini mcp list` with a settings file naming these servers (httpUrl entries). */
export function geminiMcpList(servers: Record<string, { httpUrl: string; headers?: Record<string, string> }>): Promise<CliRun> {
  return withHome(async (home) => {
    mkdirSync(join(home, '.gemini'));
    // Folder trust off: otherwise Gemini CLI ignores a workspace it has not been told to trust.
    writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({ mcpServers: servers, security: { folderTrust: { enabled: false } } }));
    return run([GEMINI, 'mcp', 'list'], { cwd: home, home });
  });
}

/**
 * `gemini -p <prompt> --yolo --output-format json` with these MCP servers, talking to a fake Gemini
 * (GOOGLE_GEMINI_BASE_URL, the CLI's own switch for a gateway) with its API key: Gemini CLI as a
 * user runs it headless, every tool call allowed (the person's approval is Node-RED's own).
 */
export function geminiPrompt(
  prompt: string,
  servers: Record<string, { httpUrl: string; headers?: Record<string, string> }>,
  gemini: { url: string; apiKey: string },
): Promise<CliRun & { json?: any }> {
  return withHome(async (home) => {
    mkdirSync(join(home, '.gemini'));
    writeFileSync(
      join(home, '.gemini', 'settings.json'),
      JSON.stringify({ mcpServers: servers, security: { folderTrust: { enabled: false }, auth: { selectedType: 'gemini-api-key' } } }),
    );
    const result = await new Promise<CliRun>((resolve) => {
      execFile(
        NODE,
        [GEMINI, '-p', prompt, '--yolo', '--output-format', 'json'],
        {
          cwd: home,
          env: { PATH: process.env.PATH, HOME: home, NO_COLOR: '1', CI: '1', GEMINI_API_KEY: gemini.apiKey, GOOGLE_GEMINI_BASE_URL: gemini.url },
          timeout: 120_000,
        },
        (err, stdout, stderr) => resolve({ code: typeof err?.code === 'number' ? err.code : err ? -1 : 0, stdout, stderr }),
      );
    });
    let json: any;
    try {
      json = JSON.parse(result.stdout);
    } catch {
      /* not JSON: the caller looks at the text */
    }
    return { ...result, json };
  });
}
