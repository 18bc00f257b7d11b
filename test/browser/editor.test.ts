// The editor as a user meets it: a real Node-RED started from red.js with this package installed in
// its userDir, Debian's Chromium driven by playwright-core, and the Home Assistant stand-in on a real
// socket. The mcp-server and mcp-call-tool dialogs are used through their own buttons and fields;
// only placing nodes on the canvas goes through RED.view.importNodes (dragging from the palette is
// the fragile part of a browser test, not the part under test).
//
// Screenshots of each dialog go to a temporary directory, or to docs/images/ with
// UPDATE_SCREENSHOTS=1. CHROMIUM_PATH overrides /usr/bin/chromium; EDITOR_TEST_PACKAGE_DIR points
// Node-RED at another built copy of the package (default: this repository with its dist/).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  editorSuiteHooks,
  launchEditor,
  removeScreenshotFolder,
  repoRoot,
  screenshotFolder,
  skipWithoutChromium,
  type EditorBrowser,
  openNodeDialog,
  cancelNodeDialog,
  deployFromEditor,
} from './chromium-editor';
import { startHomeAssistant, type HomeAssistantStandIn } from '../peers/home-assistant';
import { startNodeRed, type NodeRedProcess } from '../helpers/node-red';
import { stepByStep } from '../helpers/step-by-step';

