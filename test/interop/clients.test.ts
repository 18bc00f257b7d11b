// examples/expose-a-flow-as-a-tool.json deployed into a real Node-RED after its set-up (MCP_TOKEN
// set on its tab, as its comment asks), then used by the MCP clients our users run instead of ours
// (its tools, its prompt, its resource and its skill's files):
// the MCP Inspector CLI and Gemini CLI (pinned in test/tools.json), each passing the bearer header
// a user configures, and each meeting the same 401 without it.
import assert from 'node:assert/strict';
import { readExample, startNodeRed, type FlowNode, type NodeRedProcess } from '../helpers/node-red';
import { skipBecause } from '../helpers/skip';
import { geminiMcpList, inspector, interopMissing, interopVersions } from './clients';

const TOKEN = 'interop-token-4f1c9a';

/** The example with the tab's MCP_TOKEN set (a credential-type variable). */
function exampleAfterSetUp(): FlowNode[] {
  return readExample('expose-a-flow-as-a-tool').map((n) => (n.type === 'tab' ? { ...n, credentials: { MCP_TOKEN: TOKEN } } : n));
}

const AUTH = ['--header', `Authorization: Bearer ${TOKEN}`];

async function untilMounted(nr: NodeRedProcess, path: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while ((await fetch(`${nr.url}${path}`, { method: 'POST' })).status === 404) {
    if (Date.now() > deadline) throw new Error(`${path} was not mounted within 15 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('interop: third-party MCP clients against mcp-endpoint', function () {
  this.timeout(120_000);
  let nr: NodeRedProcess | undefined;
  let url: string;

  before(async function () {
    const missing = interopMissing();
    if (missing) skipBecause(this, 'the Inspector CLI and Gemini CLI specs', missing);
    const v = interopVersions();
    console.log(`    MCP Inspector ${v.inspector}, Gemini CLI ${v.gemini}`);
    nr = await startNodeRed();
    await nr.deploy(exampleAfterSetUp());
    await untilMounted(nr, '/mcp');
    url = `${nr.url}/mcp`;
  });
  after(async () => {
    await nr?.stop();
  });

  describe('MCP Inspector CLI', () => {
    it('lists the flow tools (tools/list)', async () => {
      const res = await inspector(url, ['--method', 'tools/list', ...AUTH]);
      assert.equal(res.code, 0, res.stderr);
      assert.deepEqual(
        res.json.tools.map((t: any) => t.name),
        ['read_temperature', 'toggle_lamp'],
      );
      assert.deepEqual(res.json.tools[0].inputSchema.properties.room.enum, ['living_room', 'bedroom']);
    });

    it('calls a flow tool and gets its structured answer (tools/call)', async () => {
      let res = await inspector(url, ['--method', 'tools/call', '--tool-name', 'read_temperature', '--tool-arg', 'room=bedroom', ...AUTH]);
      // The example's inject fills the readings 0.1 s after the deploy: retry briefly until it has.
      for (let i = 0; i < 20 && res.json?.isError; i++) {
        await new Promise((r) => setTimeout(r, 250));
        res = await inspector(url, ['--method', 'tools/call', '--tool-name', 'read_temperature', '--tool-arg', 'room=bedroom', ...AUTH]);
      }
      assert.equal(res.code, 0, res.stderr + res.stdout);
      assert.deepEqual(res.json.structuredContent, { room: 'bedroom', celsius: 19.2 });
      assert.deepEqual(JSON.parse(res.json.content[0].text), { room: 'bedroom', celsius: 19.2 });
    });

    it('shows an invalid enum argument as a tool error naming the allowed values', async () => {
      const res = await inspector(url, ['--method', 'tools/call', '--tool-name', 'toggle_lamp', '--tool-arg', 'lamp=garage', ...AUTH]);
      assert.notEqual(res.code, 0, 'the Inspector exits non-zero on isError');
      assert.equal(res.json.isError, true);
      assert.match(res.json.content[0].text, /lamp: must be one of \["desk","porch"\]/);
    });

    it('is refused without the token and lists with the right Authorization header', async () => {
      const refused = await inspector(url, ['--method', 'tools/list']);
      assert.notEqual(refused.code, 0);
      assert.equal(refused.json?.tools, undefined);
      assert.match(refused.stdout + refused.stderr, /401|Unauthorized|auth/i);
      const wrong = await inspector(url, ['--method', 'tools/list', '--header', 'Authorization: Bearer not-the-token']);
      assert.notEqual(wrong.code, 0);
      const listed = await inspector(url, ['--method', 'tools/list', ...AUTH]);
      assert.equal(listed.code, 0, listed.stderr);
      assert.deepEqual(
        listed.json.tools.map((t: any) => t.name),
        ['read_temperature', 'toggle_lamp'],
      );
    });
  });

  describe('MCP Inspector CLI: the prompt and the resource the flows serve', () => {
    it('lists the prompt and gets it with its argument (prompts/list, prompts/get)', async () => {
      const listed = await inspector(url, ['--method', 'prompts/list', ...AUTH]);
      assert.equal(listed.code, 0, listed.stderr);
      assert.deepEqual(
        listed.json.prompts.map((p: any) => [p.name, p.arguments]),
        [['check_a_room', [{ name: 'room', required: true }]]],
      );
      const got = await inspector(url, ['--method', 'prompts/get', '--prompt-name', 'check_a_room', '--prompt-args', 'room=bedroom', ...AUTH]);
      assert.equal(got.code, 0, got.stderr + got.stdout);
      assert.equal(got.json.messages[0].role, 'user');
      assert.match(got.json.messages[0].content.text, /^Read the temperature of the bedroom with read_temperature\./);
      const missing = await inspector(url, ['--method', 'prompts/get', '--prompt-name', 'check_a_room', ...AUTH]);
      assert.notEqual(missing.code, 0);
      assert.match(missing.stdout + missing.stderr, /check_a_room needs room/);
    });

    it('lists the resource and reads it as JSON (resources/list, resources/read)', async () => {
      const listed = await inspector(url, ['--method', 'resources/list', ...AUTH]);
      assert.equal(listed.code, 0, listed.stderr);
      assert.deepEqual(
        listed.json.resources.map((r: any) => [r.uri, r.mimeType]),
        // The flow's resource, then the files of its skill (a skill's files are resources too).
        [
          ['house://temperatures', 'application/json'],
          ['skill://lamp-care/SKILL.md', 'text/markdown'],
          ['skill://lamp-care/references/rooms.md', 'text/markdown'],
        ],
      );
      const read = await inspector(url, ['--method', 'resources/read', '--uri', 'house://temperatures', ...AUTH]);
      assert.equal(read.code, 0, read.stderr + read.stdout);
      assert.equal(read.json.contents[0].mimeType, 'application/json');
      assert.deepEqual(JSON.parse(read.json.contents[0].text), { living_room: 21.5, bedroom: 19.2 });
    });
  });

  describe('Gemini CLI', () => {
    it('`gemini mcp list` reports the endpoint Connected and a wrong path Disconnected', async () => {
      const res = await geminiMcpList({
        nodered: { httpUrl: url, headers: { Authorization: `Bearer ${TOKEN}` } },
        wrongpath: { httpUrl: `${nr!.url}/not-mcp`, headers: { Authorization: `Bearer ${TOKEN}` } },
      });
      // Gemini CLI prints its report on stderr.
      const report = res.stdout + res.stderr;
      assert.equal(res.code, 0, report);
      assert.match(report, /nodered: .*\/mcp \(http\) - Connected/);
      assert.match(report, /wrongpath: .*\/not-mcp \(http\) - Disconnected/);
    });

    it('connects to the token endpoint only with the header in its settings', async () => {
      const res = await geminiMcpList({
        withtoken: { httpUrl: url, headers: { Authorization: `Bearer ${TOKEN}` } },
        notoken: { httpUrl: url },
      });
      const report = res.stdout + res.stderr;
      assert.match(report, /withtoken: .* - Connected/);
      assert.match(report, /notoken: .* - (Disconnected|Unauthenticated|Needs authentication)/i);
    });
  });
});
