// A client that behaves as Home Assistant's MCP integration does (homeassistant/components/mcp,
// python-sdk streamable_http_client): a NEW connection for every tool call and every tools
// refresh (initialize → notifications/initialized → GET stream → one request → DELETE), all inside
// a 10 s timeout, with only a URL (no token field). Written from that behaviour, with plain fetch.
const PROTOCOL = '2025-06-18';
const TIMEOUT_MS = 10000;

export interface HaLikeTrace {
  methods: string[];
}

async function rpcResult(res: Response): Promise<any> {
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('text/event-stream')) {
    const text = await res.text();
    const datas = text
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => JSON.parse(l.slice(5)));
    return datas.find((d) => 'result' in d || 'error' in d);
  }
  return res.json();
}

/** One HA "connection": returns the request's result, or throws with the HTTP status. */
export async function haLikeRequest(url: string, method: string, params: Record<string, unknown>, trace?: HaLikeTrace): Promise<any> {
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const post = (body: unknown) => fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal });
  const init = await post({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'home-assistant', version: '2026.11.0' } },
  });
  trace?.methods.push('initialize');
  if (!init.ok) throw new Error(`initialize: HTTP ${init.status} ${init.headers.get('www-authenticate') ?? ''}`);
  const initialized = await rpcResult(init);
  const session = init.headers.get('mcp-session-id');
  if (session) headers['mcp-session-id'] = session;
  headers['mcp-protocol-version'] = initialized.result.protocolVersion;
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const stream = new AbortController();
  let get: Promise<unknown> = Promise.resolve();
  if (session) {
    get = fetch(url, { method: 'GET', headers: { ...headers, accept: 'text/event-stream' }, signal: AbortSignal.any([signal, stream.signal]) })
      .then((r) => trace?.methods.push(`GET ${r.status}`))
      .catch(() => undefined);
  }
  try {
    const res = await post({ jsonrpc: '2.0', id: 1, method, params });
    trace?.methods.push(method);
    const answer = await rpcResult(res);
    if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
    return answer.result;
  } finally {
    stream.abort();
    await get;
    if (session) {
      const del = await fetch(url, { method: 'DELETE', headers, signal });
      trace?.methods.push(`DELETE ${del.status}`);
    }
  }
}
