// The HTTP paths our MCP endpoints serve right now, process-wide (several endpoint nodes, any
// number of redeploys). The editor-API bypass (nodes/mcp-endpoint/skip-editor-parsing.ts) asks it
// whether a request is for an endpoint. Paths compare as Express routes do: case-insensitive, a
// trailing slash ignored.
const served = new Map<string, number>();

const normal = (path: string) => path.split('?')[0].replace(/\/+$/, '').toLowerCase() || '/';

/** Marks `path` (the full path, httpNodeRoot included) as served until the returned function is called. */
export function serveEndpointPath(path: string): () => void {
  const key = normal(path);
  served.set(key, (served.get(key) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (served.get(key) ?? 1) - 1;
    if (left > 0) served.set(key, left);
    else served.delete(key);
  };
}

export function isEndpointPath(url: string): boolean {
  return served.has(normal(url));
}
