// What a browser does on the HA stand-in's login page, for specs that sign in without Chromium:
// post the login form and read where HA sends the browser back (our callback, with code and state).
import assert from 'node:assert/strict';
import { HA_USER } from '../peers/oauth/ha-indieauth';

export const REDIRECT = 'http://127.0.0.1:1880/mcp-server/oauth/callback';

/** What the browser does on HA's login page: post the form, follow nothing, read the redirect. */
export async function loginAtHa(authorizationUrl: string): Promise<URLSearchParams> {
  const url = new URL(authorizationUrl);
  const form = new URLSearchParams({ ...Object.fromEntries(url.searchParams), ...HA_USER });
  const res = await fetch(new URL('/auth/login', url), { method: 'POST', body: form, redirect: 'manual' });
  assert.equal(res.status, 302, await res.text());
  const back = new URL(res.headers.get('location')!);
  assert.equal(back.origin + back.pathname, REDIRECT);
  return back.searchParams;
}
