// The call-tool dialog and the agent's Approval tab against both Home Assistant generations in
// Chromium (real Node-RED): a tool name written for the other generation shows the full name it will
// call, a bare name that fits several tools (two LLM APIs served at once) lists them, the picker shows
// 2026.10's titles beside the names, and "every tool not marked read-only" is saved for the runtime.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { editorSuiteHooks, launchEditorOn, repoRoot, skipWithoutChromium, type EditorBrowser, openNodeDialog } from './chromium-editor';
import { startHomeAssistant, type HomeAssistantStandIn } from '../peers/home-assistant';
import { startNodeRed, type NodeRedProcess } from '../helpers/node-red';

declare const RED: any; // the editor's global, inside page.evaluate callbacks
declare const $: any;

describe('tool names across Home Assistant generations in the editor (Chromium, real Node-RED)', function () {
  this.timeout(180000);
  let editor: EditorBrowser | undefined;
  let page: Page;
  let nodeRed: NodeRedProcess | undefined;
  const has: HomeAssistantStandIn[] = [];

  before(async function () {
    skipWithoutChromium(this, 'tool-names editor browser test');
    const [older, today, merged] = [
      await startHomeAssistant({ generation: 'pre-2026.9' }),
      await startHomeAssistant({ generation: '2026.10' }),
      await startHomeAssistant({ generation: '2026.10', apis: ['assist', 'management'] }),
    ];
    has.push(older, today, merged);
    nodeRed = await startNodeRed({ installed: { packageDir: process.env.EDITOR_TEST_PACKAGE_DIR || repoRoot } });
    const server = (id: string, name: string, ha: HomeAssistantStandIn) => ({
      id,
      type: 'mcp-server',
      name,
      transport: 'http',
      url: ha.url,
      credentials: { token: ha.token },
    });
    const call = (id: string, srv: string, tool: string, y: number) => ({
      id,
      type: 'mcp-call-tool',
      z: 'tab1',
      x: 200,
      y,
      server: srv,
      tool,
      wires: [[], []],
    });
    const flows = [
      { id: 'tab1', type: 'tab', label: 'Renames' },
      server('older', 'HA before 2026.9', older),
      server('today', 'HA 2026.10', today),
      server('merged', 'HA two LLM APIs', merged),
      call('callOld', 'older', 'intent__HassTurnOn', 80),
      call('callNew', 'today', 'HassTurnOn', 160),
      call('callMerged', 'merged', 'HassTurnOn', 240),
      { id: 'agent1', type: 'gemini-agent', z: 'tab1', x: 420, y: 80, model: 'gemini-3.5-flash', servers: [{ server: 'today' }], wires: [[], [], []] },
    ];
    await nodeRed.deploy(flows);
    editor = await launchEditorOn(nodeRed, 'tool-names-editor', ['agent1']);
    page = editor.page;
  });
  editorSuiteHooks(
    () => ({ editor, nodeRed }),
    async () => {
      for (const ha of has) await ha.close();
    },
  );

  const openEditor = (nodeId: string) => openNodeDialog(page, nodeId);
  async function closeDialog(button: 'ok' | 'cancel'): Promise<void> {
    await page.click(`#node-dialog-${button}`);
    await page.locator('#node-dialog-ok').waitFor({ state: 'detached' });
  }
  const description = () => page.locator('#mcp-call-tool-description').innerText();

  it('a 2026.9+ name on an older Home Assistant: the dialog names the old tool it calls, and keeps what was written', async () => {
    await openEditor('callOld');
    await page.waitForFunction(() => /Called as HassTurnOn/.test($('#mcp-call-tool-description').text()), undefined, { timeout: 30000 });
    assert.match(await description(), /^Called as HassTurnOn \(the server's full name\)\. Turns on/);
    assert.equal(await page.locator('#node-input-tool').evaluate((e) => e.classList.contains('input-error')), false);
    assert.equal(await page.inputValue('#node-input-tool'), 'intent__HassTurnOn');
    await closeDialog('cancel');
  });

  it('an old name on 2026.10 resolves to intent__HassTurnOn; the picker shows titles beside names', async () => {
    await openEditor('callNew');
    await page.waitForFunction(() => /Called as intent__HassTurnOn/.test($('#mcp-call-tool-description').text()), undefined, { timeout: 30000 });
    const label = await page.locator('#mcp-call-tool-select option[value="llm__GetDateTime"]').innerText();
    assert.equal(label, 'llm__GetDateTime — Get date and time');
    assert.equal(await page.locator('#mcp-call-tool-select option[value="intent__HassTurnOn"]').innerText(), 'intent__HassTurnOn');
    await closeDialog('cancel');
  });

  it('a bare name that fits two tools is flagged with both candidates', async () => {
    await openEditor('callMerged');
    await page.waitForFunction(() => /fits several tools/.test($('#mcp-call-tool-description').text()), undefined, { timeout: 30000 });
    assert.equal(await description(), '"HassTurnOn" fits several tools: assist__intent__HassTurnOn, management__intent__HassTurnOn. Pick the one you mean.');
    assert.equal(await page.locator('#node-input-tool').evaluate((e) => e.classList.contains('input-error')), true);
    await closeDialog('cancel');
  });

  it("the agent's Approval tab saves 'every tool not marked read-only'", async () => {
    await openEditor('agent1');
    await page.locator('#gemini-agent-tabs a[href="#gemini-agent-tab-approval"]').click();
    await page.check('#node-input-approveNotReadOnly');
    await closeDialog('ok');
    assert.equal(await page.evaluate(() => RED.nodes.node('agent1').approveNotReadOnly), true);
  });
});
