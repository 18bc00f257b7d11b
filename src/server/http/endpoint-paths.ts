// The HTTP paths our MCP endpoints serve right now, process-wide (several endpoint nodes, any
// number of redeploys). The editor-API bypass (nodes/mcp-endpoint/skip-editor-parsing.ts) asks it
// whether a request is for an endpoint. Paths compare as Express routes do: case-insensitive, a
// trailing slash ignored.
const served = new Map<string, { owner: string; count: number }>();

/** A path as Express routes compare it: no query, no trailing slash, any case. */
export const normalEndpointPath = (path: string) => path.split('?')[0].replace(/\/+$/, '').toLowerCase() || '/';
const normal = normalEndpointPath;

/** Marks `path` (the full path, httpNodeRoot included) as served by `owner` until the returned function is called. */
export function serveEndpointPath(path: string, owner = ''): () => void {
  const key = normal(path);
  const entry = served.get(key);
  served.set(key, { owner: entry?.owner ?? owner, count: (entry?.count ?? 0) + 1 });
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (served.get(key)?.count ?? 1) - 1;
    if (left > 0) served.set(key, { owner: served.get(key)!.owner, count: left });
    else served.delete(key);
  };
}

/** Who serves `path` now (as given to serveEndpointPath), or undefined when nobody does. */
export function endpointPathOwner(path: string): string | undefined {
  return served.get(normal(path))?.owner;
}

export function isEndpointPath(url: string): boolean {
  return served.has(normal(url));
}
