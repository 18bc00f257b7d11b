// The page a signing-in client's browser shows while a person decides in Node-RED's editor. It
// grants nothing: it names the client, where it will send the browser and the code the editor shows
// beside Approve and Deny, and reloads itself every few seconds (no script) until the decision.
// Everything taken from the client's registration is escaped.
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function waitingPage(o: { endpoint: string; client: string; redirectHost: string; code: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="3"><title>Waiting for approval in Node-RED</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}
.code{font:700 2rem/1.2 ui-monospace,monospace;letter-spacing:.2em;background:#f3f3f3;padding:.5rem 1rem;display:inline-block;border-radius:6px}
dt{font-weight:600;margin-top:.75rem}</style></head>
<body><h1>Waiting for approval</h1>
<p>Open the Node-RED editor, double-click the endpoint <b>${escape(o.endpoint)}</b> and approve this client if the code matches.</p>
<p class="code" id="code">${escape(o.code)}</p>
<dl><dt>Client</dt><dd id="client">${escape(o.client)}</dd><dt>Returns to</dt><dd id="redirect-host">${escape(o.redirectHost)}</dd></dl>
<p>This page goes on by itself once the client is approved or denied. The request expires in 10 minutes.</p>
</body></html>`;
}
