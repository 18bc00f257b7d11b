// The mcp-prompt and mcp-resource dialogs and the gemini-agent's System prompt and Approval fields
// in Chromium against a real Node-RED and the Home Assistant stand-in: the dropdowns list what the
// deployed server offers (through GET /mcp-server/:id/prompts and /resources), and what the dialog
// saves is what the runtime reads.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { editorSuiteHooks, launchEditorOn, repoRoot, skipWithoutChromium, type EditorBrowser, openNodeDialog, saveNodeDialog } from './chromium-editor';
import { startHomeAssistant, type HomeAssistantStandIn } from '../peers/home-assistant';
import { startNodeRed, type NodeRedProcess } from '../helpers/node-red';
import { stepByStep } from '../helpers/step-by-step';

declare const RED: any; // the editor's global, inside page.evaluate callbacks
declare const $: any;

describe('mcp-prompt, mcp-resource and gemini-agent prompt/approval fields in Chromium (real Node-RED, HA stand-in)', function () {
  this.timeout(180000);
  stepByStep(this); // each step builds on the one before
  let editor: EditorBrowser | undefined;
  let page: Page;
  let nodeRed: NodeRedProcess | undefined;
  let ha: HomeAssistantStandIn | undefined;

  before(async function () {
    skipWithoutChromium(this, 'prompt/resource editor browser test');
    ha = await startHomeAssistant();
    nodeRed = await startNodeRed({ installed: { packageDir: process.env.EDITOR_TEST_PACKAGE_DIR || repoRoot } });
    const flows = [
      { id: 'tab1', type: 'tab', label: 'Prompts' },
      { id: 'ha', type: 'mcp-server', name: 'Home Assistant', transport: 'http', url: ha.url, credentials: { token: ha.token } },
      { id: 'prompt1', type: 'mcp-prompt', z: 'tab1', x: 200, y: 80, server: 'ha', operation: 'get', name: '', wires: [[]] },
      { id: 'resource1', type: 'mcp-resource', z: 'tab1', x: 200, y: 160, server: 'ha', operation: 'read', uri: '', wires: [[]] },
      { id: 'agent1', type: 'gemini-agent', z: 'tab1', x: 200, y: 240, model: 'gemini-3.5-flash', servers: [{ server: 'ha' }], wires: [[], [], []] },
    ];
    await nodeRed.deploy(flows);
    editor = await launchEditorOn(nodeRed, 'prompt-editor', ['agent1']);
    page = editor.page;
  });
  editorSuiteHooks(
    () => ({ editor, nodeRed }),
    () => ha?.close(),
  );

  const openEditor = (nodeId: string) => openNodeDialog(page, nodeId);
  const saveDialog = () => saveNodeDialog(page);

  it('mcp-prompt: the dropdown lists the Assist prompt; picking it fills the name and describes it', async () => {
    await openEditor('prompt1');
    await page.waitForFunction(() => $('#mcp-prompt-select option[value="Assist"]').length === 1, undefined, { timeout: 30000 });
    await page.selectOption('#mcp-prompt-select', 'Assist');
    assert.equal(await page.inputValue('#node-input-name'), 'Assist');
    assert.match(await page.locator('#mcp-prompt-description').innerText(), /Default prompt for Home Assistant Assist API/);
    await saveDialog();
    assert.equal(await page.evaluate(() => RED.nodes.node('prompt1').name), 'Assist');
  });

  it('mcp-resource: the dropdown lists the exposed-entities resource', async () => {
    await openEditor('resource1');
    await page.waitForFunction(() => $('#mcp-resource-select option[value="homeassistant://assist/exposed-entities"]').length === 1, undefined, {
      timeout: 30000,
    });
    await page.selectOption('#mcp-resource-select', 'homeassistant://assist/exposed-entities');
    assert.match(await page.locator('#mcp-resource-description').innerText(), /text\/yaml/);
    await saveDialog();
    assert.equal(await page.evaluate(() => RED.nodes.node('resource1').uri), 'homeassistant://assist/exposed-entities');
  });

  it('gemini-agent: From a prompt offers the server prompts; approval settings are saved as the runtime reads them', async () => {
    await openEditor('agent1');
    // The agent's own instruction text and the one taken from a server's prompt are told apart by their labels.
    const ownLabel = (await page.locator('label[for="node-input-systemInstruction"]').innerText()).trim();
    const promptLabel = (await page.locator('label[for="gemini-agent-sp-server"]').innerText()).trim();
    assert.deepEqual([ownLabel, promptLabel], ['Instructions', 'From a prompt']);
    await page.selectOption('#gemini-agent-sp-server', 'ha');
    await page.waitForFunction(() => $('#gemini-agent-sp-names option[value="Assist"]').length === 1, undefined, { timeout: 30000 });
    await page.fill('#gemini-agent-sp-name', 'Assist');
    // Approval has a tab of its own in the agent dialog.
    await page.locator('#gemini-agent-tabs a[href="#gemini-agent-tab-approval"]').click();
    await page.fill('#node-input-approval', 'HassTurnOff\nHassTurnOn');
    await page.check('#node-input-approveDestructive');
    await page.fill('#node-input-approvalTimeout', '60');
    await saveDialog();
    const saved = await page.evaluate(() => {
      const n = RED.nodes.node('agent1');
      return {
        systemPrompt: n.systemPrompt,
        approval: n.approval,
        approveDestructive: n.approveDestructive,
        approvalTimeout: n.approvalTimeout,
        outputs: n.outputs,
      };
    });
    assert.deepEqual(saved, {
      systemPrompt: { server: 'ha', name: 'Assist', arguments: {} },
      approval: 'HassTurnOff\nHassTurnOn',
      approveDestructive: true,
      approvalTimeout: '60',
      outputs: 3,
    });
    assert.deepEqual(editor!.pageErrors, [], `editor page errors; Node-RED log:\n${nodeRed?.log.join('\n')}`);
  });
});
