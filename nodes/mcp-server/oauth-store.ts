// Where an mcp-server's OAuth sign-in lives (see docs/oauth.md, "Where tokens are kept"):
// 1. the config node's `oauthState` credential (a password-type credential with no dialog field, so
//    the editor never receives it and never sends it back, and a deploy keeps it);
// 2. `mcp-oauth-tokens.json` in the user directory, encrypted with Node-RED's credential secret.
// Node-RED offers nodes no way to save credentials now: RED.nodes.addCredentials changes memory
// only, and flows_cred.json is written at the next deploy. A token refreshed at run time must
// survive a restart before that (a server that rotates refresh tokens revokes the grant when an old
// one is reused), so every save writes the file at once; loading takes the newer of the two.
import { parseState, type OAuthState, type OAuthStateStore } from '../../src/mcp/oauth/state';
import { encryptedJsonFile } from '../shared/encrypted-file';
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
  const file = encryptedJsonFile(RED, FILE_NAME, 'mcp-oauth-tokens');
  if (!file) return undefined;
  const read = (): Record<string, OAuthState> => {
    const out: Record<string, OAuthState> = {};
    for (const [id, text] of Object.entries(file.read())) {
      const s = parseState(JSON.stringify(text));
      if (s) out[id] = s;
    }
    return out;
  };
  return {
    read,
    update(nodeId, state) {
      const all = read();
      if (state) all[nodeId] = state;
      else if (!(nodeId in all)) return;
      else delete all[nodeId];
      file.write(all);
    },
  };
}
