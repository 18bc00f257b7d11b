// The gemini-agent and esp32-listener dialogs in Chromium against a real Node-RED (started from
// red.js, see ./node-red-process.ts), the fake Gemini, the Home Assistant stand-in and a simulated
// xiaozhi device on a real WebSocket. The flow (an HA mcp-server with its token, a gemini-agent with
// its key, an esp32-listener with its token and an esp32-mcp-in) is deployed through Node-RED's admin API first, as a user's earlier
// deploy would have; everything after that goes through the dialogs' own fields and buttons.
//
// Screenshots go to a temporary directory, or to docs/images/ with UPDATE_SCREENSHOTS=1.
// CHROMIUM_PATH overrides /usr/bin/chromium; EDITOR_TEST_PACKAGE_DIR points Node-RED at another
// built copy of the package (default: this repository with its dist/, so run `npm run build` first).
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
  type EditorBrowser,
  openNodeDialog,
  cancelNodeDialog,
  deployFromEditor,
} from './chromium-editor';
import { reply, startFakeGemini, type FakeGemini } from '../peers/fake-gemini';
import { startHomeAssistant, type HomeAssistantStandIn } from '../peers/home-assistant';
import { ottoRobot, XiaozhiWsDevice } from '../peers/xiaozhi-device';
import { startNodeRed, type NodeRedProcess } from '../helpers/node-red';
import { stepByStep } from '../helpers/step-by-step';

const screenshotDir = screenshotFolder('agent-editor');
const API_KEY = 'AIzaSy-browser-test-key-3b9d71';
const DEVICE_ID = 'd8:3b:da:4e:21:7c';
const DEVICE_TOKEN = 'browser-test-device-token';

declare const RED: any; // the editor's global, inside page.evaluate callbacks
declare const $: any;

