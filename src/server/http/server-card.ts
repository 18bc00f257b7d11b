// An endpoint's MCP Server Card and the catalog that lists the cards (the Server Card extension's
// discovery: docs/discovery.md of modelcontextprotocol/experimental-ext-server-card). A card says
// where the endpoint is and which revisions it speaks, before a client connects: its `name` in
// reverse-DNS form, a title and description, the package's version, and one Streamable HTTP
// `remotes` entry with the endpoint's URL as the client reached this Node-RED. It names no tool and
// holds no secret: an endpoint that needs a bearer says so with a header whose value is a
// placeholder. The catalog (`/.well-known/ai-catalog.json`, and `/.well-known/mcp/catalog.json`
// during the transition) lists the card of every endpoint that publishes one, and nothing else.
// Both are public, read-only documents: ETag with If-None-Match (304), CORS open to GET.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const SERVER_CARD_TYPE = 'application/mcp-server-card+json';
export const CATALOG_TYPE = 'application/ai-catalog+json';
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
/** The revisions an endpoint answers (the MCP SDK's 2025 line and 2026-07-28). */
export const ENDPOINT_REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];
export const CATALOG_PATHS = ['/.well-known/ai-catalog.json', '/.well-known/mcp/catalog.json'];

export interface CardFacts {
  /** The endpoint's path, which names it (`/mcp` → `mcp`). */
  path: string;
  title: string;
  version: string;
  /** The endpoint's URL as this request reached it. */
  url: string;
  /** Clients must send a bearer (a static token, or one from sign-in). */
  bearer: boolean;
}

/** `/home-mcp` → `home-mcp`: the server-name part of the card's `name`. */
export function cardSlug(path: string): string {
  return (
    path
      .replace(/^\/+|\/+$/g, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .slice(0, 150) || 'mcp'
  );
}

const clip = (text: string, max: number) => (text.length <= max ? text : text.slice(0, max - 1) + '…');

export function serverCard(f: CardFacts): Record<string, unknown> {
  const remote: Record<string, unknown> = { type: 'streamable-http', url: f.url, supportedProtocolVersions: ENDPOINT_REVISIONS };
  if (f.bearer)
    remote.headers = [
      {
        name: 'Authorization',
        description: 'A token of this endpoint (ask the Node-RED owner), or the one sign-in gives after the owner approves the client.',
        isRequired: true,
        isSecret: true,
        value: 'Bearer {token}',
        variables: { token: { description: 'The access token.', isRequired: true, isSecret: true } },
      },
    ];
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: `local.node-red/${cardSlug(f.path)}`,
    title: clip(f.title || 'Node-RED', 100),
    description: clip(`Tools, prompts and resources served by Node-RED flows (${f.title || f.path}).`, 100),
    version: f.version,
    remotes: [remote],
  };
}

/** The catalog of published cards; `host` anchors each entry's identifier (urn:air:<host>:<name>). */
export function catalog(host: string, cards: Array<{ path: string; title: string; cardUrl: string }>): Record<string, unknown> {
  const publisher = host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '') || 'localhost';
  return {
    specVersion: 'draft',
    entries: cards.map((c) => ({
      identifier: `urn:air:${publisher}:${cardSlug(c.path)}`,
      displayName: c.title || c.path,
      type: SERVER_CARD_TYPE,
      url: c.cardUrl,
    })),
  };
}

/** Sends a public JSON document with its ETag; a matching If-None-Match gets 304 and no body. */
export function sendDiscoveryDocument(req: IncomingMessage, res: ServerResponse, body: unknown, contentType: string): void {
  const text = JSON.stringify(body);
  const etag = `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
  const headers = {
    ETag: etag,
    'Cache-Control': 'public, max-age=300',
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET',
    'Access-Control-Allow-Headers': 'Content-Type',
    Vary: 'Host',
  };
  const wanted = String(req.headers['if-none-match'] ?? '')
    .split(',')
    .map((s) => s.trim().replace(/^W\//, ''));
  if (wanted.includes(etag) || wanted.includes('*')) {
    res.writeHead(304, headers).end();
    return;
  }
  res.writeHead(200, { ...headers, 'Content-Type': `${contentType}; charset=utf-8`, 'Content-Length': Buffer.byteLength(text) }).end(text);
}
