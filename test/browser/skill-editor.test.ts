// The mcp-skill dialog in Chromium against a real Node-RED: the node sits in the MCP palette as
// "skill", a skill written in its dialog (name, description, instructions and a file row) and
// deployed with the editor's own button is what the MCP SDK's skills client lists and reads,
// verified against its digests; a name that breaks the extension's rule is marked before deploy.
// gemini-agent's server rows keep the skills typed into them.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import {
  editorSuiteHooks,
  launchEditorOn,
  repoRoot,
  skipWithoutChromium,
  type EditorBrowser,
  openNodeDialog,
  saveNodeDialog,
  deployFromEditor,
} from './chromium-editor';
import { startNodeRed, type NodeRedProcess } from '../helpers/node-red';
import { stepByStep } from '../helpers/step-by-step';
import { connectWhenStarted } from '../helpers/bearer-requests';
import { retrying } from '../helpers/wait';

declare const RED: any; // the editor's global, inside page.evaluate callbacks
declare const $: any;

const TOKEN = 'tok-skill-dialog-71b2';

describe('mcp-skill dialog in Chromium (real Node-RED)', function () {
  this.timeout(180000);
  stepByStep(this); // each step builds on the one before
  let editor: EditorBrowser | undefined;
  let page: Page;
  let nodeRed: NodeRedProcess | undefined;

  before(async function () {
    skipWithoutChromium(this, 'mcp-skill dialog browser test');
    nodeRed = await startNodeRed({ installed: { packageDir: process.env.EDITOR_TEST_PACKAGE_DIR || repoRoot } });
    await nodeRed.deploy([
      { id: 'tab1', type: 'tab', label: 'Skills' },
      { id: 'ep', type: 'mcp-endpoint', name: 'house', path: '/mcp', credentials: { tokens: TOKEN } },
      { id: 'srv', type: 'mcp-server', name: 'house', transport: 'http', url: 'http://127.0.0.1:1/mcp' },
      { id: 'sk', type: 'mcp-skill', z: 'tab1', x: 160, y: 80, endpoint: 'ep', name: 'draft', description: 'd', text: 't' },
      { id: 'agent', type: 'gemini-agent', z: 'tab1', x: 160, y: 160, servers: [{ server: 'srv' }], wires: [[], [], []] },
    ]);
    editor = await launchEditorOn(nodeRed, 'skill-dialog', ['sk']);
    page = editor.page;
  });
  editorSuiteHooks(() => ({ editor, nodeRed }));

  it('the palette shows the skill node under MCP', async () => {
    const label = await page.evaluate(() => [
      RED.nodes.getType('mcp-skill').category,
      $('.red-ui-palette-node[data-palette-type="mcp-skill"] .red-ui-palette-label').text().replace(/\s+/g, ' ').trim(),
    ]);
    assert.deepEqual(label, ['MCP', 'skill']);
  });

  it('a name with capitals or spaces is marked; a skill with a file row is saved', async () => {
    await openNodeDialog(page, 'sk');
    await page.fill('#node-input-name', 'Lamp Care');
    await page.locator('#node-input-name').blur();
    await page.waitForFunction(() => $('#node-input-name').hasClass('input-error'), undefined, { timeout: 10000 });
    await page.fill('#node-input-name', 'lamp-care');
    await page.fill('#node-input-description', 'How to switch the lamps of this house');
    await page.fill('#node-input-text', '# Lamps\n\nRoom names are in references/rooms.md.');
    await page.locator('.node-input-files-container-row .red-ui-editableList-addButton').click();
    await page.locator('.mcp-skill-file-path').last().fill('references/rooms.md');
    await page.locator('.mcp-skill-file-text').last().fill('kitchen\nhall\n');
    await page.locator('#node-input-name').blur();
    await page.waitForFunction(() => !$('#node-input-name').hasClass('input-error'), undefined, { timeout: 10000 });
    await saveNodeDialog(page);
    assert.deepEqual(await page.evaluate(() => RED.nodes.node('sk').files), [{ path: 'references/rooms.md', text: 'kitchen\nhall\n' }]);
  });

  it("gemini-agent: a server row's skills are saved with the row", async () => {
    await openNodeDialog(page, 'agent');
    await page.locator('#gemini-agent-tabs a[href="#gemini-agent-tab-tools"]').click();
    await page.locator('.node-input-entry-skills').first().fill('lamp-care, cleaning');
    await saveNodeDialog(page);
    assert.equal(await page.evaluate(() => RED.nodes.node('agent').servers[0].skills), 'lamp-care, cleaning');
  });

  it('deployed with the editor: the SDK skills client lists the skill and verifies both files', async () => {
    await deployFromEditor(page, { incomplete: true }); // the agent has no API key here
    const client = await connectWhenStarted(new URL('/mcp', nodeRed!.url).href, TOKEN, 'skill-dialog-test');
    try {
      const skills = new SkillsClient(client);
      // The route is back before the skill's digests are: it is listed a moment later.
      const listed = await retrying(async () => {
        const found = await skills.list();
        if (!found.skills.length) throw new Error('the skill is not served yet');
        return found;
      });
      assert.deepEqual(
        listed.skills.map((s) => [s.uri, s.frontmatter.description]),
        [['skill://lamp-care/SKILL.md', 'How to switch the lamps of this house']],
      );
      const manifest = await skills.read(listed.skills[0]);
      assert.equal(manifest.body?.trim(), '# Lamps\n\nRoom names are in references/rooms.md.');
      const rooms = await skills.read(listed.skills[0], 'references/rooms.md');
      assert.deepEqual([rooms.verified, rooms.text], [true, 'kitchen\nhall\n']);
    } finally {
      await client.close();
    }
  });
});
