// The dialogs of mcp-prompt-in, mcp-resource-in and mcp-tool-in's Input wait and Long-running in Chromium against a
// real Node-RED: the four new nodes sit in the MCP palette, a prompt and a resource template set up
// in their dialogs and deployed with the editor's own button are what a real MCP client lists and
// gets, and a bad URI is marked invalid before it is deployed.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
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

declare const RED: any; // the editor's global, inside page.evaluate callbacks
declare const $: any;

const TOKEN = 'tok-dialogs-44d1';

describe('mcp-prompt-in, mcp-resource-in and mcp-tool-in dialogs in Chromium (real Node-RED)', function () {
  this.timeout(180000);
  stepByStep(this); // each step builds on the one before
  let editor: EditorBrowser | undefined;
  let page: Page;
  let nodeRed: NodeRedProcess | undefined;

  before(async function () {
    skipWithoutChromium(this, 'prompt-in/resource-in dialog browser test');
    nodeRed = await startNodeRed({ installed: { packageDir: process.env.EDITOR_TEST_PACKAGE_DIR || repoRoot } });
    const flows = [
      { id: 'tab1', type: 'tab', label: 'Served' },
      { id: 'ep', type: 'mcp-endpoint', name: 'house', path: '/mcp', credentials: { tokens: TOKEN } },
      { id: 'pin', type: 'mcp-prompt-in', z: 'tab1', x: 160, y: 80, endpoint: 'ep', name: 'first', wires: [['ptext']] },
      {
        id: 'ptext',
        type: 'template',
        z: 'tab1',
        x: 380,
        y: 80,
        field: 'payload',
        template: 'Plan {{payload.day}} in the {{payload.room}}.',
        output: 'str',
        wires: [['pout']],
      },
      { id: 'pout', type: 'mcp-prompt-out', z: 'tab1', x: 580, y: 80 },
      { id: 'rin', type: 'mcp-resource-in', z: 'tab1', x: 160, y: 160, endpoint: 'ep', uri: 'notes://today', wires: [['rtext']] },
      { id: 'rtext', type: 'template', z: 'tab1', x: 380, y: 160, field: 'payload', template: 'Notes of {{payload.day}}', output: 'str', wires: [['rout']] },
      { id: 'rout', type: 'mcp-resource-out', z: 'tab1', x: 580, y: 160 },
      { id: 'tin', type: 'mcp-tool-in', z: 'tab1', x: 160, y: 240, endpoint: 'ep', name: 'book', wires: [[]] },
    ];
    await nodeRed.deploy(flows);
    editor = await launchEditorOn(nodeRed, 'served-dialogs', ['pin', 'rin', 'tin']);
    page = editor.page;
  });
  editorSuiteHooks(() => ({ editor, nodeRed }));

  const openEditor = (nodeId: string) => openNodeDialog(page, nodeId);
  const saveDialog = () => saveNodeDialog(page);

  it('the palette shows prompt in/out and resource in/out under MCP', async () => {
    const labels = await page.evaluate(() =>
      ['mcp-prompt-in', 'mcp-prompt-out', 'mcp-resource-in', 'mcp-resource-out'].map((t) => [
        RED.nodes.getType(t).category,
        $(`.red-ui-palette-node[data-palette-type="${t}"] .red-ui-palette-label`).text().replace(/\s+/g, ' ').trim(),
      ]),
    );
    assert.deepEqual(labels, [
      ['MCP', 'prompt in'],
      ['MCP', 'prompt out'],
      ['MCP', 'resource in'],
      ['MCP', 'resource out'],
    ]);
  });

  it('mcp-resource-in: a URI without a scheme is marked invalid', async () => {
    await openEditor('rin');
    await page.fill('#node-input-uri', 'today');
    await page.locator('#node-input-uri').blur();
    await page.waitForFunction(() => $('#node-input-uri').hasClass('input-error'), undefined, { timeout: 10000 });
    await page.fill('#node-input-uri', 'notes://day/{day}');
    await page.fill('#node-input-mimeType', 'text/markdown');
    await page.locator('#node-input-uri').blur();
    await page.waitForFunction(() => !$('#node-input-uri').hasClass('input-error'), undefined, { timeout: 10000 });
    await saveDialog();
    assert.deepEqual(await page.evaluate(() => [RED.nodes.node('rin').uri, RED.nodes.node('rin').mimeType]), ['notes://day/{day}', 'text/markdown']);
  });

  it('mcp-prompt-in: name, description and arguments are saved; mcp-tool-in keeps its Input wait and Long-running', async () => {
    await openEditor('pin');
    await page.fill('#node-input-name', 'plan_day');
    await page.fill('#node-input-description', 'Plans a day in a room.');
    await page.fill('#node-input-arguments', 'room, day?');
    await saveDialog();
    await openEditor('tin');
    // Saved before the setting existed: blank, and the runtime's 300 s shows as the placeholder.
    assert.equal(await page.inputValue('#node-input-inputTimeout'), '');
    assert.equal(await page.getAttribute('#node-input-inputTimeout', 'placeholder'), '300');
    await page.fill('#node-input-inputTimeout', '120');
    // Long-running: off for a node saved before it existed; the task limit shows its default.
    assert.equal(await page.isChecked('#node-input-longRunning'), false);
    assert.equal(await page.getAttribute('#node-input-taskLimit', 'placeholder'), '3600');
    await page.check('#node-input-longRunning');
    await page.fill('#node-input-taskLimit', '900');
    await saveDialog();
    assert.deepEqual(
      await page.evaluate(() => [String(RED.nodes.node('tin').inputTimeout), RED.nodes.node('tin').longRunning, String(RED.nodes.node('tin').taskLimit)]),
      ['120', true, '900'],
    );
  });

  it('deployed with the editor: a real MCP client lists and gets what the dialogs say', async () => {
    await deployFromEditor(page);
    // The deploy restarts the endpoint: connect once its route is back.
    const client = await connectWhenStarted(new URL('/mcp', nodeRed!.url).href, TOKEN, 'dialog-test');
    try {
      const { prompts } = await client.listPrompts();
      assert.deepEqual(prompts, [
        {
          name: 'plan_day',
          description: 'Plans a day in a room.',
          arguments: [
            { name: 'room', required: true },
            { name: 'day', required: false },
          ],
        },
      ]);
      const got = await client.getPrompt({ name: 'plan_day', arguments: { room: 'kitchen', day: 'Monday' } });
      assert.equal((got.messages[0].content as { text: string }).text, 'Plan Monday in the kitchen.');
      const { resourceTemplates } = await client.listResourceTemplates();
      assert.deepEqual(
        resourceTemplates.map((t) => [t.uriTemplate, t.mimeType]),
        [['notes://day/{day}', 'text/markdown']],
      );
      const read = await client.readResource({ uri: 'notes://day/friday' });
      assert.deepEqual(read.contents, [{ uri: 'notes://day/friday', mimeType: 'text/markdown', text: 'Notes of friday' }]);
    } finally {
      await client.close();
    }
    // The Long-running box: a 2025-11-25 client sees the tool as one it may call as a task.
    const legacy = new Client({ name: 'dialog-test', version: '1' }, {
      versionNegotiation: { mode: 'legacy' },
      supportedProtocolVersions: ['2025-11-25'],
    } as never);
    await legacy.connect(new StreamableHTTPClientTransport(new URL('/mcp', nodeRed!.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    try {
      const { tools } = await legacy.listTools();
      assert.deepEqual((tools.find((t) => t.name === 'book') as { execution?: unknown })?.execution, { taskSupport: 'optional' });
    } finally {
      await legacy.close();
    }
  });
});
