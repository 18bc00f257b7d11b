// Reading MCP Server Cards, for the mcp-server dialog's "Server card": a person pastes a card's URL,
// or a site's address whose catalog (/.well-known/ai-catalog.json, else /.well-known/mcp/catalog.json)
// lists cards, and gets what a server's settings need from each: a title, the Streamable HTTP (or
// SSE) URL of its first usable remote, and whether it wants a bearer. Cards are advisory (they
// describe, they do not authorize), so nothing here is trusted beyond filling a form a person then
// checks. Each fetch is bounded: 5 s, 64 KB, http(s) only, at most 10 cards from one catalog.
export interface CardChoice {
  title: string;
  name: string;
  description?: string;
  transport: 'http' | 'sse';
  url: string;
  /** The remote declares a required Authorization header. */
  bearer: boolean;
  /** Where the card came from. */
  cardUrl: string;
}

const TIMEOUT_MS = 5000;
const MAX_BYTES = 64 * 1024;
const MAX_CARDS = 10;
const CARD_TYPE = 'application/mcp-server-card+json';
const CATALOG_PATHS = ['/.well-known/ai-catalog.json', '/.well-known/mcp/catalog.json'];

async function getJson(url: string, accept: string): Promise<unknown> {
  const res = await fetch(url, { headers: { accept: `${accept}, application/json` }, redirect: 'follow', signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  const reader = res.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = reader ? await reader.read() : { done: true, value: undefined };
    if (done || !value) break;
    size += value.byteLength;
    if (size > MAX_BYTES) {
      await reader?.cancel();
      throw new Error(`${url} is larger than ${MAX_BYTES / 1024} KB: not a server card or catalog`);
    }
    chunks.push(value);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new Error(`${url} is not JSON: not a server card or catalog`);
  }
}

/** What a card offers to connect to, or why it offers nothing. */
export function choiceOf(card: unknown, cardUrl: string): CardChoice {
  const c = (card ?? {}) as { name?: unknown; title?: unknown; description?: unknown; remotes?: unknown };
  if (typeof c.name !== 'string') throw new Error(`${cardUrl} is not a server card (no name)`);
  const remotes = Array.isArray(c.remotes) ? (c.remotes as Array<{ type?: unknown; url?: unknown; headers?: unknown }>) : [];
  const remote =
    remotes.find((r) => r.type === 'streamable-http' && typeof r.url === 'string') ?? remotes.find((r) => r.type === 'sse' && typeof r.url === 'string');
  if (!remote) throw new Error(`${c.name}: the card names no Streamable HTTP or SSE address (a server you start yourself has none)`);
  const headers = Array.isArray(remote.headers) ? (remote.headers as Array<{ name?: unknown; isRequired?: unknown }>) : [];
  return {
    title: typeof c.title === 'string' && c.title ? c.title : c.name,
    name: c.name,
    description: typeof c.description === 'string' ? c.description : undefined,
    transport: remote.type === 'sse' ? 'sse' : 'http',
    url: String(remote.url),
    bearer: headers.some((h) => typeof h.name === 'string' && h.name.toLowerCase() === 'authorization' && h.isRequired === true),
    cardUrl,
  };
}

/** The cards at `address`: a card's own URL, a catalog's, or a site whose well-known catalog lists some. */
export async function readServerCards(address: string): Promise<CardChoice[]> {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    throw new Error(`"${address}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`"${address}" is not an http(s) URL`);
  const site = url.pathname === '/' && !url.search;
  const tried = site ? CATALOG_PATHS.map((p) => new URL(p, url).href) : [url.href];
  let lastError: unknown;
  for (const at of tried) {
    let doc: unknown;
    try {
      doc = await getJson(at, CARD_TYPE);
    } catch (err) {
      lastError = err;
      continue;
    }
    const entries = (doc as { entries?: unknown })?.entries;
    if (!Array.isArray(entries)) return [choiceOf(doc, at)];
    const cards = entries.filter((e): e is { type: string; url: string } => e?.type === CARD_TYPE && typeof e?.url === 'string').slice(0, MAX_CARDS);
    if (!cards.length) throw new Error(`${at} lists no MCP server card`);
    const read = await Promise.allSettled(cards.map(async (e) => choiceOf(await getJson(new URL(e.url, at).href, CARD_TYPE), e.url)));
    const choices = read.filter((r): r is PromiseFulfilledResult<CardChoice> => r.status === 'fulfilled').map((r) => r.value);
    if (!choices.length) throw (read.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason;
    return choices;
  }
  throw lastError instanceof Error ? lastError : new Error(`nothing at ${address}`);
}
