// The mcp-server dialog's "Home Assistant add-on" preset, tried as an add-on user would: Node-RED 5 on
// Node 24 (what the add-on ships) with SUPERVISOR_TOKEN in its environment, the button pressed in
// Chromium, then the dialog's Test and a deploy. `http://supervisor` does not resolve here, so the
// Supervisor stand-in (test/peers/home-assistant/supervisor.ts) is Node-RED's HTTP proxy
// (NODE_USE_ENV_PROXY, Node 24's fetch) and accepts only the Supervisor's MCP URL with the add-on's
// token, forwarding to the Home Assistant stand-in.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  editorSuiteHooks,
  launchEditorOn,
  removeScreenshotFolder,
  repoRoot,
  screenshotFolder,
  skipWithoutChromium,
  type EditorBrowser,
  deployFromEditor,
} from './chromium-editor';
import { HA_GENERATIONS, startHomeAssistant, type HaGeneration, type HomeAssistantStandIn } from '../peers/home-assistant';
import { SUPERVISOR_MCP_URL, startSupervisor, type SupervisorStandIn } from '../peers/home-assistant/supervisor';
import { startNodeRed, type NodeRedProcess } from '../helpers/node-red';
import { ensureTestTools } from '../helpers/test-tools';
import { stepByStep } from '../helpers/step-by-step';

declare const RED: any;
declare const $: any;

const screenshotDir = screenshotFolder('ha-addon');
const NR5 = join(repoRoot, '.tools', 'nr5');

for (const generation of HA_GENERATIONS) describePreset(generation);

function describePreset(generation: HaGeneration) {
  describe(`mcp-server "Home Assistant add-on" preset (Node 24 + Node-RED 5, Supervisor stand-in, Chromium; Home Assistant ${generation})`, function () {
    this.timeout(180000);
    stepByStep(this);
    let ha: HomeAssistantStandIn | undefined;
    let supervisor: SupervisorStandIn | undefined;
    let nodeRed: NodeRedProcess | undefined;
    let editor: EditorBrowser | undefined;
    let page: Page;
    const supervisorToken = randomBytes(24).toString('hex');

    before(async function () {
      skipWithoutChromium(this, 'Home Assistant add-on preset browser test');
      ensureTestTools(); // Node 24 + Node-RED 5 in .tools/nr5
      ha = await startHomeAssistant({ generation });
      supervisor = await startSupervisor({ token: supervisorToken, haUrl: ha.url, haToken: ha.token });
      nodeRed = await startNodeRed({
        installed: { packageDir: process.env.EDITOR_TEST_PACKAGE_DIR || repoRoot, runtime: { folder: NR5, node: join(NR5, 'node_modules', '.bin', 'node') } },
        env: { NODE_USE_ENV_PROXY: '1', HTTP_PROXY: supervisor.proxyUrl, NO_PROXY: '127.0.0.1,localhost', SUPERVISOR_TOKEN: supervisorToken },
      });
      editor = await launchEditorOn(nodeRed, 'ha-addon');
      page = editor.page;
    });

    editorSuiteHooks(
      () => ({ editor, nodeRed }),
      async () => {
        await supervisor?.close();
        await ha?.close();
        removeScreenshotFolder(screenshotDir);
      },
    );

    it('one button fills the Supervisor URL and the add-on token reference, and says what it did', async () => {
      await page.evaluate(() => RED.editor.editConfig('', 'mcp-server', '_ADD_'));
      await page.locator('#node-config-mcp-ha-addon').waitFor();
      await page.locator('#node-config-mcp-ha-addon').click();
      assert.equal(await page.inputValue('#node-config-input-transport'), 'http');
      assert.equal(await page.inputValue('#node-config-input-url'), SUPERVISOR_MCP_URL);
      assert.equal(await page.inputValue('#node-config-input-auth'), 'token');
      // A reference the runtime expands, never the token itself.
      assert.equal(await page.inputValue('#node-config-input-token'), '${SUPERVISOR_TOKEN}');
      assert.equal(await page.inputValue('#node-config-input-name'), 'Home Assistant');
      assert.match(await page.locator('#node-config-mcp-preset-note').innerText(), /add-on.*Supervisor.*SUPERVISOR_TOKEN.*integration/s);
      await page
        .locator('.red-ui-tray:last-of-type')
        .last()
        .screenshot({ path: join(screenshotDir, 'mcp-server-ha-addon.png') });
    });

    it("the dialog's Test reaches Home Assistant through the Supervisor with the add-on's token", async () => {
      await page.locator('#node-config-mcp-test').click();
      await page.waitForFunction(() => /19 tools/.test($('#node-config-mcp-test-result').text()), undefined, { timeout: 30000 });
      assert.ok(supervisor!.forwarded > 0, 'requests went through the Supervisor');
      assert.deepEqual(supervisor!.refused, []);
    });

    it('deployed, the server lists Home Assistant tools; the secret never reaches the flow file or the page', async () => {
      await page.locator('#node-config-dialog-ok').click();
      await page.locator('#node-config-dialog-ok').waitFor({ state: 'detached' });
      const id = await page.evaluate(() => {
        let found = '';
        RED.nodes.eachConfig((c: any) => {
          if (c.type === 'mcp-server') found = c.id;
          return true;
        });
        return found;
      });
      assert.ok(id, 'the new mcp-server exists');
      await deployFromEditor(page);
      const before = supervisor!.forwarded;
      // The editor is no longer dirty once the deploy was accepted; the flow's nodes start after that,
      // so the route may still answer 404 "not deployed" for a moment: wait for the deployed server.
      let res: Response;
      let body: { tools?: Array<{ name: string }>; error?: string } = {};
      for (const started = Date.now(); ; await new Promise((r) => setTimeout(r, 100))) {
        res = await fetch(`${nodeRed!.url}/mcp-server/${id}/tools`);
        body = (await res.json()) as typeof body;
        if (res.status !== 404 || Date.now() - started > 20000) break;
      }
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.deepEqual(
        body.tools?.map((t) => t.name),
        ha!.tools.map((t) => t.name),
        `the ${generation} tools`,
      );
      assert.ok(supervisor!.forwarded > before, 'the deployed server went through the Supervisor');
      assert.deepEqual(supervisor!.refused, []);
      const flows = await (await fetch(`${nodeRed!.url}/flows`)).text();
      assert.doesNotMatch(flows, new RegExp(supervisorToken));
      assert.doesNotMatch(await page.content(), new RegExp(supervisorToken));
    });

    it('a wrong add-on token is refused by the Supervisor and the dialog says to check it', async () => {
      await page.evaluate(() => RED.editor.editConfig('', 'mcp-server', '_ADD_'));
      await page.locator('#node-config-mcp-ha-addon').click();
      await page.fill('#node-config-input-token', 'not-the-add-on-token');
      await page.locator('#node-config-mcp-test').click();
      await page.waitForFunction(() => $('#node-config-mcp-test-result').hasClass('mcp-fail'), undefined, { timeout: 30000 });
      const text = await page.locator('#node-config-mcp-test-result').innerText();
      assert.match(text, /401|token|unauthori[sz]ed/i);
      assert.ok(supervisor!.refused.some((r) => r.why === '401: Unauthorized'));
      assert.doesNotMatch(text, /not-the-add-on-token/);
      await page.locator('#node-config-dialog-cancel').click();
    });
  });
}
