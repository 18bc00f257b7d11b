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

/** Removes a temporary screenshot folder; docs/images is kept when the run updates it. */
export function removeScreenshotFolder(dir: string): void {
  if (!updatingScreenshots) rmSync(dir, { recursive: true, force: true });
}
