// What both browser specs need around the test itself: Debian's Chromium (or CHROMIUM_PATH) driven
// by playwright-core with the flags this sandbox needs and a fresh profile per run, the editor opened
// and ready, every page error collected, a screenshot when a test fails, and the screenshot folder
// (docs/images/ with UPDATE_SCREENSHOTS=1, else a temporary folder removed afterwards).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { skipBecause } from '../helpers/skip';

export const repoRoot = resolve(__dirname, '../..');
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const updatingScreenshots = process.env.UPDATE_SCREENSHOTS === '1';

declare const $: any; // the editor's jQuery, inside page.waitForFunction
declare const RED: any; // the editor's global, likewise

/** Skips the calling suite, saying why, when there is no browser to drive. */
export function skipWithoutChromium(ctx: Mocha.Context, what: string): void {
  if (existsSync(chromiumPath)) return;
  skipBecause(ctx, what, `no Chromium at ${chromiumPath} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
}

export function screenshotFolder(tag: string): string {
  const dir = updatingScreenshots ? join(repoRoot, 'docs', 'images') : mkdtempSync(join(tmpdir(), `mcp-${tag}-shots-`));
  mkdirSync(dir, { recursive: true });
  return dir;
}

export interface EditorBrowser {
  page: Page;
  /** Script errors the editor page raised; a spec asserts this stays empty. */
  pageErrors: string[];
  /** Saves the page as it is when `test` failed, and says where. */
  screenshotIfFailed(test: Mocha.Test | undefined, extra?: () => string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the Node-RED editor at `url` in a fresh Chromium profile and waits until `ready` holds in
 * the page and the editor's loading overlays are gone.
 */
export async function launchEditor(
  url: string,
  options: { tag: string; viewport: { width: number; height: number }; ready: (page: Page) => Promise<unknown> },
): Promise<EditorBrowser> {
  const { chromium } = await import('playwright-core');
  const userDataDir = mkdtempSync(join(tmpdir(), `mcp-${options.tag}-chromium-`));
  // playwright takes the profile as this argument (--user-data-dir).
  const browser: BrowserContext = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    viewport: options.viewport,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const page = browser.pages()[0] ?? (await browser.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(String(err && err.stack ? err.stack : err)));
  await page.goto(url);
  await options.ready(page);
  await page.waitForFunction(() => !$('#red-ui-loading-progress').is(':visible') && !$('.red-ui-editor-loading').is(':visible'));
  return {
    page,
    pageErrors,
    async screenshotIfFailed(test, extra) {
      if (test?.state !== 'failed') return;
      const file = join(tmpdir(), `mcp-${options.tag}-failure.png`);
      await page.screenshot({ path: file }).catch(() => undefined);
      console.log(`    editor screenshot at the failure: ${file}${extra ? `\n${extra()}` : ''}`);
    },
    async close() {
      await browser.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The editor of a Node-RED started by node-red-process.ts, 1280 px wide, once the runtime's flow
 * has reached the editor (`nodeIds` are nodes the spec deployed). A failed spec's screenshot comes
 * with the end of Node-RED's log.
 */
export async function launchEditorOn(nodeRed: { url: string; log: string[] }, tag: string, nodeIds: string[] = []): Promise<EditorBrowser> {
  const editor = await launchEditor(nodeRed.url, {
    tag,
    viewport: { width: 1280, height: 900 },
    ready: (p) =>
      p.waitForFunction((ids) => typeof RED !== 'undefined' && RED.nodes && ids.every((id: string) => RED.nodes.node(id)) && RED.workspaces.active(), nodeIds, {
        timeout: 60000,
      }),
  });
  return {
    ...editor,
    screenshotIfFailed: (test, extra) =>
      editor.screenshotIfFailed(test, () => `    Node-RED log:\n${nodeRed.log.join('\n').slice(-3000)}${extra ? `\n${extra()}` : ''}`),
  };
}

/** Removes a temporary screenshot folder; docs/images is kept when the run updates it. */
export function removeScreenshotFolder(dir: string): void {
  if (!updatingScreenshots) rmSync(dir, { recursive: true, force: true });
}

/**
 * The hooks every editor spec needs: a screenshot of a failed step, then the browser, Node-RED and
 * the spec's own peers (`cleanup`) closed after the suite.
 */
export function editorSuiteHooks(get: () => { editor?: EditorBrowser; nodeRed?: { stop(): Promise<void> } }, cleanup: () => unknown = () => undefined): void {
  afterEach(async function () {
    await get().editor?.screenshotIfFailed(this.currentTest);
  });
  after(async () => {
    const { editor, nodeRed } = get();
    await editor?.close();
    await nodeRed?.stop();
    await cleanup();
  });
}

/** Opens a node's dialog as a person does: a double-click on the node on the canvas. */
export async function openNodeDialog(page: Page, nodeId: string): Promise<void> {
  await page.locator(`g.red-ui-flow-node-group[id="${nodeId}"] rect.red-ui-flow-node`).dblclick();
  await page.locator('#node-dialog-ok').waitFor();
}

/**
 * Waits until the editor's topmost tray has slid in. Node-RED starts that CSS transition after two
 * timers; a click on Done or Cancel before it lands where the button is not yet, and the dialog
 * stays open (seen once in CI on a loaded machine).
 */
export async function trayInPlace(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const trays = document.querySelectorAll('#red-ui-editor-stack .red-ui-tray');
    const top = trays[trays.length - 1] as HTMLElement | undefined;
    return top !== undefined && getComputedStyle(top).right === '0px';
  });
}

/**
 * Deploys with the editor's own button and waits until the editor has nothing left to deploy.
 * `incomplete`: the flow has nodes the editor marks unfinished (an agent without a key), so it asks
 * whether to deploy anyway, and the answer is yes.
 */
export async function deployFromEditor(page: Page, options: { incomplete?: boolean } = {}): Promise<void> {
  await page.locator('#red-ui-header-button-deploy').click();
  if (options.incomplete) await page.getByRole('button', { name: 'Confirm deploy' }).click();
  await page.waitForFunction(() => !(globalThis as unknown as { RED: { nodes: { dirty(): boolean } } }).RED.nodes.dirty(), undefined, { timeout: 30000 });
}

/** Closes the open dialog with Done, and waits until it is gone. */
export async function saveNodeDialog(page: Page): Promise<void> {
  await trayInPlace(page);
  await page.click('#node-dialog-ok');
  await page.locator('#node-dialog-ok').waitFor({ state: 'detached' });
}

/** Closes the open dialog with Cancel, and waits until it is gone. */
export async function cancelNodeDialog(page: Page): Promise<void> {
  await trayInPlace(page);
  await page.locator('#node-dialog-cancel').click();
  await page.locator('#node-dialog-cancel').waitFor({ state: 'detached' });
}
