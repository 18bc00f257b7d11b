// test/install: the package as a user gets it. `npm pack`, `npm install --omit=dev <tgz>` into a
// fresh user dir, the real red.js started from `/` with no GEMINI_API_KEY or HA_* in its
// environment, every example deployed through the admin API, results read from the debug feed.
// Runs once per runtime: Node 22 + Node-RED 4.1 and Node 24 + Node-RED 5 (the Home Assistant add-on).
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { skipBecause } from '../helpers/skip';
import { reply, startFakeGemini, type FakeGemini } from '../peers/fake-gemini';
import { startHomeAssistant, type HomeAssistantStandIn } from '../peers/home-assistant/server';
import { HA_GENERATIONS } from '../peers/home-assistant/fixtures';
import {
  diskSize,
  installFresh,
  packageCount,
  packContents,
  packOnce,
  removeDir,
  ROOT,
  runtimes,
  startInstalled,
  type InstalledNodeRed,
} from './installed-node-red';

const PACKAGE = 'node-red-contrib-mcp-gemini';
const OUR_TYPES = ['mcp-server', 'mcp-list-tools', 'mcp-call-tool', 'gemini-agent', 'esp32-mcp-in'];

type FlowNode = Record<string, any> & { id: string; type: string };

function example(name: string): FlowNode[] {
  return JSON.parse(readFileSync(join(ROOT, 'examples', `${name}.json`), 'utf8'));
}

/** Sets variables on an example's tab, as a user does in the tab's Environment Variables. */
function withTabEnv(flow: FlowNode[], env: Record<string, string>): FlowNode[] {
  return flow.map((n) => (n.type === 'tab' ? { ...n, env: Object.entries(env).map(([name, value]) => ({ name, value, type: 'str' })) } : n));
}

function errorText(m: { value: any; raw: any }): string {
  return JSON.stringify(m.value) + JSON.stringify(m.raw?.msg ?? '');
}

