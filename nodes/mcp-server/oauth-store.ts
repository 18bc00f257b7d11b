// Where an mcp-server's OAuth sign-in lives (see docs/oauth.md, "Where tokens are kept"):
// 1. the config node's `oauthState` credential (a password-type credential with no dialog field, so
//    the editor never receives it and never sends it back, and a deploy keeps it);
// 2. `mcp-oauth-tokens.json` in the user directory, encrypted with Node-RED's credential secret.
// Node-RED offers nodes no way to save credentials now: RED.nodes.addCredentials changes memory
// only, and flows_cred.json is written at the next deploy. A token refreshed at run time must
// survive a restart before that (a server that rotates refresh tokens revokes the grant when an old
// one is reused), so every save writes the file at once; loading takes the newer of the two.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseState, type OAuthState, type OAuthStateStore } from '../../src/mcp/oauth/state';
import type { RED } from '../shared/red-types';

const FILE_NAME = 'mcp-oauth-tokens.json';

export function oauthStateStore(RED: RED, nodeId: string): OAuthStateStore {
  const nodes = RED.nodes;
  return {
    load() {
      const fromCredentials = parseState(nodes.getCredentials(nodeId)?.oauthState);
      const fromFile = tokenFile(RED)?.read()[nodeId];
      if (!fromFile) return fromCredentials;
      return !fromCredentials || fromFile.obtainedAt > fromCredentials.obtainedAt ? fromFile : fromCredentials;
    },
    save(state) {
      // addCredentials replaces the node's whole credential object: keep clientId/clientSecret.
      const creds = { ...(nodes.getCredentials(nodeId) ?? {}) };
      if (state) creds.oauthState = JSON.stringify(state);
      else delete creds.oauthState;
      void nodes.addCredentials(nodeId, creds);
      tokenFile(RED)?.update(nodeId, state);
    },
  };
}

/** Forget a removed node's tokens (its credentials go with the node on the next deploy). */
export function forgetOAuthState(RED: RED, nodeId: string): void {
  tokenFile(RED)?.update(nodeId, undefined);
}

interface TokenFile {
  read(): Record<string, OAuthState>;
  update(nodeId: string, state: OAuthState | undefined): void;
}

function tokenFile(RED: RED): TokenFile | undefined {
  const userDir = RED.settings?.userDir;
  if (typeof userDir !== 'string' || !userDir) return undefined; // e.g. the test helper's runtime
  const path = join(userDir, FILE_NAME);
  const key = encryptionKey(RED);
  const read = (): Record<string, OAuthState> => {
    if (!existsSync(path)) return {};
    try {
      const doc = JSON.parse(readFileSync(path, 'utf8'));
      const plain = key ? decrypt(doc, key) : doc;
      const out: Record<string, OAuthState> = {};
      for (const [id, text] of Object.entries(plain ?? {})) {
        const s = parseState(JSON.stringify(text));
        if (s) out[id] = s;
      }
      return out;
    } catch {
      return {}; // another secret, or a damaged file: the credentials still hold the sign-in
    }
  };
  return {
    read,
    update(nodeId, state) {
      const all = read();
      if (state) all[nodeId] = state;
      else if (!(nodeId in all)) return;
      else delete all[nodeId];
      const body = JSON.stringify(key ? encrypt(all, key) : all);
      writeFileSync(path + '.tmp', body, { mode: 0o600 });
      renameSync(path + '.tmp', path);
    },
  };
}

/** Node-RED's own secret: `credentialSecret` from settings.js, else the one it generated. */
function encryptionKey(RED: RED): Buffer | undefined {
  const settings = RED.settings as { get?(k: string): unknown; credentialSecret?: unknown };
  const get = (k: string) => {
    try {
      return settings.get?.(k);
    } catch {
      return undefined;
    }
  };
  const secret = get('credentialSecret') ?? settings.credentialSecret ?? get('_credentialSecret');
  if (secret === false) return undefined; // the user chose unencrypted credentials
  const text = typeof secret === 'string' && secret ? secret : 'node-red-contrib-mcp-gemini';
  return createHash('sha256').update(`mcp-oauth-tokens:${text}`).digest();
}

function encrypt(value: unknown, key: Buffer): { v: 1; iv: string; tag: string; data: string } {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return { v: 1, iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
}

function decrypt(doc: { iv: string; tag: string; data: string }, key: Buffer): Record<string, unknown> {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(doc.iv, 'base64'));
  decipher.setAuthTag(Buffer.from(doc.tag, 'base64'));
  return JSON.parse(Buffer.concat([decipher.update(Buffer.from(doc.data, 'base64')), decipher.final()]).toString('utf8'));
}
