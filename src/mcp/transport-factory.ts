// Builds the SDK transport for a server's settings. The bearer token and extra headers go on every
// HTTP request, the legacy SSE GET included (the SSE transport applies requestInit headers there).
import { perRequestSignalFetch } from './transport/per-request-signal-fetch';
import { leanFetch } from './transport/lean-post';
import { ProcessGroupStdioTransport } from './transport/process-group-stdio-transport';
import { readableReply } from './transport/readable-reply-fetch';
import { SSEClientTransport, StreamableHTTPClientTransport, type Transport } from './protocol/sdk';
import type { McpServerSettings } from './settings/settings';

export interface TransportHooks {
  onStderrLine?: (line: string) => void;
}

function httpHeaders(s: McpServerSettings): Record<string, string> {
  const headers: Record<string, string> = { ...(s.headers ?? {}) };
  if (s.token && s.auth !== 'oauth') headers.Authorization = `Bearer ${s.token}`;
  return headers;
}

export function createTransport(s: McpServerSettings, kind: 'http' | 'sse' | 'stdio', hooks: TransportHooks = {}): Transport {
  if (kind === 'stdio') {
    return new ProcessGroupStdioTransport({
      command: s.command!,
      args: s.args,
      cwd: s.cwd,
      env: s.env,
      inheritEnv: s.inheritEnv,
      onStderrLine: hooks.onStderrLine,
      maxLineBytes: s.maxReplyBytes,
    });
  }
  const url = new URL(s.url!);
  const requestInit: RequestInit = { headers: httpHeaders(s) };
  // OAuth: the provider supplies the bearer, refreshes it, and the transport retries once after a 401.
  const authProvider = s.auth === 'oauth' ? s.authProvider : undefined;
  // Each request gets its own abort signal (no listener pile-up on the transport's long-lived one).
  if (kind === 'sse') return new SSEClientTransport(url, { requestInit, authProvider, fetch: perRequestSignalFetch(fetch, undefined, s.maxReplyBytes) });
  return new StreamableHTTPClientTransport(url, {
    requestInit,
    authProvider,
    // Its POSTs go over node:http (lean-post.ts); its GET stream and everything else over fetch.
    fetch: leanFetch(perRequestSignalFetch(fetch, readableReply, s.maxReplyBytes), readableReply, s.maxReplyBytes),
    // We reconnect whole sessions ourselves (with backoff); the GET stream may retry briefly.
    reconnectionOptions: { initialReconnectionDelay: 1000, maxReconnectionDelay: 30000, reconnectionDelayGrowFactor: 2, maxRetries: 2 },
  });
}
