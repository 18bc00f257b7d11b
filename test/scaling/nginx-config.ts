// The nginx configuration docs/scaling.md gives users, built for any set of instances: requests
// carrying a 2025-revision session id (`Mcp-Session-Id: <instance>.<uuid>`) go to the instance
// that holds the session, with the others as backups (one that lost the session answers 404 and
// the client initializes again); everything else (2026-07-28 requests, initialize) round robin.
// No `keepalive` to the upstreams: nginx does not resend a POST that went out on a kept-alive
// connection the instance had closed or died on, so each request opens its own connection and a
// dead instance costs only a refused connect, which nginx passes on to the next server.
// The test of that page (docs-snippets.test.ts) checks the page shows exactly this for a and b.

/** `instances`: instance name → host:port. */
export function mcpUpstreams(instances: Record<string, string>): string {
  const names = Object.keys(instances);
  const servers = (first?: string) => names.map((n) => `    server ${instances[n]}${first && n !== first ? ' backup' : ''};`).join('\n');
  return [
    'map $http_mcp_session_id $mcp_upstream {',
    '    default mcp_all;',
    ...names.map((n) => `    "~^${n}\\." mcp_${n};`),
    '}',
    'upstream mcp_all {',
    servers(),
    '}',
    ...names.flatMap((n) => [`upstream mcp_${n} {`, servers(n), '}']),
  ].join('\n');
}

/**
 * xiaozhi devices: WebSocket devices through the http block (a device kept on one instance by its
 * Device-Id header), mqtt-gateway devices through the stream block (kept by their address, with a
 * PROXY protocol header naming it: the gateway accepts a device's UDP audio only from there).
 * `websocket`/`gateway`: instance name → host:port of its WebSocket listener / its gateway.
 */
export function deviceUpstreams(instances: { websocket: Record<string, string>; gateway: Record<string, string> }): {
  http: string;
  location: string;
  stream: string;
  server: string;
} {
  const servers = (list: Record<string, string>) => Object.values(list).map((hostPort) => `    server ${hostPort};`);
  return {
    http: ['upstream xiaozhi_ws {', '    hash $http_device_id consistent;', ...servers(instances.websocket), '}'].join('\n'),
    location: [
      '    location /xiaozhi/v1/ {',
      '        proxy_pass http://xiaozhi_ws;',
      '        proxy_http_version 1.1;',
      '        proxy_set_header Upgrade $http_upgrade;',
      '        proxy_set_header Connection "upgrade";',
      '        proxy_set_header Host $host;',
      '        proxy_read_timeout 1h;',
      '    }',
    ].join('\n'),
    stream: ['upstream xiaozhi_mqtt {', '    hash $remote_addr consistent;', ...servers(instances.gateway), '}'].join('\n'),
    server: ['    proxy_pass xiaozhi_mqtt;', '    proxy_protocol on;', '    proxy_timeout 10m;'].join('\n'),
  };
}