const screenshotDir = screenshotFolder('editor');
/** Every node type the package registers (package.json), the new ones included without a second list. */
const OUR_TYPES = Object.keys(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'))['node-red'].nodes) as string[];

declare const RED: any; // the editor's global, inside page.evaluate callbacks
declare const $: any;

/** The first paragraph of a node's help template: what the help sidebar must show. */
function helpLead(type: string): string {
  const block = readFileSync(join(repoRoot, 'nodes', type, 'help.html'), 'utf8');
  const p = /<p>([\s\S]*?)<\/p>/.exec(block);
  assert.ok(p, `help of ${type} has no first paragraph`);
  return p[1]
    .replace(/<[^>]+>/g, '')
    .replace(/&[a-z]+;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 40);
}

describe('editor in Chromium (real Node-RED, Home Assistant stand-in)', function () {
  this.timeout(180000);
  stepByStep(this); // each step builds on the one before
  let editor: EditorBrowser | undefined;
  let page: Page;
  let nodeRed: NodeRedProcess | undefined;
  let ha: HomeAssistantStandIn | undefined;
  let serverId = '';

  before(async function () {
    skipWithoutChromium(this, 'editor browser test');
    ha = await startHomeAssistant();
    nodeRed = await startNodeRed({ installed: { packageDir: process.env.EDITOR_TEST_PACKAGE_DIR || repoRoot } });
    editor = await launchEditor(nodeRed.url, {
      tag: 'editor',
      viewport: { width: 1280, height: 800 },
      ready: async (p) => {
        await p.waitForFunction(
          (types) => typeof RED !== 'undefined' && RED.nodes && types.every((t: string) => RED.nodes.getType(t)) && RED.workspaces.active(),
          OUR_TYPES,
          { timeout: 60000 },
        );
        await p.locator('#red-ui-palette-container').waitFor();
      },
    });
    page = editor.page;
  });

  editorSuiteHooks(
    () => ({ editor, nodeRed }),
    async () => {
      await ha?.close();
      removeScreenshotFolder(screenshotDir);
    },
  );

  async function shot(name: string, selector = '.red-ui-tray:last-of-type'): Promise<void> {
    await page
      .locator(selector)
      .last()
      .screenshot({ path: join(screenshotDir, `${name}.png`) });
  }

  /** The whole editor, canvas scrolled back to its top-left corner. */
  async function pageShot(name: string): Promise<void> {
    await page.evaluate(() => $('#red-ui-workspace-chart').scrollTop(0).scrollLeft(0));
    await page.screenshot({ path: join(screenshotDir, `${name}.png`) });
  }

  /** Adds nodes to the active flow as an import does, at the x/y they are given. */
  async function placeNodes(nodes: Array<Record<string, unknown>>): Promise<void> {
    await page.evaluate((list) => {
      const z = RED.workspaces.active();
      RED.view.importNodes(
        list.map((n: any) => ({ ...n, z })),
        { generateIds: false, addFlow: false, touchImport: true, notify: false, applyNodeDefaults: true },
      );
      // The import anchors nodes to the mouse position; put them where the flow says.
      for (const n of list) Object.assign(RED.nodes.node(n.id), { x: n.x, y: n.y, dirty: true });
      RED.view.select({ nodes: [] });
      RED.view.redraw(true);
    }, nodes);
    for (const n of nodes) await page.locator(`g.red-ui-flow-node-group[id="${n.id}"]`).waitFor();
  }

  /** An inject node at x 200 that sends a JSON payload to `target`. */
  function jsonInject(id: string, name: string, y: number, payload: string, target: string): Record<string, unknown> {
    return {
      id,
      type: 'inject',
      name,
      x: 200,
      y,
      props: [{ p: 'payload' }],
      repeat: '',
      once: false,
      topic: '',
      payload,
      payloadType: 'json',
      wires: [[target]],
    };
  }

  const openEditor = (nodeId: string) => openNodeDialog(page, nodeId);

  it('the palette groups our nodes in three categories a person scans: MCP, Gemini, devices', async () => {
    const categoryOf = (type: string) => page.evaluate((t) => RED.nodes.getType(t)!.category, type);
    assert.equal(await categoryOf('mcp-call-tool'), 'MCP');
    assert.equal(await categoryOf('mcp-tool-in'), 'MCP');
    assert.equal(await categoryOf('gemini-agent'), 'Gemini');
    assert.equal(await categoryOf('esp32-mcp-in'), 'devices');
    assert.equal(await categoryOf('esp32-say'), 'devices');
    assert.equal(await categoryOf('ha-assist'), 'home assistant');
    for (const category of ['MCP', 'Gemini', 'devices']) {
      await page.locator(`#red-ui-palette-container-${category} .red-ui-palette-node`).first().waitFor({ state: 'attached' });
    }
  });

  it('searching the palette for "home" or "assistant" finds the Home Assistant node, with the label the canvas shows', async () => {
    const search = page.locator('#red-ui-palette-search input');
    const node = page.locator('.red-ui-palette-node[data-palette-type="ha-assist"]');
    for (const term of ['home', 'assistant', 'Home Assistant']) {
      await search.fill('');
      await search.pressSequentially(term); // typed: the search box filters on key presses
      await node.waitFor({ state: 'visible' });
      assert.equal((await node.innerText()).replace(/\s+/g, ' ').trim(), 'ask home assistant');
      // Only what matches stays: the call-tool node is not a Home Assistant node.
      await page.locator('.red-ui-palette-node[data-palette-type="mcp-call-tool"]').waitFor({ state: 'hidden' });
    }
    await search.fill('');
    await search.press('Backspace');
    // Cleared: nothing is filtered out any more (the categories fold back as they were).
    await page.waitForFunction(() => !document.querySelector('.red-ui-palette-node[data-filter="true"]'));
    const canvasLabel = await page.evaluate(() => {
      const def = RED.nodes.getType('ha-assist')!;
      return (def.label as (this: unknown) => string).call({ name: '' });
    });
    assert.equal(canvasLabel, 'ask home assistant');
  });

  it('searching the palette for "xiaozhi" or "esp32" finds both device nodes', async () => {
    const search = page.locator('#red-ui-palette-search input');
    for (const term of ['xiaozhi', 'esp32']) {
      await search.fill('');
      await search.pressSequentially(term);
      for (const [type, label] of [
        ['esp32-mcp-in', 'xiaozhi in'],
        ['esp32-say', 'xiaozhi say'],
      ]) {
        const node = page.locator(`.red-ui-palette-node[data-palette-type="${type}"]`);
        await node.waitFor({ state: 'visible' });
        assert.equal((await node.innerText()).replace(/\s+/g, ' ').trim(), label);
      }
      await page.locator('.red-ui-palette-node[data-palette-type="mcp-call-tool"]').waitFor({ state: 'hidden' });
    }
    await search.fill('');
    await search.press('Backspace');
    await page.waitForFunction(() => !document.querySelector('.red-ui-palette-node[data-filter="true"]'));
  });

  it('places inject → mcp-call-tool → debug on the canvas', async () => {
    await placeNodes([
      jsonInject('inject1', 'turn on kitchen', 200, '{"name":"Kitchen Light"}', 'call1'),
      { id: 'call1', type: 'mcp-call-tool', x: 420, y: 200, server: '', tool: '', wires: [['debug1'], []] },
      {
        id: 'debug1',
        type: 'debug',
        name: 'result',
        x: 640,
        y: 200,
        active: true,
        tosidebar: true,
        console: false,
        complete: 'payload',
        targetType: 'msg',
        wires: [],
      },
    ]);
    const wires = await page.evaluate(() => RED.nodes.filterLinks({ source: RED.nodes.node('call1') }).map((l: any) => l.target.id));
    assert.deepEqual(wires, ['debug1']);
  });

  it('creates an mcp-server through its dialog (Home Assistant preset, URL, token) and Test connection shows 19 tools', async () => {
    await openEditor('call1');
    // The server field's "+" button opens a new mcp-server config dialog.
    await page.locator('#node-input-btn-server-add').click();
    await page.locator('#node-config-dialog-ok').waitFor();

    // Only the fields of the chosen transport are shown.
    // (waitFor rather than isVisible: the tray is still sliding in when its buttons exist)
    await page.locator('#node-config-input-url').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#node-config-input-command').isVisible(), false);
    await page.selectOption('#node-config-input-transport', 'stdio');
    await page.locator('#node-config-input-command').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#node-config-input-url').isVisible(), false);
    // The servers that ship with the package are one click away.
    await page.locator('#node-config-mcp-bundled-todo').click();
    assert.equal(await page.inputValue('#node-config-input-command'), 'node');
    assert.deepEqual(JSON.parse(await page.inputValue('#node-config-input-args')), ['module:node-red-contrib-mcp-gemini/dist/servers/todo/main.js', 'stdio']);
    assert.match(await page.locator('#node-config-mcp-preset-note').innerText(), /todo MCP server that ships with this package/);
    await page.fill('#node-config-input-name', '');
    await page.selectOption('#node-config-input-transport', 'http');

    // Inline validation: an http server without a URL is marked before any deploy.
    await page.fill('#node-config-input-url', '');
    await page.locator('#node-config-input-url').blur();
    await page.waitForFunction(() => $('#node-config-input-url').hasClass('input-error'));

    // A bare host name becomes a whole URL: scheme, Home Assistant's port, the MCP path.
    await page.fill('#node-config-input-url', 'homeassistant.local');
    await page.locator('#node-config-mcp-ha-preset').click();
    assert.equal(await page.inputValue('#node-config-input-url'), 'http://homeassistant.local:8123/api/mcp');

    // The preset turns a base address into HA's MCP endpoint and names the server.
    await page.fill('#node-config-input-url', ha!.url.replace(/\/api\/mcp$/, ''));
    await page.locator('#node-config-mcp-ha-preset').click();
    assert.equal(await page.inputValue('#node-config-input-url'), ha!.url);
    assert.equal(await page.inputValue('#node-config-input-name'), 'Home Assistant');
    await page.waitForFunction(() => !$('#node-config-input-url').hasClass('input-error'));

    // A wrong token gives the exact error, not a generic failure.
    await page.fill('#node-config-input-token', 'not-the-token');
    await page.locator('#node-config-mcp-test').click();
    const failure = page.locator('#node-config-mcp-test-result.mcp-fail');
    await failure.waitFor({ timeout: 30000 });
    assert.match(await failure.innerText(), /^Failed: .*401/);

    // Editing a field clears a result that no longer describes the fields.
    await page.fill('#node-config-input-token', ha!.token);
    assert.equal((await page.locator('#node-config-mcp-test-result').innerText()).trim(), '');
    await page.locator('#node-config-mcp-test').click();
    const ok = page.locator('#node-config-mcp-test-result.mcp-ok');
    await ok.waitFor({ timeout: 30000 });
    const text = await ok.innerText();
    assert.match(text, /19 tools/);
    assert.match(text, /protocol 20\d\d-\d\d-\d\d/);
    assert.match(text, /^home-assistant · /); // the server's own serverInfo.name
    // The answer is on screen, not below the fold of the dialog (an 800 px high window).
    const shown = await page.evaluate(() => {
      const body = $('.red-ui-tray:last-of-type .red-ui-tray-body')[0].getBoundingClientRect();
      const result = $('#node-config-mcp-test-result')[0].getBoundingClientRect();
      return { top: result.top >= body.top, bottom: result.bottom <= body.bottom + 1 };
    });
    assert.deepEqual(shown, { top: true, bottom: true });
    await shot('mcp-server-dialog');

    await page.locator('#node-config-dialog-ok').click();
    await page.locator('#node-config-dialog-ok').waitFor({ state: 'detached' });
    serverId = await page.inputValue('#node-input-server');
    const server = await page.evaluate((id) => {
      const n = RED.nodes.node(id);
      return n && { type: n.type, url: n.url, transport: n.transport, name: n.name };
    }, serverId);
    assert.deepEqual(server, { type: 'mcp-server', url: ha!.url, transport: 'http', name: 'Home Assistant' });
  });

  it("mcp-call-tool lists the undeployed server's tools, picks HassTurnOn and shows its description and schema", async () => {
    const option = page.locator('#mcp-call-tool-select option[value="HassTurnOn"]');
    await option.waitFor({ state: 'attached', timeout: 30000 });
    assert.equal(await page.locator('#mcp-call-tool-select option').count(), 20); // 19 tools + the prompt
    // A misspelt name is flagged in the dialog, with the close matches.
    await page.fill('#node-input-tool', 'HassTurnOnn');
    await page.locator('#node-input-tool').dispatchEvent('input');
    // The close matches come from the runtime (the admin route's `near`), as its own error names them.
    await page.waitForFunction(() => /did you mean/.test($('#mcp-call-tool-description').text()), undefined, { timeout: 15000 });
    assert.match(await page.locator('#mcp-call-tool-description').innerText(), /no tool "HassTurnOnn"; did you mean: HassTurnOn(, HassTurnOff)?\?$/);
    assert.equal(await page.locator('#node-input-tool').evaluate((e) => e.classList.contains('input-error')), true);
    await page.selectOption('#mcp-call-tool-select', 'HassTurnOn');
    assert.equal(await page.locator('#node-input-tool').evaluate((e) => e.classList.contains('input-error')), false);
    assert.equal(await page.inputValue('#node-input-tool'), 'HassTurnOn');
    assert.match(await page.locator('#mcp-call-tool-description').innerText(), /Turns on/i);
    const schema = JSON.parse(await page.locator('#mcp-call-tool-schema').innerText());
    assert.equal(schema.type, 'object');
    assert.ok(schema.properties.name, 'HassTurnOn schema has a name property');
    await shot('mcp-call-tool-dialog');
    await page.locator('#node-dialog-ok').click();
    await page.locator('#node-dialog-ok').waitFor({ state: 'detached' });
    const saved = await page.evaluate(() => ({ tool: RED.nodes.node('call1').tool, server: RED.nodes.node('call1').server }));
    assert.deepEqual(saved, { tool: 'HassTurnOn', server: serverId });
  });

  it("deploys, the inject button calls HassTurnOn and the debug sidebar shows Home Assistant's answer", async () => {
    await deployFromEditor(page);
    const callsBefore = ha!.requests.filter((r) => r.rpcMethod === 'tools/call').length;
    await page.evaluate(() => RED.sidebar.show('debug'));
    await page.locator('g.red-ui-flow-node-group[id="inject1"] rect.red-ui-flow-node-button-button').click();
    const message = page.locator('.red-ui-debug-msg').filter({ hasText: 'action_done' });
    await message.first().waitFor({ timeout: 30000 });
    const calls = ha!.requests.filter((r) => r.rpcMethod === 'tools/call');
    assert.equal(calls.length, callsBefore + 1);
    const params = (calls.at(-1)!.json as any).params;
    assert.deepEqual({ name: params.name, arguments: params.arguments }, { name: 'HassTurnOn', arguments: { name: 'Kitchen Light' } });
    // Open payload.data.success[0] in the debug tree: the entity HA switched on.
    await page.evaluate(() => $('.red-ui-debug-msg-top-level > .red-ui-debug-msg-row.red-ui-debug-msg-expandable').last().trigger('click'));
    for (const key of ['data', 'success', '0']) {
      await page.evaluate((k) => {
        $('.red-ui-debug-msg-row.red-ui-debug-msg-expandable')
          .filter((_i: number, e: Element) => $(e).children('.red-ui-debug-msg-object-key').text() === k)
          .last()
          .trigger('click');
      }, key);
    }
    await message.first().getByText('"light.kitchen"').waitFor();
    await page
      .locator('.red-ui-notification')
      .first()
      .waitFor({ state: 'detached', timeout: 15000 })
      .catch(() => undefined);
    await pageShot('flow-debug-result');
  });

  it('a failed call is one readable red line in the debug sidebar, not an error object with a stack', async () => {
    await placeNodes([
      jsonInject('inject2', 'bad call', 260, '{}', 'call2'),
      { id: 'call2', type: 'mcp-call-tool', x: 420, y: 260, server: serverId, tool: 'NoSuchTool', wires: [[], []] },
    ]);
    await page.evaluate(() => RED.nodes.dirty(true));
    await deployFromEditor(page);
    await page.evaluate(() => RED.sidebar.show('debug'));
    await page.locator('g.red-ui-flow-node-group[id="inject2"] rect.red-ui-flow-node-button-button').click();
    const errors = page.locator('.red-ui-debug-msg.red-ui-debug-msg-level-20');
    await errors.first().waitFor({ timeout: 30000 });
    await page.waitForTimeout(1000); // a second line for the same failure would arrive by now
    assert.equal(await errors.count(), 1, 'one failure, one line');
    const text = await errors.first().innerText();
    assert.match(text, /NoSuchTool/);
    assert.doesNotMatch(text, /McpNodeError|stack|\.js:\d+/);
    assert.equal(await errors.first().locator('.red-ui-debug-msg-expandable').count(), 0, 'nothing to unfold');
  });

  it("mcp-list-tools shows the schema compiler's warnings for the chosen format before deploy", async () => {
    await placeNodes([{ id: 'list1', type: 'mcp-list-tools', x: 420, y: 300, server: serverId, format: 'mcp', property: 'payload', wires: [[]] }]);
    await openEditor('list1');
    // gemini-schema is Gemini's OpenAPI subset: HA's schemas lose what it cannot express.
    await page.selectOption('#node-input-format', 'gemini-schema');
    const box = page.locator('#mcp-list-tools-warnings');
    await page.waitForFunction(() => /compiling 19 tools|✓ 19 tools/.test($('#mcp-list-tools-warnings').text()), undefined, { timeout: 30000 });
    const text = await box.innerText();
    assert.match(text, /compiling 19 tools|✓ 19 tools/);
    await shot('mcp-list-tools-dialog');
  });

  it('imports a .mcp.json from a file into one mcp-server config node per entry', async () => {
    // From the open list-tools dialog: the server field's "+" button, as a user would.
    await page.locator('#node-input-btn-server-add').click();
    await page.locator('#node-config-dialog-ok').waitFor();
    await page.locator('#node-config-mcp-import-toggle').click();
    const mcpJson = {
      mcpServers: {
        everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], env: { LOG: '1', GITHUB_TOKEN: 'ghp-secret-import-env' } },
        'remote-http': {
          type: 'http',
          url: 'https://mcp.example.com/mcp',
          headers: { Authorization: 'Bearer secret-import-token', 'X-Team': 'home', 'X-Api-Key': 'secret-import-apikey' },
        },
        'legacy-sse': { type: 'sse', url: 'http://127.0.0.1:9/sse' },
        broken: { description: 'neither command nor url' },
      },
    };
    await page
      .locator('#node-config-mcp-import-file')
      .setInputFiles({ name: '.mcp.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(mcpJson, null, 2)) });
    await page.waitForFunction(() => /mcpServers/.test($('#node-config-mcp-import-text').val()));
    await page.locator('#node-config-mcp-import-create').click();
    const result = page.locator('#node-config-mcp-import-result.mcp-ok');
    await result.waitFor();
    assert.match(await result.innerText(), /Created 3 server\(s\): everything, remote-http, legacy-sse/);
    assert.match(await result.innerText(), /Skipped .*broken/);
    await shot('mcp-server-import');
    await page.locator('#node-config-dialog-cancel').click();
    await cancelNodeDialog(page);

    const imported = await page.evaluate(() => {
      const out: Record<string, unknown> = {};
      RED.nodes.eachConfig((n: any) => {
        if (n.type === 'mcp-server' && n.name !== 'Home Assistant') {
          out[n.name] = {
            transport: n.transport,
            url: n.url,
            command: n.command,
            args: n.args,
            env: n.env,
            headers: n.headers,
            token: n.credentials && n.credentials.token,
            secrets: n.credentials && n.credentials.secrets,
            valid: n.valid,
          };
        }
      });
      return out;
    });
    assert.deepEqual(imported, {
      everything: {
        transport: 'stdio',
        url: '',
        command: 'npx',
        args: '["-y","@modelcontextprotocol/server-everything"]',
        env: '{"LOG":"1"}',
        headers: '',
        token: undefined,
        secrets: '{"headers":{},"env":{"GITHUB_TOKEN":"ghp-secret-import-env"}}',
        valid: true,
      },
      'remote-http': {
        transport: 'http',
        url: 'https://mcp.example.com/mcp',
        command: '',
        args: '',
        env: '',
        headers: '{"X-Team":"home"}',
        token: 'secret-import-token',
        secrets: '{"headers":{"X-Api-Key":"secret-import-apikey"},"env":{}}',
        valid: true,
      },
      'legacy-sse': {
        transport: 'sse',
        url: 'http://127.0.0.1:9/sse',
        command: '',
        args: '',
        env: '',
        headers: '',
        token: undefined,
        secrets: undefined,
        valid: true,
      },
    });
    // One undoable step: the history's last event adds exactly these three nodes.
    const last = await page.evaluate(() => {
      const e = RED.history.peek();
      return e && { t: e.t, names: (e.nodes || []).map((id: string) => RED.nodes.node(id)?.name).sort() };
    });
    assert.deepEqual(last, { t: 'add', names: ['everything', 'legacy-sse', 'remote-http'] });
    // The config-nodes sidebar lists them.
    await page.evaluate(() => RED.sidebar.show('config'));
    for (const name of ['everything', 'remote-http', 'legacy-sse']) {
      await page.locator('#red-ui-sidebar-node-config .red-ui-palette-label', { hasText: name }).first().waitFor();
    }
    await pageShot('config-nodes-imported');
    // The token went to the credential, never into the exported flow.
    const exported = await page.evaluate(() => JSON.stringify(RED.nodes.createCompleteNodeSet({ credentials: false })));
    assert.doesNotMatch(exported, /secret-import-(token|apikey)|ghp-secret-import-env/);
    // Deployed, the runtime holds it as the node's stored credential.
    await deployFromEditor(page);
    const remoteId = await page.evaluate(() => {
      let id = '';
      RED.nodes.eachConfig((n: any) => {
        if (n.name === 'remote-http') id = n.id;
      });
      return id;
    });
    const cred = await fetch(`${nodeRed!.url}/credentials/mcp-server/${remoteId}`).then((r) => r.json());
    // The secret header too; the editor gets its name back, never its value.
    // (the OAuth credentials, empty here, are listed too)
    assert.equal(cred.has_token, true);
    assert.equal(cred.has_secrets, true);
    assert.equal(cred.secretNames, '{"headers":["X-Api-Key"],"env":[]}');
    assert.doesNotMatch(JSON.stringify(cred), /secret-import-token/);
    // Its dialog lists the plain header with its value and the secret one by name, value hidden.
    await page.evaluate((id) => RED.editor.editConfig('', 'mcp-server', id), remoteId);
    await page.locator('#node-config-headers-list .mcp-entry-key').nth(1).waitFor();
    const rows = await page.evaluate(() =>
      $('#node-config-headers-list')
        .editableList('items')
        .map(function (this: any) {
          return {
            key: $(this).find('.mcp-entry-key').val(),
            value: $(this).find('.mcp-entry-value').val(),
            type: $(this).find('.mcp-entry-value').attr('type'),
            secret: $(this).find('.mcp-entry-secret').prop('checked'),
          };
        })
        .get(),
    );
    assert.deepEqual(rows, [
      { key: 'X-Team', value: 'home', type: 'text', secret: false },
      { key: 'X-Api-Key', value: '', type: 'password', secret: true },
    ]);
    await shot('mcp-server-secret-entries');
    // Saved untouched, nothing changed: the stored secret is not overwritten (no new deploy needed).
    await page.locator('#node-config-dialog-ok').click();
    await page.locator('#node-config-dialog-ok').waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => RED.nodes.dirty()), false);
  });

  it('opens the gemini-agent and esp32-mcp-in dialogs; esp32-mcp-in picks its esp32-listener', async () => {
    // config nodes are not on the canvas: imported as a flow would bring them
    await page.evaluate(() => {
      RED.view.importNodes(
        [
          { id: 'lst1', type: 'esp32-listener', name: 'my devices', transport: 'websocket', path: '/xiaozhi/v1/' },
          { id: 'espsrv1', type: 'mcp-server', name: 'esp32 server', transport: 'esp32', listener: 'lst1' },
        ],
        { generateIds: false, addFlow: false, notify: false, applyNodeDefaults: true },
      );
    });
    await placeNodes([
      { id: 'agent1', type: 'gemini-agent', x: 420, y: 400, wires: [[], []] },
      { id: 'esp1', type: 'esp32-mcp-in', listener: 'lst1', x: 420, y: 480, wires: [[]] },
    ]);
    for (const [id, type] of [
      ['agent1', 'gemini-agent'],
      ['esp1', 'esp32-mcp-in'],
    ]) {
      await openEditor(id);
      // The form is filled in after the tray's buttons exist: wait for it rather than race it.
      await page.locator('#dialog-form .form-row').first().waitFor({ timeout: 10000 });
      assert.ok((await page.locator('#dialog-form .form-row').count()) > 0, `${type} dialog has fields`);
      if (type === 'esp32-mcp-in') {
        // the editor's config-node select for the listener, holding the imported one
        await page.waitForFunction(() => $('#node-input-listener').val() === 'lst1');
      }
      await shot(`${type}-dialog`);
      await cancelNodeDialog(page);
    }
  });

  it('no dialog clips its placeholders or wraps its labels at 1280 px: what explains a blank field is a hint line under it', async () => {
    const FLOW_TYPES = [
      'mcp-list-tools',
      'mcp-call-tool',
      'gemini-agent',
      'esp32-mcp-in',
      'esp32-say',
      'mcp-prompt',
      'mcp-resource',
      'mcp-tool-in',
      'mcp-tool-out',
      'ha-assist',
    ];
    const CONFIG_TYPES = ['mcp-server', 'esp32-listener', 'mcp-endpoint'];
    // Placeholders cut off at the field's edge, and labels wrapped onto a second line, in what the
    // open dialog shows now.
    const clippedNow = () =>
      page.evaluate(() => {
        const ctx = document.createElement('canvas').getContext('2d')!;
        const out: string[] = [];
        const tray = $('.red-ui-tray:last-of-type');
        tray.find('input[placeholder], textarea[placeholder]').each(function (this: HTMLInputElement) {
          if (!this.placeholder || this.offsetParent === null) return;
          const style = getComputedStyle(this);
          ctx.font = style.font;
          const room = this.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          // An input shows one line; a textarea wraps its placeholder into as many lines as it is high.
          const lines =
            this.tagName === 'TEXTAREA'
              ? Math.max(
                  1,
                  Math.floor((this.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)) / (parseFloat(style.lineHeight) || 18)),
                )
              : 1;
          const needed = this.placeholder.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(ctx.measureText(line).width / room)), 0);
          if (needed > lines || (lines === 1 && ctx.measureText(this.placeholder).width > room + 1)) out.push(`#${this.id}: "${this.placeholder}"`);
        });
        tray.find('.form-row > label').each(function (this: HTMLLabelElement) {
          if (this.offsetParent === null || !this.textContent!.trim()) return;
          const lineHeight = parseFloat(getComputedStyle(this).lineHeight) || 20;
          if (this.getBoundingClientRect().height > lineHeight * 1.5) out.push(`label "${this.textContent!.trim()}" wraps`);
        });
        return out;
      });
    // Every tab of a dialog that groups its settings (gemini-agent), or the one form of the others.
    const clippedInEveryTab = async (form: string) => {
      const tabs = await page.locator(`${form} .red-ui-tabs li a`).all();
      if (!tabs.length) return clippedNow();
      const out: string[] = [];
      for (const tab of tabs) {
        await tab.click();
        const name = (await tab.innerText()).trim();
        out.push(...(await clippedNow()).map((c) => `(tab ${name}) ${c}`));
        // A grouped dialog exists so that no tab runs past the fold of an 800 px high window.
        const overflow = await page.evaluate(() => {
          const body = $('.red-ui-tray:last-of-type .red-ui-tray-body')[0] as HTMLElement;
          return body.scrollHeight - body.clientHeight;
        });
        if (overflow > 1) out.push(`(tab ${name}) runs ${overflow} px past the fold`);
      }
      return out;
    };
    // The fields named after the protocol's or the gateway's own terms say what they are for.
    const jargonHints: string[] = [];
    const hintUnder = (field: string) =>
      page.evaluate((f) => `${f}: ${$(f).closest('.form-row').find('.mcp-gemini-hint').text().trim() || '(no hint line)'}`, field);
    // Every hint line starts where its field does, past the labels (one shared style, not a style per line).
    const hintsAtTheEdge: string[] = [];
    const hintsOutOfLine = (form: string, type: string) =>
      page.evaluate(
        ({ f, t }) =>
          $(`${f} .mcp-gemini-hint:visible`)
            .toArray()
            .filter((el: HTMLElement) => parseFloat(getComputedStyle(el).marginLeft) < 100)
            .map((el: HTMLElement) => `${t}: "${$(el).text().trim().slice(0, 40)}" at ${getComputedStyle(el).marginLeft}`),
        { f: form, t: type },
      );
    const clipped: string[] = [];
    await placeNodes(FLOW_TYPES.map((type, i) => ({ id: `clip-${i}`, type, x: 700, y: 80 + i * 50, wires: [] })));
    for (let i = 0; i < FLOW_TYPES.length; i++) {
      await openEditor(`clip-${i}`);
      await page.locator('#dialog-form .form-row').first().waitFor({ timeout: 10000 });
      clipped.push(...(await clippedInEveryTab('#dialog-form')).map((c) => `${FLOW_TYPES[i]} ${c}`));
      hintsAtTheEdge.push(...(await hintsOutOfLine('#dialog-form', FLOW_TYPES[i])));
      if (FLOW_TYPES[i] === 'mcp-tool-in') {
        await shot('mcp-tool-in-dialog');
        jargonHints.push(await hintUnder('#node-input-hint-destructiveHint'));
      }
      await cancelNodeDialog(page);
    }
    for (const type of CONFIG_TYPES) {
      await page.evaluate((t) => RED.editor.editConfig('', t, '_ADD_'), type);
      await page.locator('#node-config-dialog-cancel').waitFor();
      await page.locator('#node-config-dialog-edit-form .form-row').first().waitFor({ timeout: 10000 });
      if (type === 'esp32-listener') await shot('esp32-listener-dialog-hints');
      if (type === 'esp32-listener') jargonHints.push(await hintUnder('#node-config-input-visionUrl'));
      if (type === 'mcp-endpoint') jargonHints.push(await hintUnder('#node-config-input-instance'), await hintUnder('#node-config-input-roots'));
      clipped.push(...(await clippedInEveryTab('#node-config-dialog-edit-form')).map((c) => `${type} ${c}`));
      hintsAtTheEdge.push(...(await hintsOutOfLine('#node-config-dialog-edit-form', type)));
      // A server's rows change with its transport (stdio: command, arguments, Environment).
      if (type === 'mcp-server') {
        await page.locator('#node-config-input-transport').selectOption('stdio');
        clipped.push(...(await clippedNow()).map((c) => `${type} (stdio) ${c}`));
      }
      // The listener's rows change with its transport: each set is measured.
      if (type === 'esp32-listener') {
        for (const transport of ['mqtt-gateway', 'mqtt']) {
          await page.locator('#node-config-input-transport').selectOption(transport);
          clipped.push(...(await clippedNow()).map((c) => `${type} (${transport}) ${c}`));
        }
      }
      await page.locator('#node-config-dialog-cancel').click();
      await page.locator('#node-config-dialog-cancel').waitFor({ state: 'detached' });
    }
    await page.evaluate(() => {
      for (let i = 0; i < 9; i++) RED.nodes.remove(`clip-${i}`);
      RED.view.redraw(true);
    });
    assert.deepEqual(clipped, []);
    assert.deepEqual(hintsAtTheEdge, []);
    assert.equal(jargonHints.length, 4);
    for (const hint of jargonHints) assert.doesNotMatch(hint, /\(no hint line\)/);
  });

  it('the Configuration nodes sidebar lists the esp32-listener with its two users', async () => {
    const users = await page.evaluate(() =>
      RED.nodes
        .node('lst1')
        .users.map((u: any) => u.type)
        .sort(),
    );
    assert.deepEqual(users, ['esp32-mcp-in', 'mcp-server']);
    await page.evaluate(() => RED.sidebar.show('config'));
    const entry = page.locator('.red-ui-palette-node-config', { hasText: 'my devices' });
    await entry.waitFor();
    assert.equal((await entry.locator('.red-ui-palette-icon-container').innerText()).trim(), '2');
    await pageShot('esp32-listener-config-sidebar');
    // its dialog opens from the sidebar; undeployed, it says how to see devices
    await entry.dblclick();
    await page.locator('#esp32-listener-devices').waitFor();
    await page.waitForFunction(() => /Deploy the listener/.test($('#esp32-listener-devices').text()));
    assert.ok(await page.locator('#node-config-input-tokens').isVisible(), 'websocket shows the Tokens field');
    assert.ok(!(await page.locator('#esp32-listener-live-model').isVisible()), 'voice off hides the Live settings');
    await page.locator('#node-config-input-voice').selectOption('live');
    await page.locator('#esp32-listener-live-model').waitFor({ state: 'visible' });
    await page.locator('#esp32-listener-live-servers input[type=checkbox]').first().waitFor({ state: 'visible' });
    await shot('esp32-listener-dialog');
    await page.locator('#node-config-dialog-cancel').click();
    await page.locator('#node-config-dialog-cancel').waitFor({ state: 'detached' });
  });

  it('shows help text for every node type in the help sidebar', async () => {
    for (const type of OUR_TYPES) {
      const lead = helpLead(type);
      await page.evaluate((t) => RED.sidebar.help.show(t), type);
      await page.waitForFunction(
        (expected) => $('.red-ui-sidebar-help-stack .red-ui-help:visible, .red-ui-help:visible').text().replace(/\s+/g, ' ').includes(expected),
        lead,
        { timeout: 10000 },
      );
      if (type === 'mcp-call-tool') await pageShot('help-mcp-call-tool');
    }
  });

  it('the dialogs share their code through the build, not through globals: nothing of ours is on window', async () => {
    const loose = await page.evaluate(() =>
      ['mcpGeminiEditor', 'loadTools', 'settingsOf', 'serverDropdown', 'suggestTools', 'parseMcpJson', 'registerDialog'].filter((k) => k in window),
    );
    assert.deepEqual(loose, []);
  });

  it('raised no script errors in the editor page', () => {
    assert.deepEqual(editor!.pageErrors, [], `editor page errors; Node-RED log:\n${nodeRed?.log.join('\n')}`);
  });
});