describe('gemini-agent and esp32-listener dialogs in Chromium (real Node-RED, fake Gemini, HA stand-in, simulated ESP32)', function () {
  this.timeout(180000);
  stepByStep(this); // each step builds on the one before
  let editor: EditorBrowser | undefined;
  let page: Page;
  let nodeRed: NodeRedProcess | undefined;
  let ha: HomeAssistantStandIn | undefined;
  let fake: FakeGemini | undefined;
  let device: XiaozhiWsDevice | undefined;

  before(async function () {
    skipWithoutChromium(this, 'agent editor browser test');
    ha = await startHomeAssistant({ assist: true });
    fake = await startFakeGemini({ apiKey: API_KEY });
    nodeRed = await startNodeRed({ installed: { packageDir: process.env.EDITOR_TEST_PACKAGE_DIR || repoRoot } });
    await deployFlow();
    editor = await launchEditorOn(nodeRed, 'agent-editor', ['agent1', 'esp1']);
    page = editor.page;
  });

  editorSuiteHooks(
    () => ({ editor, nodeRed }),
    async () => {
      device?.close();
      await ha?.close();
      await fake?.close();
      removeScreenshotFolder(screenshotDir);
    },
  );

  /** The flow a user deployed earlier, with the credentials the runtime stores (never sent back to the editor). */
  async function deployFlow(): Promise<void> {
    const flows = [
      { id: 'tab1', type: 'tab', label: 'Agent', env: [{ name: 'HA_URL', value: 'http://ha.example.net:8123', type: 'str' }] },
      // Its address from the tab's variable: the picker shows where it really points, not the default.
      { id: 'tab-ha', type: 'mcp-server', z: 'tab1', name: 'Tab HA', transport: 'http', url: '${HA_URL:-http://homeassistant.local:8123}/api/mcp' },
      { id: 'ha', type: 'mcp-server', name: 'Home Assistant', transport: 'http', url: ha!.url, credentials: { token: ha!.token } },
      {
        id: 'agent1',
        type: 'gemini-agent',
        z: 'tab1',
        x: 300,
        y: 120,
        name: 'house agent',
        model: 'gemini-3.5-flash',
        baseUrl: fake!.url,
        apiVersion: 'v1beta',
        systemInstruction: '',
        systemInstructionType: 'str',
        servers: [{ server: 'ha', include: '', exclude: '', prefix: '' }],
        toolMode: 'auto',
        maxSteps: 5,
        functionCalling: 'AUTO',
        temperature: '',
        memory: 'none',
        historyTurns: 10,
        stream: false,
        timeout: 30,
        credentials: { apiKey: API_KEY },
        wires: [[], []],
      },
      {
        id: 'lst1',
        type: 'esp32-listener',
        name: 'my devices',
        transport: 'websocket',
        path: '/xiaozhi/v1/',
        allow: '',
        credentials: { tokens: DEVICE_TOKEN },
        // named only inside the listener's Assist settings: it must count the listener as its user
        assist: { server: 'lst-ha', pipeline: '', language: '', continue: true },
      },
      { id: 'lst-ha', type: 'mcp-server', name: 'Listener HA', transport: 'http', url: ha!.url },
      { id: 'esp1', type: 'esp32-mcp-in', z: 'tab1', x: 300, y: 220, name: '', listener: 'lst1', wires: [[]] },
      // ha-assist on a server of its own (the agent's server above must count the agent alone).
      { id: 'assist-ha', type: 'mcp-server', name: 'Assist server', transport: 'http', url: ha!.url, credentials: { token: ha!.token } },
      { id: 'ask1', type: 'ha-assist', z: 'tab1', x: 300, y: 320, name: '', server: 'assist-ha', pipeline: '', language: '', timeout: 60, wires: [[]] },
      // A server scoped to another tab: the agent on tab1 cannot use it.
      { id: 'tab2', type: 'tab', label: 'Elsewhere' },
      { id: 'other-ha', type: 'mcp-server', z: 'tab2', name: 'Other tab HA', transport: 'http', url: ha!.url },
    ];
    await nodeRed!.deploy(flows);
  }

  const openEditor = (nodeId: string) => openNodeDialog(page, nodeId);

  /** The agent dialog groups its settings in tabs: Gemini, Tools, Approval, Memory & connection. */
  async function showTab(tab: 'gemini' | 'tools' | 'approval' | 'more'): Promise<void> {
    await page.locator(`#gemini-agent-tabs a[href="#gemini-agent-tab-${tab}"]`).click();
    await page.locator(`#gemini-agent-tab-${tab}`).waitFor({ state: 'visible' });
  }

  async function shot(name: string): Promise<void> {
    await page
      .locator('.red-ui-tray:last-of-type')
      .last()
      .screenshot({ path: join(screenshotDir, `${name}.png`) });
  }

  it("a server named only in the agent's server list, or a listener's Assist settings, counts that node as its user: not dashed as unused", async () => {
    await page.evaluate(() => RED.sidebar.show('config'));
    for (const [server, user, label] of [
      ['ha', 'agent1', 'Home Assistant'],
      ['lst-ha', 'lst1', 'Listener HA'],
    ]) {
      const users = await page.evaluate(
        (id) =>
          RED.nodes
            .node(id)!
            .users.map((u: { id: string }) => u.id)
            .join(','),
        server,
      );
      assert.equal(users, user, `${server}'s users`);
      const entry = page.locator('.red-ui-palette-node-config', { hasText: label });
      await entry.waitFor();
      assert.equal(await entry.evaluate((e) => e.classList.contains('red-ui-palette-node-config-unused')), false, `${label} not unused`);
    }
  });

  it('gemini-agent: model suggestions, server row with its filtered tools, inline validation', async () => {
    // Temperature sits behind the thinking level, and opens by itself for a node that has one (an
    // older flow shows the value it keeps).
    await page.evaluate(() => (RED.nodes.node('agent1').temperature = '0.7'));
    await openEditor('agent1');
    await showTab('gemini');
    assert.equal(await page.isVisible('#gemini-agent-sampling'), true);
    assert.equal(await page.inputValue('#node-input-temperature'), '0.7');
    await cancelNodeDialog(page);
    await page.evaluate(() => (RED.nodes.node('agent1').temperature = ''));
    await openEditor('agent1');
    // Suggestions: the model field offers the datalist of current Gemini names.
    assert.equal(await page.getAttribute('#node-input-model', 'list'), 'gemini-agent-models');
    const models = await page.locator('#gemini-agent-models option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    for (const m of ['gemini-flash-latest', 'gemini-3.8-flash', 'gemini-3.5-flash-lite']) assert.ok(models.includes(m), `${m} suggested`);
    assert.equal(await page.inputValue('#node-input-model'), 'gemini-3.5-flash');

    // The deployed server row, and what it gives Gemini (all 19 HA tools before any filter).
    await showTab('tools');
    const row = page.locator('.gemini-agent-server-row').first();
    assert.equal(await row.locator('.node-input-entry-server').inputValue(), 'ha');
    // The picker names each server with where it is, and offers only what this agent can use: the
    // server scoped to another tab is not there.
    const offered = await row.locator('.node-input-entry-server option').allInnerTexts();
    assert.ok(offered.includes(`Home Assistant · ${new URL(ha!.url).host}`), offered.join(' | '));
    assert.ok(!offered.some((o) => o.includes('Other tab HA')), offered.join(' | '));
    assert.ok(offered.includes('Tab HA · ha.example.net:8123'), offered.join(' | '));
    await page.waitForFunction(() => /19 of 19 tools/.test($('.node-input-entry-preview').first().text()), undefined, { timeout: 30000 });
    // Filters: include HassTurn* then exclude HassTurnOff leaves one function.
    await row.locator('.node-input-entry-include').fill('HassTurn*');
    await page.waitForFunction(() => /^2 of 19 tools: /.test($('.node-input-entry-preview').first().text()), undefined, { timeout: 30000 });
    await row.locator('.node-input-entry-exclude').fill('HassTurnOff');
    await page.waitForFunction(() => $('.node-input-entry-preview').first().text() === '1 of 19 tools: HassTurnOn', undefined, { timeout: 30000 });
    await shot('gemini-agent-servers');
    // Google's own tools sit on the same tab, beside the MCP servers (the Test below sends Search).
    await page.check('#node-input-googleSearch');

    // Inline validation: a bad value turns the field red before any deploy.
    await page.fill('#node-input-maxSteps', '0');
    await page.locator('#node-input-maxSteps').blur();
    await page.waitForFunction(() => $('#node-input-maxSteps').hasClass('input-error'));
    await page.fill('#node-input-maxSteps', '4');
    await page.locator('#node-input-maxSteps').blur();
    await page.waitForFunction(() => !$('#node-input-maxSteps').hasClass('input-error'));
    await showTab('gemini');
    assert.equal(await page.isVisible('#gemini-agent-sampling'), false, 'no temperature: the sampling section stays closed');
    await page.selectOption('#node-input-thinkingLevel', 'LOW');
    await page.locator('#gemini-agent-sampling-toggle').click();
    await page.locator('#gemini-agent-sampling').waitFor({ state: 'visible' });
    await page.fill('#node-input-temperature', '3');
    await page.locator('#node-input-temperature').blur();
    await page.waitForFunction(() => $('#node-input-temperature').hasClass('input-error'));
    await page.fill('#node-input-temperature', '');
    await page.locator('#node-input-temperature').blur();
    await page.waitForFunction(() => !$('#node-input-temperature').hasClass('input-error'));
  });

  it('gemini-agent: Test sends one prompt with the unsaved settings and shows the answer and the tool called', async () => {
    // Unsaved changes: another model from the suggestions, the filters typed above, maxSteps 4, Search ticked.
    await page.fill('#node-input-model', 'gemini-3.8-flash');
    fake!.script(reply.call('HassTurnOn', { name: 'Kitchen Light' }), reply.text('The kitchen light is on now.'));
    const before = fake!.requests.length;
    await page.fill('#gemini-agent-test-prompt', 'Turn on the kitchen light');
    await page.locator('#gemini-agent-test').click();
    const ok = page.locator('#gemini-agent-test-result.gemini-ok');
    await ok.waitFor({ timeout: 30000 });
    assert.equal(await page.locator('#gemini-agent-test-answer').innerText(), 'The kitchen light is on now.');
    const calls = await page.locator('#gemini-agent-test-calls li').allInnerTexts();
    assert.deepEqual(calls, ['HassTurnOn · Home Assistant']);
    assert.match(await ok.innerText(), /gemini-3\.8-flash · 2 model turn\(s\) · \d+ tokens/);

    // What really happened: Gemini got the dialog's model, the stored key and only the filtered tool;
    // Home Assistant ran the call.
    const sent = fake!.requests.slice(before);
    assert.equal(sent.length, 2);
    assert.equal(sent[0].model, 'gemini-3.8-flash');
    assert.equal(sent[0].headers['x-goog-api-key'], API_KEY);
    assert.deepEqual(
      sent[0].body.tools[0].functionDeclarations.map((d: any) => d.name),
      ['HassTurnOn'],
    );
    assert.deepEqual(sent[0].body.tools.slice(1), [{ googleSearch: {} }]);
    assert.equal(sent[0].body.toolConfig.includeServerSideToolInvocations, true);
    assert.deepEqual(sent[0].body.generationConfig.thinkingConfig, { thinkingLevel: 'LOW' });
    const haCall = ha!.requests.filter((r) => r.rpcMethod === 'tools/call').at(-1) as any;
    assert.deepEqual(haCall.json.params, { name: 'HassTurnOn', arguments: { name: 'Kitchen Light' } });
    // The key never reached the page.
    assert.doesNotMatch(await page.content(), new RegExp(API_KEY));

    await page.locator('#gemini-agent-test-result').scrollIntoViewIfNeeded();
    await shot('gemini-agent-test');
  });

  it('gemini-agent: a Gemini error is shown in the dialog without the key', async () => {
    fake!.script(reply.error(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded for quota metric generate_content_requests'));
    await page.locator('#gemini-agent-test').click();
    const fail = page.locator('#gemini-agent-test-result.gemini-fail');
    await fail.waitFor({ timeout: 30000 });
    assert.match(await fail.innerText(), /^Failed: .*429.*Quota exceeded/);
    assert.doesNotMatch(await fail.innerText(), new RegExp(API_KEY));
    await cancelNodeDialog(page);
    // Cancelled: the node keeps its saved model.
    assert.equal(await page.evaluate(() => RED.nodes.node('agent1').model), 'gemini-3.5-flash');
  });

  it('gemini-agent: a new MCP server is added from the agent dialog itself, deployed, and its tools previewed', async () => {
    await openEditor('agent1');
    await showTab('tools');
    assert.equal(await page.locator('.gemini-agent-server-row').count(), 1);
    // "new MCP server" adds a row and opens core's mcp-server dialog on top of the agent's.
    await page.locator('#gemini-agent-new-server').click();
    await page.locator('#node-config-dialog-ok').waitFor();
    await page.fill('#node-config-input-name', 'Upstairs HA');
    await page.selectOption('#node-config-input-transport', 'http');
    await page.fill('#node-config-input-url', ha!.url);
    await page.fill('#node-config-input-token', ha!.token);
    await page.locator('#node-config-dialog-ok').click();
    await page.locator('#node-config-dialog-ok').waitFor({ state: 'detached' });
    // Back in the agent dialog: the new row holds the new server, picked by its name.
    const second = page.locator('.gemini-agent-server-row').nth(1);
    await page.waitForFunction(() => {
      const v = $('.gemini-agent-server-row').eq(1).find('.node-input-entry-server').val();
      const n = v && RED.nodes.node(v);
      return !!n && n.type === 'mcp-server' && n.name === 'Upstairs HA';
    });
    assert.match(await second.locator('.node-input-entry-server option:checked').innerText(), /^Upstairs HA( · 127\.0\.0\.1:\d+)?$/);
    // Not deployed yet: the preview says so rather than guessing.
    await page.waitForFunction(() => /not deployed.*Deploy the flow first/.test($('.node-input-entry-preview').eq(1).text()), undefined, { timeout: 30000 });
    await page.locator('#node-dialog-ok').click();
    await page.locator('#node-dialog-ok').waitFor({ state: 'detached' });
    const saved = await page.evaluate(() => RED.nodes.node('agent1').servers.map((s: any) => RED.nodes.node(s.server).name));
    assert.deepEqual(saved, ['Home Assistant', 'Upstairs HA']);

    // Deploy with the editor's own button; the reopened dialog previews the new server's tools.
    await deployFromEditor(page);
    // The deploy's notifications would cover the dialog: close them the way their own timer does
    // (removing the elements instead makes that timer's slide-up fail inside Node-RED later).
    await page.evaluate(() =>
      $('.red-ui-notification')
        .toArray()
        .forEach((n: HTMLElement & { close?: () => void }) => n.close?.()),
    );
    await page.waitForFunction(() => $('.red-ui-notification').length === 0, undefined, { timeout: 10000 });
    await openEditor('agent1');
    await showTab('tools');
    await page.waitForFunction(() => /^19 of 19 tools: /.test($('.node-input-entry-preview').eq(1).text()), undefined, { timeout: 30000 });
    await shot('gemini-agent-new-server');
    await cancelNodeDialog(page);
  });

  it('esp32-listener: shows the connected device and its tool count', async () => {
    const wsUrl = nodeRed!.url.replace(/^http/, 'ws') + '/xiaozhi/v1/';
    device = await XiaozhiWsDevice.connect({ url: wsUrl, deviceId: DEVICE_ID, token: DEVICE_TOKEN, fixture: ottoRobot() });
    // Wait until the listener has listed the device's tools (its admin route says so).
    let listed: any;
    for (let i = 0; i < 200; i++) {
      listed = await fetch(`${nodeRed!.url}/esp32-listener/lst1/devices`).then((r) => r.json());
      if (listed.devices?.[0]?.toolCount > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(listed.devices.length, 1, JSON.stringify(listed));
    const expectedTools = listed.devices[0].toolCount;
    assert.equal(expectedTools, 13, 'otto-robot has 13 tools for the AI (7 more are user-only)');

    // The listener's dialog, opened from the Configuration nodes sidebar as a user would.
    await page.evaluate(() => RED.sidebar.show('config'));
    await page.locator('.red-ui-palette-node-config', { hasText: 'my devices' }).dblclick();
    const box = page.locator('#esp32-listener-devices');
    await page.waitForFunction((id) => $('#esp32-listener-devices').text().includes(id), DEVICE_ID, { timeout: 30000 });
    const text = await box.innerText();
    assert.match(text, new RegExp(`^${DEVICE_ID} otto-robot 2\\.4\\.2 · 13 tools · \\w+$`, 'm'));
    await shot('esp32-listener-devices');
    await page.locator('#node-config-dialog-cancel').click();
    await page.locator('#node-config-dialog-cancel').waitFor({ state: 'detached' });
  });

  it("esp32-listener: voice 'assist' lists Home Assistant's pipelines through the deployed server and saves the choice", async () => {
    await page.evaluate(() => RED.sidebar.show('config'));
    await page.locator('.red-ui-palette-node-config', { hasText: 'my devices' }).dblclick();
    await page.locator('#node-config-input-voice').waitFor();
    await page.selectOption('#node-config-input-voice', 'assist');
    await page.locator('#esp32-listener-assist-server').waitFor({ state: 'visible' });
    await page.selectOption('#esp32-listener-assist-server', 'ha');
    // Both pipelines of the stand-in, after "Home Assistant's preferred pipeline", once the line under
    // the list no longer says it is asking ("…").
    await page.waitForFunction(() => /[^…]$/.test($('#esp32-listener-assist-pipelines-result').text()), undefined, { timeout: 30000 });
    const options = await page.locator('#esp32-listener-assist-pipeline option').allInnerTexts();
    assert.deepEqual(options, ["Home Assistant's preferred pipeline", 'Home Assistant (English) (en)', 'Maison (français) (fr)']);
    assert.equal(await page.locator('#esp32-listener-assist-pipelines-result').innerText(), '2 pipelines');
    await page.selectOption('#esp32-listener-assist-pipeline', '01cuisine-fr');
    await page.locator('#esp32-listener-assist-continue').scrollIntoViewIfNeeded();
    await shot('esp32-listener-assist');
    await page.locator('#node-config-dialog-ok').click();
    await page.locator('#node-config-dialog-ok').waitFor({ state: 'detached' });
    const saved = await page.evaluate(() => ({ voice: RED.nodes.node('lst1').voice, assist: RED.nodes.node('lst1').assist }));
    assert.deepEqual(saved, { voice: 'assist', assist: { server: 'ha', pipeline: '01cuisine-fr', language: '', continue: true } });
    // The token never reached the page.
    assert.doesNotMatch(await page.content(), new RegExp(ha!.token));
  });

  it('ha-assist: shows Home Assistant connected on the canvas, lists its pipelines in the dialog and saves the choice', async () => {
    // The status comes from the runtime as soon as the flows started, before any message.
    await page.waitForFunction(() => /^Home Assistant 20/.test(String((RED.nodes.node('ask1') as any)?.status?.text ?? '')), undefined, { timeout: 30000 });
    // The pipeline asks, counted in the page as jQuery sends them (Playwright's request events reach
    // this process later, so a count read from them can come up short).
    await page.evaluate(() => {
      (window as any).pipelineAsks = [];
      $(document).on('ajaxSend.pipelineAsks', (_e: unknown, _xhr: unknown, o: { url?: string }) => {
        const url = String(o.url);
        if (url.includes('esp32-listener/assist/pipelines')) (window as any).pipelineAsks.push(url.slice(url.indexOf('?')));
      });
    });
    const asked = () => page.evaluate(() => (window as any).pipelineAsks as string[]);
    await openEditor('ask1');
    // Once the line under the list no longer says it is asking ("…"). The server field says "change"
    // twice while the dialog opens; Home Assistant is asked once (counted below).
    await page.waitForFunction(() => /[^…]$/.test($('#ha-assist-pipelines-result').text()), undefined, { timeout: 30000 });
    assert.equal(await page.locator('#ha-assist-pipelines-result').innerText(), '2 pipelines in Home Assistant');
    const options = await page.locator('#node-input-pipeline option').allInnerTexts();
    assert.deepEqual(options, ["Home Assistant's preferred pipeline", 'Home Assistant (English) (en)', 'Maison (français) (fr)']);
    await page.selectOption('#node-input-pipeline', '01cuisine-fr');
    // Refresh asks again, and keeps the choice.
    assert.deepEqual(await asked(), ['?server=assist-ha']);
    await page.locator('#ha-assist-refresh').click();
    await page.waitForFunction(() => /[^…]$/.test($('#ha-assist-pipelines-result').text()), undefined, { timeout: 30000 });
    assert.equal(await page.locator('#node-input-pipeline').inputValue(), '01cuisine-fr');
    await shot('ha-assist');
    await page.locator('#node-dialog-ok').click();
    await page.locator('#node-dialog-ok').waitFor({ state: 'detached' });
    assert.deepEqual(await asked(), ['?server=assist-ha', '?server=assist-ha']);
    await page.evaluate(() => $(document).off('ajaxSend.pipelineAsks'));
    assert.equal(await page.evaluate(() => RED.nodes.node('ask1').pipeline), '01cuisine-fr');
    assert.doesNotMatch(await page.content(), new RegExp(ha!.token));
  });

  it('raised no script errors in the editor page', () => {
    assert.deepEqual(editor!.pageErrors, [], `editor page errors; Node-RED log:\n${nodeRed?.log.join('\n')}`);
  });
});
