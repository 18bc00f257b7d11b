// A Client ID Metadata Document (draft-ietf-oauth-client-id-metadata-document, the MCP
// authorization spec's preferred way to name a client): instead of registering, the client's id is
// an https URL, and the authorization server fetches that URL to learn the client's name and
// redirect URIs. Node-RED serves the document itself, beside its OAuth callback, so an
// authorization server that offers neither registration nor IndieAuth (only CIMD, with PKCE) can
// still sign Node-RED in. The id must be https with a path (the SDK and the draft both insist), so
// this is only used when the editor is reached over https.
import type { OAuthClientMetadata } from '@modelcontextprotocol/client';

export const CALLBACK_PATH = 'mcp-server/oauth/callback';
export const CLIENT_METADATA_PATH = 'mcp-server/oauth/client-metadata.json';

/** The document's URL beside an https callback URL; undefined for a plain-http editor. */
export function clientMetadataUrlFor(redirectUrl: string): string | undefined {
  const url = new URL(redirectUrl);
  if (url.protocol !== 'https:' || !url.pathname.endsWith('/' + CALLBACK_PATH)) return undefined;
  url.pathname = url.pathname.slice(0, -CALLBACK_PATH.length) + CLIENT_METADATA_PATH;
  return url.href;
}

/** The callback URL beside a client metadata document URL. */
export function callbackUrlFor(clientMetadataUrl: string): string {
  const url = new URL(clientMetadataUrl);
  url.pathname = url.pathname.slice(0, -CLIENT_METADATA_PATH.length) + CALLBACK_PATH;
  return url.href;
}

/** The document served at `clientId`: its own URL as `client_id`, and the callback beside it. */
export function clientMetadataDocument(clientId: string): OAuthClientMetadata & { client_id: string } {
  return {
    client_id: clientId,
    client_name: 'Node-RED (node-red-contrib-mcp-gemini)',
    redirect_uris: [callbackUrlFor(clientId)],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}
