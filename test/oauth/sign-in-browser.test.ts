// OAuth sign-in as a user does it: a real Node-RED (red.js, this package installed), Debian's
// Chromium through playwright-core, and two authorization servers on 127.0.0.1, each guarding an
// MCP server that checks the bearer:
// - a standard one (oidc-provider: metadata, dynamic registration, PKCE, resource indicators,
//   3-second access tokens, rotated refresh tokens, its own login and consent pages);
// - the Home Assistant stand-in with HA's IndieAuth (login page, form POSTs, no PKCE, no
//   registration, refresh without a new refresh token, revocation).
// The mcp-server dialog's Authorize button opens the sign-in in a new tab; after it the flows list
// the tools, and still do after the access token expired (refreshed), and no token appears in the
// flows (GET /flows), the credentials the editor reads, the messages, or Node-RED's log.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchEditor, skipWithoutChromium, type EditorBrowser } from '../browser/chromium-editor';
import { startNodeRed, type NodeRedProcess } from '../helpers/node-red';
import { HA_GENERATIONS, haToolName, startHomeAssistant, type HaGeneration, type HomeAssistantStandIn } from '../peers/home-assistant';
import { HA_USER, HaIndieAuth } from '../peers/oauth/ha-indieauth';
import { OAUTH_TOOLS } from '../peers/oauth/protected-mcp';
import { startStandardOAuthServer, type StandardOAuthServer } from '../peers/oauth/standard-server';
import { stepByStep } from '../helpers/step-by-step';

declare const RED: any;
declare const $: any; // eslint-disable-line @typescript-eslint/no-unused-vars -- jQuery inside page.evaluate callbacks

const ACCESS_TTL_S = 3;

function listFlow(key: string, serverId: string, url: string, extra: Record<string, unknown> = {}): any[] {
  return [
    { id: serverId, type: 'mcp-server', name: key, transport: 'http', url, auth: 'oauth', timeout: 20, ...extra },
    { id: `${key}-in`, type: 'http in', z: 'tab1', url: `/oauth-${key}/list`, method: 'get', wires: [[`${key}-list`]] },
    { id: `${key}-list`, type: 'mcp-list-tools', z: 'tab1', server: serverId, wires: [[`${key}-reply`]] },
    // The whole message goes back to the test, so it can prove no token rode along.
    {
      id: `${key}-reply`,
      type: 'function',
      z: 'tab1',
      func: 'const { req, res, ...rest } = msg; msg.payload = JSON.stringify(rest); return msg;',
      wires: [[`${key}-out`]],
    },
    { id: `${key}-out`, type: 'http response', z: 'tab1', statusCode: '', wires: [] },
  ];
}

// Once per Home Assistant generation: 2026.9+ serves its sign-in metadata with relative endpoints
// and no issuer.
for (const generation of HA_GENERATIONS) describeSignIn(generation);

