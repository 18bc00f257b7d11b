// A person in charge of an assistant's changes, in Chromium against a real Node-RED with the
// installed package: the MCP SDK's client proposes a flow and asks to deploy it; every open editor
// shows a notification; the endpoint's dialog shows the change as lines to read with Approve and
// Deny; Approve deploys it (the client's waiting call answers "deployed"); the record shows it with
// Roll back, which restores the flows exactly; Deny leaves them as they were. The dialog's options
// show only under their box.
// Screens go to docs/images with UPDATE_SCREENSHOTS=1 (docs/node-red-assistant.md shows them).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import {
  editorSuiteHooks,
  launchEditorOn,
  removeScreenshotFolder,
  repoRoot,
  screenshotFolder,
  skipWithoutChromium,
  type EditorBrowser,
} from './chromium-editor';
import { startNodeRed, type NodeRedProcess } from '../helpers/node-red';
import { untilEndpointStarted } from '../helpers/bearer-requests';

declare const RED: any; // the editor's global, inside page.evaluate callbacks

const TOKEN = 'assistant-editor-token-3c9e';
const screenshotDir = screenshotFolder('assistant-changes');

describe('mcp-endpoint dialog: a person approves and rolls back an assistant\u2019s change (Chromium, real Node-RED)', function () {
  this.timeout(180000);
  let editor: EditorBrowser | undefined;
  let page: Page;
  let nodeRed: NodeRedProcess | undefined;
  let client: Client | undefined;
  let initial = '';
  const deployed = async () => JSON.stringify((await nodeRed!.request('GET', '/flows', undefined, { 'Node-RED-API-Version': 'v2' })).body.flows);

  before(async function () {
    skipWithoutChromium(this, 'assistant changes editor browser test');
    nodeRed = await startNodeRed({ installed: { packageDir: process.env.EDITOR_TEST_PACKAGE_DIR || repoRoot } });
    await nodeRed.deploy([
      { id: 'porch', type: 'tab', label: 'Porch (assistant)', info: 'The assistant builds here. #assistant' },
      {
        id: 'ep',
        type: 'mcp-endpoint',
        name: 'Assistant',
        path: '/mcp',
        nodeRedTools: true,
        nodeRedChanges: true,
        nodeRedApproval: 'editor',
        credentials: { tokens: TOKEN },
      },
      { id: 'note', type: 'comment', z: 'porch', name: 'the porch light flow goes here', x: 200, y: 40, wires: [] },
    ]);
    await untilEndpointStarted(`${nodeRed.url}/mcp`);
    initial = await deployed();
    editor = await launchEditorOn(nodeRed, 'assistant-changes', ['note']);
    page = editor.page;
    client = new Client({ name: 'Claude (test)', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', nodeRed.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
  });
  editorSuiteHooks(
    () => ({ editor, nodeRed }),
    async () => {
      await client?.close();
      removeScreenshotFolder(screenshotDir);
    },
  );

  it('the options show under the Node-RED tools box only', async () => {
    await page.evaluate(() => RED.editor.editConfig('', 'mcp-endpoint', 'ep'));
    await page.locator('#node-config-input-nodeRedChanges').waitFor();
    assert.equal(await page.locator('#node-config-input-nodeRedTabs').isVisible(), true);
    assert.equal(await page.locator('#node-config-input-nodeRedTabs').inputValue(), 'marked');
    await page.locator('#node-config-input-nodeRedChanges').uncheck();
    assert.equal(await page.locator('#node-config-input-nodeRedTabs').isVisible(), false);
    await page.locator('#node-config-input-nodeRedTools').uncheck();
    assert.equal(await page.locator('#node-config-input-nodeRedChanges').isVisible(), false);
    await page.locator('#node-config-dialog-cancel').click(); // cancelled: nothing changes
    await page.locator('#node-config-input-nodeRedChanges').waitFor({ state: 'detached' });
  });

  it('a waiting deploy is announced, shown as lines with Approve, and Approve deploys it', async () => {
    const call = (name: string, args: Record<string, unknown>) => client!.callTool({ name, arguments: args }) as Promise<CallToolResult>;
    const proposed = (
      await call('flow_change', {
        changes: [
          {
            op: 'add',
            node: {
              id: 'motion',
              type: 'inject',
              z: 'porch',
              name: 'porch motion',
              x: 140,
              y: 120,
              props: [{ p: 'payload' }],
              payload: 'motion',
              payloadType: 'str',
              wires: [['light']],
            },
          },
          {
            op: 'add',
            node: {
              id: 'light',
              type: 'debug',
              z: 'porch',
              name: 'porch light',
              x: 380,
              y: 120,
              active: true,
              tosidebar: true,
              complete: 'payload',
              wires: [],
            },
          },
          { op: 'change', node: { id: 'note', name: 'motion turns the porch light on' } },
        ],
      })
    ).structuredContent as { change: string };
    const waiting = call('flow_deploy', { change: proposed.change });
    await page.locator('.red-ui-notification', { hasText: `Claude (test) asks to deploy change ${proposed.change}` }).waitFor({ timeout: 20000 });

    await page.evaluate(() => RED.editor.editConfig('', 'mcp-endpoint', 'ep'));
    const row = page.locator('.mcp-endpoint-pending-change');
    await row.waitFor({ timeout: 20000 });
    const text = await row.innerText();
    assert.match(text, /\+ inject "porch motion" \(motion\) on "Porch \(assistant\)"/);
    assert.match(text, /~ comment "motion turns the porch light on" \(note\): name: "the porch light flow goes here" → "motion turns the porch light on"/);
    await page.locator('#mcp-endpoint-changes-part').screenshot({ path: join(screenshotDir, 'mcp-endpoint-changes.png') });
    await row.locator('.mcp-endpoint-change-approve').click();
    const answered = (await waiting).structuredContent as { state: string; decidedBy: string };
    assert.deepEqual([answered.state, answered.decidedBy], ['deployed', 'editor']);
    const flows = JSON.parse(await deployed()) as Array<{ id: string }>;
    assert.deepEqual(
      flows.map((n) => n.id).filter((id) => ['motion', 'light'].includes(id)),
      ['motion', 'light'],
    );
  });

  it('the record shows the deployed change, and Roll back restores the flows exactly', async () => {
    const done = page.locator('.mcp-endpoint-change', { hasText: 'deployed' });
    await done.locator('.mcp-endpoint-change-rollback').waitFor({ timeout: 20000 });
    assert.match(await done.innerText(), /Claude \(test\).*by editor/);
    await page.locator('#mcp-endpoint-changes-part').screenshot({ path: join(screenshotDir, 'mcp-endpoint-change-record.png') });
    await done.locator('.mcp-endpoint-change-rollback').click();
    await page.locator('#mcp-endpoint-changes-result', { hasText: 'rolled back: c1' }).waitFor({ timeout: 20000 });
    assert.equal(await deployed(), initial);
    await page.locator('.mcp-endpoint-change', { hasText: 'rolled back' }).waitFor({ timeout: 10000 });
  });

  it('Deny: the waiting call answers "denied" and the flows stay as they were', async () => {
    const call = (name: string, args: Record<string, unknown>) => client!.callTool({ name, arguments: args }) as Promise<CallToolResult>;
    const { change } = (await call('flow_change', { changes: [{ op: 'remove', id: 'note' }] })).structuredContent as { change: string };
    const waiting = call('flow_deploy', { change });
    const row = page.locator('.mcp-endpoint-pending-change', { hasText: `- comment "the porch light flow goes here" (note)` });
    await row.waitFor({ timeout: 20000 });
    await row.locator('.mcp-endpoint-change-deny').click();
    const answered = (await waiting).structuredContent as { state: string; reason: string };
    assert.deepEqual([answered.state, answered.reason], ['denied', 'denied in the editor']);
    assert.equal(await deployed(), initial);
    await page.locator('.mcp-endpoint-change', { hasText: 'denied' }).waitFor({ timeout: 10000 });
    await page.evaluate(() => RED.tray.close());
    assert.deepEqual(editor!.pageErrors, []);
  });
});
