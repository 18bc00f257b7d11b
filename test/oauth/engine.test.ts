// The OAuth engine without a browser, against the Home Assistant stand-in's IndieAuth over real
// sockets: the single-use state, a refresh before expiry (no 401 first), one refresh for many
// concurrent requests, a revoked grant, and the token file that keeps a refresh across a restart
// that came before any deploy.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PendingSignIns } from '../../src/mcp/oauth/pending-sign-ins';
import { startSignIn, type PendingSignIn } from '../../src/mcp/oauth/sign-in';
import type { OAuthState, OAuthStateStore } from '../../src/mcp/oauth/state';
import { OAuthTokenProvider } from '../../src/mcp/oauth/token-provider';
import { oauthStateStore } from '../../nodes/mcp-server/oauth-store';
import { startHomeAssistant, type HomeAssistantStandIn } from '../peers/home-assistant';
import { HaIndieAuth } from '../peers/oauth/ha-indieauth';
import { loginAtHa, REDIRECT } from './ha-login';

function memoryStore(initial?: OAuthState): OAuthStateStore & { saves: number } {
  let state = initial;
  return {
    saves: 0,
    load: () => state,
    save(s) {
      state = s;
      this.saves++;
    },
  };
}

describe('OAuth engine: IndieAuth sign-in, refresh and persistence (HA stand-in)', function () {
  this.timeout(20000);
  let auth: HaIndieAuth;
  let ha: HomeAssistantStandIn;

  beforeEach(async () => {
    auth = new HaIndieAuth({ accessTokenTtl: 1800 });
    ha = await startHomeAssistant({ auth });
  });
  afterEach(() => ha.close());

  async function signIn(): Promise<OAuthState> {
    const pending = await startSignIn({ serverUrl: ha.url, redirectUrl: REDIRECT });
    assert.equal(pending.kind, 'indieauth');
    const authorize = new URL(pending.authorizationUrl);
    assert.equal(authorize.searchParams.get('client_id'), 'http://127.0.0.1:1880/');
    assert.equal(authorize.searchParams.get('code_challenge'), null, 'HA takes no PKCE');
    const back = await loginAtHa(pending.authorizationUrl);
    assert.equal(back.get('state'), pending.state);
    return pending.finish(back);
  }

  it('a pending sign-in is taken once; an unknown, reused or ten-minute-old state finds nothing', () => {
    const pending = new PendingSignIns();
    const p = (state: string) => ({ state, kind: 'indieauth', authorizationUrl: '', finish: async () => undefined as never }) as PendingSignIn;
    pending.add('n1', p('s1'), 0);
    assert.equal(pending.take('nope', 1)?.nodeId, undefined);
    assert.equal(pending.take('s1', 1)?.nodeId, 'n1');
    assert.equal(pending.take('s1', 2), undefined, 'single use');
    pending.add('n1', p('s2'), 0);
    assert.equal(pending.take('s2', 10 * 60_000 + 1), undefined, 'expired');
    pending.add('n2', p('s3'), 0);
    pending.add('n2', p('s4'), 0);
    assert.equal(pending.take('s3', 1), undefined, 'a new Authorize click replaces the old sign-in');
    assert.equal(pending.take('s4', 1)?.nodeId, 'n2');
  });

  it('refreshes shortly before expiry, without a 401 first, and once for ten concurrent requests', async () => {
    const state = await signIn();
    let clock = Date.now();
    const store = memoryStore(state);
    const provider = new OAuthTokenProvider({ serverUrl: ha.url, store, now: () => clock });
    assert.equal(await provider.token(), state.tokens.access_token);
    clock = state.expiresAt! - 30_000; // inside the last minute of 30
    const tokens = await Promise.all(Array.from({ length: 10 }, () => provider.token()));
    assert.equal(new Set(tokens).size, 1);
    assert.notEqual(tokens[0], state.tokens.access_token);
    assert.deepEqual(
      auth.tokenRequests.map((r) => r.grant_type),
      ['authorization_code', 'refresh_token'],
    );
    assert.equal(store.saves, 1, 'the refreshed tokens were saved at once');
    assert.equal(store.load()!.tokens.refresh_token, state.tokens.refresh_token, 'HA gives no new refresh token: the old one is kept');
    assert.ok(auth.accepts(`Bearer ${tokens[0]}`));
  });

  it('a revoked grant: one refused refresh, the sign-in is dropped, later requests say to click Authorize without asking HA', async () => {
    const store = memoryStore(await signIn());
    const provider = new OAuthTokenProvider({ serverUrl: ha.url, store });
    auth.revokeAll();
    await assert.rejects(provider.onUnauthorized(), /revoked \(invalid_grant\).*click Authorize/);
    await assert.rejects(provider.token(), /not signed in.*click Authorize/);
    assert.equal(store.load(), undefined);
    assert.equal(auth.tokenRequests.length, 2);
  });

  it('tokens for another URL are not used (the server URL changed since the sign-in)', async () => {
    const provider = new OAuthTokenProvider({ serverUrl: ha.url.replace('/api/mcp', '/api/mcp/other'), store: memoryStore(await signIn()) });
    await assert.rejects(provider.token(), /not signed in/);
  });

  it('a refresh is on disk at once, encrypted: a restart before the next deploy still has it', async () => {
    const userDir = mkdtempSync(join(tmpdir(), 'mcp-oauth-store-'));
    try {
      const credentials = new Map<string, Record<string, string>>();
      const red = (secret: string) =>
        ({
          settings: { userDir, get: (k: string) => (k === 'credentialSecret' ? secret : undefined) },
          nodes: { getCredentials: (id: string) => credentials.get(id), addCredentials: (id: string, c: Record<string, string>) => credentials.set(id, c) },
        }) as any;
      credentials.set('srv', { clientId: 'kept' });
      const state = await signIn();
      oauthStateStore(red('s3cret'), 'srv').save(state);
      assert.equal(credentials.get('srv')!.clientId, 'kept', 'the other credentials survive');
      const file = readFileSync(join(userDir, 'mcp-oauth-tokens.json'), 'utf8');
      assert.ok(!file.includes(state.tokens.access_token) && !file.includes(state.tokens.refresh_token!), 'encrypted');
      credentials.clear(); // a restart: flows_cred.json was never written after addCredentials
      assert.deepEqual(oauthStateStore(red('s3cret'), 'srv').load(), state);
      assert.equal(oauthStateStore(red('another secret'), 'srv').load(), undefined, 'unreadable without the secret');
    } finally {
      rmSync(userDir, { recursive: true, force: true });
    }
  });
});
