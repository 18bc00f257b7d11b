// The mcp-server dialog's "Home Assistant's APIs" in Chromium against a real Node-RED and the Home
// Assistant 2026.10 stand-in with a second LLM API registered (as Music Assistant registers one):
// the button lists the APIs through the WebSocket API's admin-only llm/api/list with the dialog's
// token (a tab variable, resolved as the deployed node does), a pick points the URL at
// /api/mcp/<API id> keeping ${VAR} as typed, Test connection then reaches that API, and a
// non-administrator's token gets the refusal in words. The screen goes to docs/images with
// UPDATE_SCREENSHOTS=1 (docs/home-assistant.md shows it).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  editorSuiteHooks,
  launchEditorOn,
  removeScreenshotFolder,
  repoRoot,
  screenshotFolder,
  skipWithoutChromium,
  trayInPlace,
  type EditorBrowser,
} from './chromium-editor';
import { startHomeAssistant, type HomeAssistantStandIn } from '../peers/home-assistant';
import { startNodeRed, type NodeRedProcess } from '../helpers/node-red';

declare const RED: any; // the editor's global, inside page.evaluate callbacks

const screenshotDir = screenshotFolder('ha-apis');
const USER_TOKEN = 'a-valid-token-of-a-user-who-is-not-an-administrator';

describe("mcp-server dialog: Home Assistant's LLM APIs (Chromium, real Node-RED, Home Assistant 2026.10 stand-in)", function () {
  this.timeout(180000);
  let editor: EditorBrowser | undefined;
  let page: Page;
  let nodeRed: NodeRedProcess | undefined;
  let ha: HomeAssistantStandIn | undefined;

  before(async function () {
    skipWithoutChromium(this, "Home Assistant's APIs editor browser test");
    ha = await startHomeAssistant({ generation: '2026.10', llmApis: [{ id: 'music_assistant', name: 'Music Assistant' }], nonAdminToken: USER_TOKEN });
    const base = ha.url.replace(/\/api\/mcp$/, '');
    nodeRed = await startNodeRed({ installed: { packageDir: process.env.EDITOR_TEST_PACKAGE_DIR || repoRoot } });
    await nodeRed.deploy([
      {
        id: 'tab1',
        type: 'tab',
        label: 'Home',
        env: [
          { name: 'HA_URL', value: base, type: 'str' },
          { name: 'HA_TOKEN', value: ha.token, type: 'str' },
        ],
      },
      { id: 'ha1', type: 'mcp-server', z: 'tab1', name: 'Home Assistant', transport: 'http', url: '${HA_URL}/api/mcp', credentials: { token: '${HA_TOKEN}' } },
      { id: 'list1', type: 'mcp-list-tools', z: 'tab1', x: 200, y: 80, server: 'ha1', wires: [[]] },
    ]);
    editor = await launchEditorOn(nodeRed, 'ha-apis', ['ha1']);
    page = editor.page;
  });
  editorSuiteHooks(
    () => ({ editor, nodeRed }),
    async () => {
      await ha?.close();
      removeScreenshotFolder(screenshotDir);
    },
  );

  const result = () => page.locator('#node-config-mcp-ha-apis-result').innerText();

  it("lists the APIs with the tab's token, and a pick points the URL at one, keeping ${HA_URL}", async () => {
    await page.evaluate(() => RED.editor.editConfig('', 'mcp-server', 'ha1'));
    await page.locator('#node-config-mcp-ha-apis').waitFor({ state: 'visible' });
    await trayInPlace(page);
    await page.locator('#node-config-mcp-ha-apis').click();
    await page.locator('#node-config-mcp-ha-apis-result a.mcp-ha-api').first().waitFor({ timeout: 30000 });
    const text = await result();
    assert.match(text, /Home Assistant 2026\.11\.1 serves 2 LLM APIs/);
    assert.match(text, /chosen in the integration's options \(\/api\/mcp\)/);
    assert.match(text, /Assist \(\/api\/mcp\/assist\)/);
    assert.match(text, /Music Assistant \(\/api\/mcp\/music_assistant\)/);
    // The token went over the WebSocket API, never into the answer.
    assert.ok(!text.includes(ha!.token));
    await page.locator('.mcp-server-row-ha-apis').screenshot({ path: join(screenshotDir, 'mcp-server-home-assistant-apis.png') });

    await page.locator('a.mcp-ha-api[data-api="music_assistant"]').click();
    assert.equal(await page.inputValue('#node-config-input-url'), '${HA_URL}/api/mcp/music_assistant');
    assert.match(await result(), /URL set to \$\{HA_URL\}\/api\/mcp\/music_assistant/);

    // Test connection reaches that API: an administrator's token opens every API's URL. A stored
    // token goes only to the address the node was deployed with, so the new address needs it typed.
    await page.fill('#node-config-input-token', '${HA_TOKEN}');
    const before = ha!.requests.length;
    await page.locator('#node-config-mcp-test').click();
    await page.waitForFunction(() => /tools|Failed/.test(document.querySelector('#node-config-mcp-test-result')?.textContent ?? ''), undefined, {
      timeout: 30000,
    });
    assert.match(await page.locator('#node-config-mcp-test-result').innerText(), /\d+ tools/);
    assert.ok(ha!.requests.slice(before).some((r) => r.path === '/api/mcp/music_assistant' && r.status === 200));
  });

  it('a user who is not an administrator is told why the APIs cannot be listed, and what still works', async () => {
    await page.fill('#node-config-input-token', USER_TOKEN);
    await page.locator('#node-config-mcp-ha-apis').click();
    await page.waitForFunction(() => /Failed/.test(document.querySelector('#node-config-mcp-ha-apis-result')?.textContent ?? ''), undefined, {
      timeout: 30000,
    });
    const text = await result();
    assert.match(text, /only an administrator's token can list Home Assistant's LLM APIs/);
    assert.match(text, /\/api\/mcp\/assist \(Assist, open to every user\)/);
    assert.ok(!text.includes(USER_TOKEN));
  });

  it('a wrong token is named as refused, and the button is only offered for a Home Assistant MCP URL', async () => {
    await page.fill('#node-config-input-token', 'not-a-token-home-assistant-knows');
    await page.locator('#node-config-mcp-ha-apis').click();
    await page.waitForFunction(() => /Failed/.test(document.querySelector('#node-config-mcp-ha-apis-result')?.textContent ?? ''), undefined, {
      timeout: 30000,
    });
    assert.match(await result(), /Home Assistant refused the token/);

    await page.fill('#node-config-input-url', 'http://127.0.0.1:1/mcp');
    assert.equal(await page.locator('.mcp-server-row-ha-apis').isVisible(), false);
    await page.fill('#node-config-input-url', 'https://ha.example:8443/api/mcp/assist');
    assert.equal(await page.locator('.mcp-server-row-ha-apis').isVisible(), true);
    await page.locator('#node-config-dialog-cancel').click();
  });
});