function describeSignIn(generation: HaGeneration) {
  describe(`OAuth sign-in through the editor in Chromium (oidc-provider and Home Assistant ${generation} IndieAuth)`, function () {
    this.timeout(240000);
    stepByStep(this); // each step builds on the one before
    let std: StandardOAuthServer;
    let haAuth: HaIndieAuth;
    let ha: HomeAssistantStandIn;
    let nodeRed: NodeRedProcess;
    let editor: EditorBrowser;
    let page: Page;
    const issued: string[] = []; // every token value the servers handed out

    before(async function () {
      skipWithoutChromium(this, 'OAuth browser test');
      std = await startStandardOAuthServer({ accessTokenTtl: ACCESS_TTL_S });
      haAuth = new HaIndieAuth({ relativeMetadata: generation !== 'pre-2026.9' });
      ha = await startHomeAssistant({ auth: haAuth, generation });
      nodeRed = await startNodeRed();
      const flows = [
        { id: 'tab1', type: 'tab', label: 'oauth' },
        ...listFlow('std', 'srv-std', std.mcpUrl),
        ...listFlow('ha', 'srv-ha', ha.url),
        { id: 'catch1', type: 'catch', z: 'tab1', scope: null, uncaught: false, wires: [['fail-reply']] },
        { id: 'fail-reply', type: 'function', z: 'tab1', func: 'msg.statusCode = 502; msg.payload = msg.error.message; return msg;', wires: [['fail-out']] },
        { id: 'fail-out', type: 'http response', z: 'tab1', statusCode: '', wires: [] },
      ];
      const deployed = await fetch(nodeRed.url + '/flows', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(flows) });
      assert.equal(deployed.status, 204, await deployed.text());
      editor = await launchEditor(nodeRed.url, {
        tag: 'oauth',
        viewport: { width: 1280, height: 900 },
        ready: (p) =>
          p.waitForFunction(() => typeof RED !== 'undefined' && RED.nodes && RED.nodes.node('srv-std') && RED.workspaces.active(), undefined, {
            timeout: 60000,
          }),
      });
      page = editor.page;
    });

    afterEach(async function () {
      await editor?.screenshotIfFailed(this.currentTest, () => nodeRed?.log.join('\n').slice(-4000) ?? '');
    });

    after(async () => {
      await editor?.close();
      await nodeRed?.stop();
      await std?.close();
      await ha?.close();
    });

    async function get(path: string): Promise<{ status: number; text: string }> {
      const res = await fetch(`${nodeRed.url}/${path}`);
      return { status: res.status, text: await res.text() };
    }

    /** Opens the server's dialog, clicks Authorize, lets `login` sign in on the new tab, waits for "Signed in". */
    async function authorize(serverId: string, login: (tab: Page) => Promise<void>, close = '#node-config-dialog-cancel'): Promise<void> {
      await page.evaluate((id) => RED.editor.editConfig('', 'mcp-server', id), serverId);
      await page.locator('#node-config-mcp-oauth-authorize').waitFor({ state: 'visible' });
      assert.equal(await page.locator('#node-config-input-token').isVisible(), false, 'the token field is hidden with OAuth');
      await page.locator('#node-config-mcp-oauth-result', { hasText: 'Not signed in' }).waitFor();
      const [tab] = await Promise.all([page.context().waitForEvent('page'), page.locator('#node-config-mcp-oauth-authorize').click()]);
      await login(tab);
      await tab.locator('#mcp-oauth-result', { hasText: 'Signed in' }).waitFor({ timeout: 30000 });
      await tab.close();
      await page.locator('#node-config-mcp-oauth-result', { hasText: 'Signed in' }).waitFor({ timeout: 15000 });
      await page.locator(close).click();
      await page.locator(close).waitFor({ state: 'detached' });
    }

    function assertNoToken(where: string, text: string): void {
      for (const t of issued) assert.ok(!text.includes(t), `${where} contains a token`);
    }

    it('standard server: Authorize opens its login and consent pages, registration + PKCE, then the flow lists its tools', async () => {
      await authorize('srv-std', async (tab) => {
        await tab.locator('input[name=login]').fill('alice');
        await tab.locator('input[name=password]').fill('any password');
        await tab.locator('button[type=submit]').click();
        await tab.locator('button[type=submit]', { hasText: /continue/i }).click(); // consent
      });
      assert.equal(std.registrations, 1, 'dynamic client registration happened once');
      assert.deepEqual(std.grants, ['authorization_code']);
      const res = await get('oauth-std/list');
      assert.equal(res.status, 200, res.text);
      const msg = JSON.parse(res.text);
      assert.deepEqual(
        msg.payload.map((t: any) => t.name),
        OAUTH_TOOLS.map((t) => t.name),
      );
      issued.push(...std.issuedTokens);
      assertNoToken('the message', res.text);
    });

    it('standard server: after the access token expired, the tools come again with a refreshed (rotated) token', async () => {
      const seenBefore = new Set(std.mcp.bearers).size;
      await new Promise((r) => setTimeout(r, ACCESS_TTL_S * 1000 + 500));
      const res = await get('mcp-server/srv-std/tools?refresh=true');
      assert.equal(res.status, 200, res.text);
      assert.equal(JSON.parse(res.text).tools.length, OAUTH_TOOLS.length);
      assert.ok(std.grants.includes('refresh_token'), `a refresh happened (grants: ${std.grants.join(', ')})`);
      assert.ok(new Set(std.mcp.bearers).size > seenBefore, 'the server saw a new access token');
      // A second expiry: the rotated refresh token was kept (reusing the old one would revoke the grant).
      await new Promise((r) => setTimeout(r, ACCESS_TTL_S * 1000 + 500));
      const again = await get('mcp-server/srv-std/tools?refresh=true');
      assert.equal(again.status, 200, again.text);
      assert.equal(std.grants.filter((g) => g === 'refresh_token').length, 2);
      issued.push(...std.issuedTokens);
    });

    it("Home Assistant: Authorize opens HA's login page (IndieAuth, client id = Node-RED's base URL), then the flow lists its tools", async () => {
      await authorize('srv-ha', async (tab) => {
        await tab.locator('input[name=username]').fill(HA_USER.username);
        await tab.locator('input[name=password]').fill(HA_USER.password);
        await tab.locator('#ha-login').click();
      });
      assert.deepEqual(
        haAuth.tokenRequests.map((r) => [r.grant_type, r.client_id]),
        [['authorization_code', nodeRed.url + '/']],
      );
      const res = await get('oauth-ha/list');
      assert.equal(res.status, 200, res.text);
      assert.ok(JSON.parse(res.text).payload.some((t: any) => t.name === haToolName(generation, 'HassTurnOn')));
      issued.push(...haAuth.issuedTokens());
      assertNoToken('the message', res.text);
    });

    it('Home Assistant: an expired access token is refreshed after the 401, with the same refresh token', async () => {
      haAuth.expireAccessTokens();
      const res = await get('mcp-server/srv-ha/tools?refresh=true');
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        haAuth.tokenRequests.map((r) => `${r.grant_type} ${r.status}`),
        ['authorization_code 200', 'refresh_token 200'],
      );
      issued.push(...haAuth.issuedTokens());
    });

    it('Home Assistant: a revoked sign-in ends in one refused refresh and an error that says to click Authorize', async () => {
      haAuth.revokeAll();
      haAuth.expireAccessTokens();
      const res = await get('oauth-ha/list?fresh=1');
      // The list is cached per session; ask the server through the admin route as well.
      const admin = await get('mcp-server/srv-ha/tools?refresh=true');
      assert.equal(admin.status, 502, admin.text);
      assert.match(admin.text, /click Authorize/);
      assert.equal(haAuth.tokenRequests.filter((r) => r.grant_type === 'refresh_token' && r.status === 400).length, 1, 'asked once, not again and again');
      const again = await get('mcp-server/srv-ha/tools?refresh=true');
      assert.match(again.text, /click Authorize/);
      assert.equal(haAuth.tokenRequests.length, 3, 'a gone sign-in sends nothing more to HA');
      assertNoToken('the answer', res.text + admin.text + again.text);
    });

    it('a server added in the editor can sign in before its first deploy; the deploy keeps the sign-in', async () => {
      await page.evaluate((url) => {
        RED.nodes.import([{ id: 'srv-new', type: 'mcp-server', name: 'new HA', transport: 'http', url, auth: 'oauth', timeout: 20 }]);
        RED.nodes.dirty(true);
      }, ha.url);
      await authorize(
        'srv-new',
        async (tab) => {
          await tab.locator('input[name=username]').fill(HA_USER.username);
          await tab.locator('input[name=password]').fill(HA_USER.password);
          await tab.locator('#ha-login').click();
        },
        '#node-config-dialog-ok',
      );
      await page.locator('#red-ui-header-button-deploy').click();
      // The flow posted in before() is terse JSON the editor calls "not properly configured": confirm.
      await page
        .getByRole('button', { name: 'Confirm deploy' })
        .click({ timeout: 5000 })
        .catch(() => undefined);
      await page.waitForFunction(() => !RED.nodes.dirty(), undefined, { timeout: 30000 });
      const res = await get('mcp-server/srv-new/tools?refresh=true');
      assert.equal(res.status, 200, res.text);
      assert.ok(JSON.parse(res.text).tools.some((t: any) => t.name === haToolName(generation, 'HassTurnOn')));
      issued.push(...haAuth.issuedTokens());
    });

    it("no token in GET /flows, in the credentials the editor reads, in Node-RED's log; the token file is encrypted", async () => {
      assert.ok(issued.length >= 6);
      assertNoToken('GET /flows', (await get('flows')).text);
      for (const id of ['srv-std', 'srv-ha', 'srv-new']) {
        const creds = await get(`credentials/mcp-server/${id}`);
        assertNoToken('the editor credentials', creds.text);
      }
      assertNoToken('the Node-RED log', nodeRed.log.join('\n'));
      const file = join(nodeRed.userDir, 'mcp-oauth-tokens.json');
      assert.ok(existsSync(file), 'refreshed tokens were saved at once');
      assertNoToken('the token file', readFileSync(file, 'utf8'));
      assert.deepEqual(editor.pageErrors, []);
    });
  });
}