describe('install: the packed tarball', function () {
  this.timeout(120_000);

  it('holds no test, no .ts, no source map, only flows under examples/, icons once, and no main that does not resolve', () => {
    const { files, size, unpackedSize } = packContents();
    console.log(`    tarball: ${(size / 1024).toFixed(1)} kB, ${files.length} files, ${(unpackedSize / 1024).toFixed(1)} kB unpacked`);
    assert.deepEqual(
      files.filter((f) => /(^|\/)test\//.test(f)),
      [],
      'no tests',
    );
    assert.deepEqual(
      files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')),
      [],
      'no TypeScript sources',
    );
    assert.deepEqual(
      files.filter((f) => f.endsWith('.map')),
      [],
      'no source maps',
    );
    assert.deepEqual(
      files.filter((f) => f.startsWith('examples/') && !/^examples\/[^/]+\.json$/.test(f)),
      [],
      'examples/ holds flows only',
    );
    const icons = files.filter((f) => f.endsWith('.svg')).map((f) => f.split('/').pop());
    assert.deepEqual(
      icons.filter((n, i) => icons.indexOf(n) !== i),
      [],
      'each icon once',
    );
    assert.ok(files.includes('LICENSE'), 'LICENSE shipped');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    assert.match(readFileSync(join(ROOT, 'LICENSE'), 'utf8'), pkg.license === 'Apache-2.0' ? /Apache License\s+Version 2\.0/ : /./);
    if (pkg.main !== undefined) assert.ok(files.includes(pkg.main.replace(/^\.\//, '')), `main ${pkg.main} is in the tarball`);
    for (const file of Object.values(pkg['node-red'].nodes) as string[]) assert.ok(files.includes(file), `${file} is in the tarball`);
  });

  // npm resolves a README's relative links only against a named repository; this package names
  // none, so the README packed for the npm page (scripts/npm-readme.mjs, run by prepack) links
  // into the published package itself. Read with marked, as a renderer would, not with our regex.
  it('the README the npm page shows: every link and image works there (absolute, and a packed file when it points into the package)', async () => {
    const { files } = packContents();
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const { npmReadme, packageBase } = await import('../../scripts/npm-readme.mjs');
    const clone = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const shown = npmReadme(clone, pkg) as string;
    const { marked } = require('marked') as typeof import('marked');
    const hrefs: Array<{ kind: string; href: string }> = [];
    marked.walkTokens(marked.lexer(shown), (t: any) => {
      if (t.type === 'link' || t.type === 'image') hrefs.push({ kind: t.type, href: t.href });
    });
    assert.ok(hrefs.length >= 20, `the README's links: ${hrefs.length}`);
    assert.ok(
      hrefs.some((h) => h.kind === 'image'),
      'the screenshot is among them',
    );
    const base = packageBase(pkg) as string;
    const broken: string[] = [];
    for (const { href } of hrefs) {
      if (href.startsWith(base)) {
        const path = href.slice(base.length).split('#')[0];
        if (!files.includes(path)) broken.push(`${href}: ${path} is not in the tarball`);
      } else if (!/^(https?:|mailto:|#)/.test(href)) broken.push(`${href}: relative, and npm names no repository to resolve it against`);
    }
    assert.deepEqual(broken, []);
    // The clone's README keeps its relative links (they work on a checkout and on a code host).
    assert.match(clone, /\]\(docs\/images\/npm-start\.png\)/);
    // Palette users read the npm page: what the package does and how to install it from the palette
    // come first, the clone's two commands after, under their own heading. The clone's README opens
    // with the two commands.
    const blocks = (md: string) => marked.lexer(md).filter((t: any) => t.type !== 'space' && t.type !== 'html');
    const [title, intro, palette] = blocks(shown) as any[];
    assert.equal(title.type, 'heading');
    assert.match(intro.text, /^Node-RED nodes that put \*\*MCP tools\*\*/);
    assert.match(palette.text.replace(/\s+/g, ' '), /Manage palette > Install/);
    const commandsAt = blocks(shown).findIndex((t: any) => t.type === 'code' && /npm install && npm start/.test(t.text));
    assert.equal((blocks(shown)[commandsAt - 1] as any).text, 'Working on this package from a clone');
    const cloneBlocks = blocks(clone) as any[];
    assert.equal(cloneBlocks[1].type, 'code');
    assert.match(cloneBlocks[1].text, /^npm install && npm start[^\n]*\nnpm test /);
  });

  it('the published package.json carries what an installed package needs, and no scripts or devDependencies', () => {
    const tgz = packOnce();
    const packed = JSON.parse(execFileSync('tar', ['-xzOf', tgz, 'package/package.json'], { encoding: 'utf8' }));
    const clone = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    assert.deepEqual(Object.keys(packed), ['name', 'version', 'description', 'keywords', 'license', 'engines', 'files', 'node-red', 'dependencies']);
    for (const key of Object.keys(packed)) assert.deepEqual(packed[key], clone[key], key);
    assert.ok(packed.keywords.includes('xiaozhi'), 'palette and npm searches for xiaozhi find it');
  });

  it("prepack writes the published package.json and postpack puts the clone's back byte for byte", () => {
    const dir = mkdtempSync(join(tmpdir(), 'npm-manifest-'));
    try {
      copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
      const clone = readFileSync(join(dir, 'package.json'), 'utf8');
      const run = (mode: string) => execFileSync(process.execPath, [join(ROOT, 'scripts', 'npm-manifest.mjs'), mode], { cwd: dir });
      run('--write');
      const published = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      assert.equal(published.scripts, undefined);
      assert.equal(published.devDependencies, undefined);
      run('--write'); // a second prepack after a pack that died: starts from the clone's again
      assert.deepEqual(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')), published);
      run('--restore');
      assert.equal(readFileSync(join(dir, 'package.json'), 'utf8'), clone);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("prepack writes the npm README and postpack puts the clone's back byte for byte (and repairs a pack that died between)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'npm-readme-'));
    try {
      copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
      copyFileSync(join(ROOT, 'README.md'), join(dir, 'README.md'));
      const clone = readFileSync(join(dir, 'README.md'), 'utf8');
      const run = (mode: string) => execFileSync(process.execPath, [join(ROOT, 'scripts', 'npm-readme.mjs'), mode], { cwd: dir });
      run('--write');
      const packed = readFileSync(join(dir, 'README.md'), 'utf8');
      assert.notEqual(packed, clone);
      assert.ok(packed.includes('](https://cdn.jsdelivr.net/npm/node-red-contrib-mcp-gemini@'), 'absolute links in the packed README');
      run('--write'); // a second prepack after a pack that died: starts from the clone's README again
      assert.equal(readFileSync(join(dir, 'README.md'), 'utf8'), packed);
      run('--restore');
      assert.equal(readFileSync(join(dir, 'README.md'), 'utf8'), clone);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The floor runtime meets a Home Assistant from before 2026.9, the add-on's runtime (Node 24 +
// Node-RED 5) today's: both tool-name generations, at no extra install.
for (const runtime of runtimes()) {
  const generation = runtime.name.startsWith('Node 24') ? HA_GENERATIONS[HA_GENERATIONS.length - 1] : HA_GENERATIONS[0];
  describe(`install: ${runtime.name}, from the palette, Node-RED started in / (Home Assistant ${generation})`, function () {
    this.timeout(300_000);
    let userDir: string | undefined;
    let nr: InstalledNodeRed | undefined;
    let ha: HomeAssistantStandIn;
    let gemini: FakeGemini;
    let installedMb = 0;

    before(async function () {
      if (runtime.missing) skipBecause(this, `the install specs on ${runtime.name}`, runtime.missing);
      const started = Date.now();
      userDir = installFresh(packOnce());
      const modules = join(userDir, 'node_modules');
      installedMb = diskSize(modules) / 1048576;
      console.log(
        `    installed with --omit=dev in ${((Date.now() - started) / 1000).toFixed(1)} s: node_modules ${installedMb.toFixed(1)} MB, ${packageCount(modules)} packages`,
      );
      ha = await startHomeAssistant({ generation });
      gemini = await startFakeGemini();
      nr = await startInstalled(runtime, userDir);
    });
    after(async () => {
      await nr?.stop();
      await gemini?.close();
      await ha?.close();
      removeDir(userDir);
    });

    it('installs in at most 40 MB: the libraries are bundled, PGlite without its extension archives', () => {
      // A size, not a time: the same on every machine. It was 103 MB in 135 packages before the bundling.
      assert.ok(installedMb > 5 && installedMb <= 40, `node_modules is ${installedMb.toFixed(1)} MB`);
    });

    it('loads every node set of the installed package without errors', async () => {
      const res = await nr!.request('GET', '/nodes', undefined, { accept: 'application/json' });
      const ours = (res.body as any[]).filter((s) => s.module === PACKAGE);
      assert.ok(ours.length >= OUR_TYPES.length, JSON.stringify(res.body).slice(0, 500));
      for (const set of ours) assert.equal(set.err, undefined, `${set.id}: ${set.err}`);
      const types = ours.flatMap((s) => s.types);
      for (const t of OUR_TYPES) assert.ok(types.includes(t), `${t} registered: ${types}`);
      const version = await nr!.request('GET', '/settings');
      console.log(`    Node-RED ${version.body.version}`);
    });

    it("every node help's link to the package documentation opens offline, and so does every link and image in those pages", async () => {
      const allTypes = Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))['node-red'].nodes);
      const html = await (await fetch(`${nr!.url}/nodes`, { headers: { accept: 'text/html' } })).text();
      const helps = [...html.matchAll(/<script type="text\/html" data-help-name="([^"]+)">([\s\S]*?)<\/script>/g)].filter((m) => allTypes.includes(m[1]));
      assert.equal(helps.length, allTypes.length, 'a help per node');
      const start = new Set<string>();
      for (const [, type, body] of helps) {
        const local = [...body.matchAll(/href="([^"]+)"/g)].map((m) => m[1]).filter((h) => !/^(https?:|mailto:|#)/.test(h));
        assert.ok(local.length > 0, `${type}'s help links to the package documentation`);
        // Relative to the editor's page, wherever the editor is served (the add-on's ingress path too).
        for (const href of local) start.add(new URL(href, `${nr!.url}/`).href);
      }
      const seen = new Set<string>();
      const broken: string[] = [];
      const queue = [...start];
      while (queue.length) {
        const url = queue.shift()!.split('#')[0];
        if (seen.has(url)) continue;
        seen.add(url);
        const res = await fetch(url);
        if (res.status !== 200) {
          broken.push(`${url.replace(nr!.url, '')}: HTTP ${res.status}`);
          await res.arrayBuffer();
          continue;
        }
        if (!(res.headers.get('content-type') ?? '').startsWith('text/html')) {
          await res.arrayBuffer();
          continue;
        }
        const page = await res.text();
        for (const [, href] of page.matchAll(/(?:href|src)="([^"]+)"/g)) if (!/^(https?:|mailto:|#)/.test(href)) queue.push(new URL(href, url).href);
      }
      assert.deepEqual(broken, []);
      const images = [...seen].filter((u) => u.endsWith('.png')).length;
      console.log(`    help links: ${start.size} from the nodes' help, ${seen.size} pages and images opened, ${images} images, none broken`);
      assert.ok(seen.size >= 30 && images >= 5, `${seen.size} opened`);
    });

    it('deploys every example; getting-started shows its tool list and echo result offline', async () => {
      const names = readdirSync(join(ROOT, 'examples'))
        .filter((f) => f.endsWith('.json'))
        .map((f) => f.replace(/\.json$/, ''));
      const flows = names.flatMap((name) => {
        if (name === 'home-assistant') return withTabEnv(example(name), { HA_URL: new URL(ha.url).origin, HA_TOKEN: ha.token });
        if (name === 'todo-assistant') return withTabEnv(example(name), { GEMINI_API_KEY: gemini.apiKey, GEMINI_BASE_URL: gemini.url });
        return example(name);
      });
      await nr!.deploy(flows);
      const tools = await nr!.debug.next('gs-debug-tools', undefined, 60_000);
      const listed = (tools.value as any[]).map((t) => t.name);
      assert.ok(listed.includes('echo') && listed.includes('get-sum'), `tools: ${listed}`);
      const echo = await nr!.debug.next('gs-debug-echo');
      assert.match(JSON.stringify(echo.value), /Hello from Node-RED/);
      const missingTypes = nr!.log.filter((l) => /missing (node )?types|Waiting for missing/i.test(l));
      assert.deepEqual(missingTypes, []);
    });

    it('an mcp-server uses HA_URL and HA_TOKEN set on its tab', async () => {
      await nr!.inject('ha-inject-list');
      const listed = await nr!.debug.next('ha-debug-mcp');
      assert.deepEqual(
        (listed.value as any[]).map((t) => t.name),
        ha.tools.map((t) => t.name),
        `the ${generation} stand-in's tools`,
      );
      assert.ok(
        ha.requests.some((r) => r.rpcMethod === 'tools/list' && r.status === 200),
        'the request reached the stand-in',
      );
    });

    it('the todo assistant creates and lists a todo; its data lives under the user dir', async () => {
      let created = '';
      gemini.script(
        reply.call('create_todo', { title: 'water the plants', priority: 'high' }),
        (req) => {
          const contents = req.body.contents as any[];
          created = contents[contents.length - 1].parts[0].functionResponse.response.output.todo_id;
          return reply.call('list_todos', { status: 'all' });
        },
        (req) => {
          const contents = req.body.contents as any[];
          const listed = contents[contents.length - 1].parts[0].functionResponse.response.output;
          assert.ok(
            listed.todos.some((t: any) => t.todo_id === created),
            JSON.stringify(listed),
          );
          return reply.text('You have one todo: water the plants.');
        },
      );
      await nr!.inject('ta-inject-add');
      const answer = await nr!.debug.next('ta-debug-answer', undefined, 120_000);
      assert.equal(answer.value, 'You have one todo: water the plants.');
      assert.ok(created, 'create_todo returned an id');
      assert.ok(existsSync(join(userDir!, 'mcp-gemini', 'todo')), 'PGlite data under <userDir>/mcp-gemini/todo');
    });

    it('examples that need an absent service fail with an error naming what is missing', async () => {
      await nr!.inject('hag-inject');
      const agent = await nr!.debug.next('hag-errors', undefined, 60_000);
      assert.match(errorText(agent), /Gemini API key|homeassistant\.local/, errorText(agent));
      await nr!.inject('ms-inject-list');
      const ha = await nr!.debug.next('ms-debug-errors', (m) => /homeassistant\.local/.test(errorText(m)), 60_000);
      assert.match(errorText(ha), /homeassistant\.local:8123/);
    });
  });
}
