// Approving a signing-in client in the mcp-endpoint dialog, in Chromium against a real Node-RED:
// the MCP SDK's client starts the sign-in, its "browser" (a second Chromium tab) shows Node-RED's
// sign-in page with a code and waits; the dialog lists the request with the same code; Approve lets
// the page go on to the client's callback, the client calls a flow's tool; Revoke stops it. Both
// screens go to docs/images with UPDATE_SCREENSHOTS=1 (docs/home-assistant-sign-in.md shows them).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { MemoryClientProvider } from '../peers/oauth/memory-client-provider';
import { initializeWith } from '../helpers/bearer-requests';
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

declare const RED: any; // the editor's global, inside page.evaluate callbacks

const screenshotDir = screenshotFolder('sign-in');

describe('mcp-endpoint dialog: a person approves a signing-in client (Chromium, real Node-RED)', function () {
  this.timeout(180000);
  let editor: EditorBrowser | undefined;
  let page: Page;
  let nodeRed: NodeRedProcess | undefined;
  let callback: Server | undefined;
  let redirect = '';
  const callbacks: URL[] = [];

  before(async function () {
    skipWithoutChromium(this, 'sign-in editor browser test');
    callback = createServer((req, res) => {
      const url = new URL(req.url ?? '/', redirect);
      if (url.pathname === '/callback') callbacks.push(url); // not the browser's favicon request
      res.writeHead(200, { 'content-type': 'text/plain' }).end('signed in; you may close this tab');
    });
    await new Promise<void>((r) => callback!.listen(0, '127.0.0.1', r));
    redirect = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
    provider.redirect = redirect;
    nodeRed = await startNodeRed({ installed: { packageDir: process.env.EDITOR_TEST_PACKAGE_DIR || repoRoot } });
    await nodeRed.deploy([
      { id: 'tab1', type: 'tab', label: 'Home tools' },
      { id: 'ep', type: 'mcp-endpoint', name: 'Home tools', path: '/mcp', signIn: true },
      { id: 'in1', type: 'mcp-tool-in', z: 'tab1', x: 160, y: 80, endpoint: 'ep', name: 'hello', description: 'Says hello.', wires: [['fn1']] },
      { id: 'fn1', type: 'function', z: 'tab1', x: 340, y: 80, func: 'msg.payload = "hello from Node-RED"; return msg;', wires: [['out1']] },
      { id: 'out1', type: 'mcp-tool-out', z: 'tab1', x: 520, y: 80 },
    ]);
    editor = await launchEditorOn(nodeRed, 'sign-in', ['in1']);
    page = editor.page;
  });
  editorSuiteHooks(
    () => ({ editor, nodeRed }),
    async () => {
      removeScreenshotFolder(screenshotDir);
      callback?.closeAllConnections();
      await new Promise((r) => callback?.close(r));
    },
  );

  const provider = new MemoryClientProvider('', 'Claude (test)');

  it('the sign-in page waits with a code; the dialog shows the same code; Approve lets the client in', async () => {
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', nodeRed!.url), { authProvider: provider });
    await assert.rejects(new Client({ name: 'claude-test', version: '1' }).connect(transport), UnauthorizedError);
    const signInTab = await page.context().newPage();
    await signInTab.goto(provider.authorizationUrl!.href);
    const code = (await signInTab.locator('#code').innerText()).trim();
    assert.match(code, /^[A-Z2-9]{6}$/);
    assert.equal(await signInTab.locator('#client').innerText(), 'Claude (test)');
    await signInTab.screenshot({ path: join(screenshotDir, 'mcp-endpoint-sign-in-page.png') });

    await page.evaluate(() => RED.editor.editConfig('', 'mcp-endpoint', 'ep'));
    const pending = page.locator('.mcp-endpoint-pending');
    await pending.waitFor({ timeout: 30000 });
    assert.match(await pending.innerText(), new RegExp(`Claude \\(test\\) → 127\\.0\\.0\\.1:\\d+ · code ${code}`));
    await page.locator('#mcp-endpoint-clients-part').screenshot({ path: join(screenshotDir, 'mcp-endpoint-clients.png') });
    await pending.locator('.mcp-endpoint-approve').click();
    await page.locator('.mcp-endpoint-approved', { hasText: 'Claude (test)' }).waitFor();

    // The sign-in page goes on by itself (it reloads every few seconds) to the client's callback.
    await signInTab.waitForURL((u) => u.href.startsWith(redirect), { timeout: 20000 });
    await signInTab.close();
    const back = callbacks.at(-1)!;
    await transport.finishAuth(back.searchParams);
    const client = new Client({ name: 'claude-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', nodeRed!.url), { authProvider: provider }));
    const result = await client.callTool({ name: 'hello', arguments: {} });
    assert.match(JSON.stringify(result.content), /hello from Node-RED/);
    await client.close();
  });

  it('Revoke in the dialog: the client is refused from the next request on', async () => {
    // The list reloads every few seconds while the dialog is open: the call shows as "last used".
    const row = page.locator('.mcp-endpoint-approved', { hasText: 'Claude (test)' });
    await page.locator('.mcp-endpoint-approved', { hasText: 'last used' }).waitFor({ timeout: 15000 });
    await row.locator('.mcp-endpoint-revoke').click();
    await page.locator('#mcp-endpoint-clients-result', { hasText: 'Claude (test) revoked' }).waitFor();
    const res = await initializeWith(`${nodeRed!.url}/mcp`, provider.saved!.access_token);
    assert.equal(res.status, 401);
    await page.evaluate(() => RED.tray.close());
  });
});
