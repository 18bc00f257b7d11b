// The esp32-listener dialog's Pairing part in Chromium against a real Node-RED: a stock device
// (the OTA simulator, fixtures/ota-check.json) checks in and waits; the dialog lists it with its
// board, firmware and the code it speaks; typing that code and pressing Pair moves it to Paired,
// and the device's next check gets its own token. Unpair takes it back. Screenshot in docs/images
// with UPDATE_SCREENSHOTS=1 (docs/esp32.md shows it).
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
} from './chromium-editor';
import { startNodeRed, type NodeRedProcess } from '../helpers/node-red';
import { OtaDevice } from '../peers/xiaozhi-device';

declare const RED: any; // the editor's global, inside page.evaluate callbacks

const screenshotDir = screenshotFolder('pairing');

describe('esp32-listener dialog: pairing a stock device by its spoken code (Chromium, real Node-RED)', function () {
  this.timeout(180000);
  let editor: EditorBrowser | undefined;
  let page: Page;
  let nodeRed: NodeRedProcess | undefined;
  const device = new OtaDevice({ mac: 'd8:3b:da:4e:21:7c' });
  let code = '';

  before(async function () {
    skipWithoutChromium(this, 'pairing editor browser test');
    nodeRed = await startNodeRed({ installed: { packageDir: process.env.EDITOR_TEST_PACKAGE_DIR || repoRoot } });
    const flows = [
      { id: 'tab1', type: 'tab', label: 'Devices' },
      { id: 'L', type: 'esp32-listener', name: 'Home devices', transport: 'websocket', path: '/xiaozhi/v1/', answerOta: true },
      { id: 'in1', type: 'esp32-mcp-in', z: 'tab1', x: 200, y: 80, listener: 'L', events: '', wires: [[]] },
    ];
    await nodeRed.deploy(flows);
    // The device's first check: it waits with a code (the listener answers once its flow started).
    for (const started = Date.now(); !code; await new Promise((r) => setTimeout(r, 100))) {
      const { json } = await device.check(`${nodeRed.url}/xiaozhi/ota/`);
      code = json?.activation?.code ?? '';
      if (Date.now() - started > 20000) throw new Error('the device never got a code');
    }
    editor = await launchEditorOn(nodeRed, 'pairing', ['in1']);
    page = editor.page;
  });
  editorSuiteHooks(
    () => ({ editor, nodeRed }),
    () => removeScreenshotFolder(screenshotDir),
  );

  it('the Pairing part lists the waiting device with its code; Pair with that code moves it to Paired', async () => {
    await page.evaluate(() => RED.editor.editConfig('', 'esp32-listener', 'L'));
    const waiting = page.locator('.esp32-listener-waiting[data-device="d8:3b:da:4e:21:7c"]');
    await waiting.waitFor({ timeout: 30000 });
    // The status sent the user here: the dialog opens on Pairing, the code field focused.
    await page.waitForFunction(() => document.activeElement?.id === 'esp32-listener-pair-code', undefined, { timeout: 10000 });
    const part = await page.locator('#esp32-listener-pairing-part').boundingBox();
    const tray = await page.locator('.red-ui-tray-body').first().boundingBox();
    assert.ok(part && tray && part.y >= tray.y && part.y < tray.y + tray.height, `Pairing in view: ${JSON.stringify({ part, tray })}`);
    assert.match(await waiting.innerText(), new RegExp(`otto-robot 2\\.4\\.2 · since .* · says ${code}$`));
    assert.match(await page.locator('.esp32-listener-ota').innerText(), /OTA URL for devices: http:\/\/127\.0\.0\.1:\d+\/xiaozhi\/ota\/$/);
    await page.fill('#esp32-listener-pair-code', code);
    await page.locator('#esp32-listener-pairing-part').screenshot({ path: join(screenshotDir, 'esp32-listener-pairing.png') });
    await page.fill('#esp32-listener-pair-code', '000000');
    await page.click('#esp32-listener-pair');
    await page.locator('#esp32-listener-pair-result', { hasText: 'No device waits with that code' }).waitFor();
    await page.fill('#esp32-listener-pair-code', code);
    await page.click('#esp32-listener-pair');
    await page.locator('.esp32-listener-paired[data-device="d8:3b:da:4e:21:7c"]').waitFor();
    assert.equal(await waiting.count(), 0);
    const { json } = await device.check(`${nodeRed!.url}/xiaozhi/ota/`);
    assert.equal(json?.activation, undefined);
    assert.ok(String(json?.websocket?.token).length >= 32, 'its own token at the next check');
  });

  it('Unpair asks once more, then takes the device back: its next check gets a code again', async () => {
    const unpair = page.locator('.esp32-listener-paired[data-device="d8:3b:da:4e:21:7c"] .esp32-listener-unpair');
    await unpair.click();
    // The first click only asks: the device is still paired.
    assert.equal(await unpair.innerText(), 'Unpair: click again');
    assert.equal((await device.check(`${nodeRed!.url}/xiaozhi/ota/`)).json?.activation, undefined, 'still paired after one click');
    await unpair.click();
    await page.locator('#esp32-listener-pair-result', { hasText: 'Unpaired d8:3b:da:4e:21:7c' }).waitFor();
    const { json } = await device.check(`${nodeRed!.url}/xiaozhi/ota/`);
    assert.match(json?.activation?.code, /^\d{6}$/);
    assert.equal(json?.websocket?.token, '');
  });
});
