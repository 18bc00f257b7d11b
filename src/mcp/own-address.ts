// A server URL that is only a path ("/home-mcp") means this Node-RED itself: a flow that calls an
// mcp-endpoint of the same Node-RED should not have to know the port, host or httpNodeRoot it was
// started with (the add-on, `node-red -p 1881` and `npm start` all differ). The node adapter passes
// Node-RED's own settings in; this module knows nothing of Node-RED.

export interface OwnAddress {
  /** Node-RED's uiPort. */
  port: number;
  /** Node-RED's uiHost; a wildcard (or nothing) means loopback is reachable. */
  host?: string;
  /** Node-RED's httpNodeRoot, where flows' HTTP routes (and our endpoints) are mounted. */
  nodeRoot?: string;
  /** Node-RED serves https (settings.https). */
  https?: boolean;
}

const WILDCARDS = new Set(['', '0.0.0.0', '::', '[::]']);

export function isOwnPath(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//');
}

/** `url` unchanged unless it is a path; then the same path on this Node-RED. */
export function resolveOwnUrl(url: string, own: OwnAddress): string {
  if (!isOwnPath(url)) return url;
  const host = own.host && !WILDCARDS.has(own.host) ? own.host : '127.0.0.1';
  const hostPart = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const root = (own.nodeRoot || '/').replace(/\/+$/, '');
  return `${own.https ? 'https' : 'http'}://${hostPart}:${own.port}${root}${url}`;
}
