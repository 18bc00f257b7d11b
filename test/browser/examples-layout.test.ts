// Every example as a person first sees it: imported into the editor of a 1280×800 window with the
// palette and the sidebar open. No node runs under the sidebar (past the canvas's visible width),
// no two nodes overlap, and no node sits where the node above it shows its status line
// (connected · 19 tools, errors).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { editorSuiteHooks, launchEditor, repoRoot, skipWithoutChromium, type EditorBrowser } from './chromium-editor';
import { startNodeRed, type NodeRedProcess } from '../helpers/node-red';

declare const RED: any; // the editor's global, inside page.evaluate callbacks
declare const $: any;

/** Room a status line takes under its node: Node-RED draws it 3 px below, about 13 px high. */
const STATUS = { below: 3, height: 13, width: 120 };
/** Core nodes that show a status line of their own. */
const CORE_WITH_STATUS = ['function', 'http request', 'mqtt in', 'mqtt out', 'exec', 'websocket in', 'websocket out', 'tcp in', 'udp in', 'trigger', 'delay'];

describe('examples at 1280×800 in the editor (Chromium, real Node-RED)', function () {
  this.timeout(180000);
  let editor: EditorBrowser | undefined;
  let page: Page;
  let nodeRed: NodeRedProcess | undefined;
  const examplesDir = join(repoRoot, 'examples');
  const examples = readdirSync(examplesDir)
    .filter((f) => f.endsWith('.json'))
    .map((file) => ({ file, flow: JSON.parse(readFileSync(join(examplesDir, file), 'utf8')) as any[] }));

  before(async function () {
    skipWithoutChromium(this, 'example layout browser test');
    nodeRed = await startNodeRed({ installed: { packageDir: process.env.EDITOR_TEST_PACKAGE_DIR || repoRoot } });
    editor = await launchEditor(nodeRed.url, {
      tag: 'examples-layout',
      viewport: { width: 1280, height: 800 },
      ready: (p) => p.waitForFunction(() => typeof RED !== 'undefined' && RED.nodes && RED.workspaces.active(), undefined, { timeout: 60000 }),
    });
    page = editor.page;
    await page.evaluate(() => RED.sidebar.show('info'));
  });

  editorSuiteHooks(() => ({ editor, nodeRed }));

  it('each example stays left of the sidebar, no two nodes overlap, and no node hides the status line of the node above it', async () => {
    const problems: string[] = [];
    for (const { file, flow } of examples) {
      const tab = flow.find((n) => n.type === 'tab');
      assert.ok(tab, `${file} has its own tab`);
      await page.evaluate(
        ({ flow, tabId }) => {
          RED.view.importNodes(flow, { generateIds: false, addFlow: false, touchImport: false, notify: false, applyNodeDefaults: true });
          RED.workspaces.show(tabId);
          RED.view.redraw(true);
        },
        { flow, tabId: tab.id },
      );
      // The view sizes a tab's nodes when it draws them, on its next frame.
      await page
        .waitForFunction((tabId) => RED.nodes.filterNodes({ z: tabId }).every((n: any) => Number.isFinite(n.w) && Number.isFinite(n.h)), tab.id, {
          timeout: 10000,
        })
        .catch(() => undefined); // the check below names any node left without a size
      const found = await page.evaluate(
        ({ tabId, status, STATUS_TYPES, BUTTON }) => {
          const chart = $('#red-ui-workspace-chart')[0] as HTMLElement;
          const visibleWidth = chart.clientWidth;
          const out: string[] = [];
          if (!(visibleWidth > 0)) out.push(`the canvas has no width (${visibleWidth})`);
          const boxes = RED.nodes
            .filterNodes({ z: tabId })
            .filter((n: any) => n.type !== 'group')
            .map((n: any) => ({
              name: n.name || n.type,
              // What shows a status line: our nodes, core nodes that set one, debug nodes told to.
              hasStatus: /^(mcp-|gemini-|esp32-)/.test(n.type) || STATUS_TYPES.includes(n.type) || (n.type === 'debug' && n.tostatus === true),
              // An inject's button sticks out on the left, a debug node's on the right.
              left: n.x - n.w / 2 - (n.type === 'inject' ? BUTTON : 0),
              right: n.x + n.w / 2 + (n.type === 'debug' ? BUTTON : 0),
              top: n.y - n.h / 2,
              bottom: n.y + n.h / 2,
            }));
          // Sizes exist once the view has drawn the tab's nodes: a box without them would pass unseen.
          for (const b of boxes) if (![b.left, b.right, b.top, b.bottom].every(Number.isFinite)) out.push(`"${b.name}" has no size on the canvas`);
          for (const b of boxes) if (b.left < 0) out.push(`"${b.name}" starts at x ${Math.round(b.left)}, left of the canvas`);
          for (const b of boxes)
            if (b.right > visibleWidth) out.push(`"${b.name}" ends at x ${Math.round(b.right)}, under the sidebar (canvas shows ${visibleWidth} px)`);
          boxes.forEach((a: any, i: number) => {
            for (const b of boxes.slice(i + 1)) {
              if (a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top) out.push(`"${a.name}" and "${b.name}" overlap`);
            }
          });
          for (const a of boxes.filter((x: any) => x.hasStatus)) {
            const line = { left: a.left, right: a.left + status.width, top: a.bottom + status.below, bottom: a.bottom + status.below + status.height };
            for (const b of boxes) {
              if (a === b) continue;
              const overlaps = b.left < line.right && b.right > line.left && b.top < line.bottom && b.bottom > line.top;
              if (overlaps) out.push(`"${b.name}" covers the status line of "${a.name}"`);
            }
          }
          return out;
        },
        { tabId: tab.id, status: STATUS, STATUS_TYPES: CORE_WITH_STATUS, BUTTON: 25 },
      );
      problems.push(...found.map((p) => `${file}: ${p}`));
      if (process.env.LAYOUT_SHOTS) await page.screenshot({ path: join(process.env.LAYOUT_SHOTS, `${file}.png`) });
    }
    assert.deepEqual(problems, []);
  });
});
