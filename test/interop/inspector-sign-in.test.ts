// The MCP Inspector's CLI (pinned in test/tools.json) signs in to an mcp-endpoint with sign-in on,
// as a user runs it: it finds the endpoint's metadata, registers itself, sends the person to Node-RED's
// sign-in page and waits on its own callback. Nothing is granted until the approval route (what the
// editor's Approve button calls) gets the code that page shows; then the CLI lists the flow tools.
// A denied request ends the CLI's run without tools.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { readExample, startNodeRed, type FlowNode, type NodeRedProcess } from '../helpers/node-red';
import { skipBecause } from '../helpers/skip';
import { CookieBrowser } from '../helpers/cookie-browser';
import { inspectorSigningIn, interopMissing, interopVersions } from './clients';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** The example's endpoint with sign-in ticked (and its tab's MCP_TOKEN set, as its comment asks). */
function exampleWithSignIn(): FlowNode[] {
  return readExample('expose-a-flow-as-a-tool').map((n) =>
    n.type === 'tab' ? { ...n, credentials: { MCP_TOKEN: 'static-token-beside-sign-in' } } : n.type === 'mcp-endpoint' ? { ...n, signIn: true } : n,
  );
}

describe('interop: the MCP Inspector CLI signs in to mcp-endpoint, approved by a person', function () {
  this.timeout(120_000);
  let nr: NodeRedProcess | undefined;
  let endpoint: FlowNode;

  before(async function () {
    const missing = interopMissing();
    if (missing) skipBecause(this, 'the Inspector CLI sign-in specs', missing);
    console.log(`    MCP Inspector ${interopVersions().inspector}`);
    nr = await startNodeRed();
    const flow = exampleWithSignIn();
    endpoint = flow.find((n) => n.type === 'mcp-endpoint')!;
    await nr.deploy(flow);
    const deadline = Date.now() + 15_000;
    while ((await fetch(`${nr.url}/mcp`, { method: 'POST' })).status === 404 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  });
  after(async () => {
    await nr?.stop();
  });

  /** The person's part: open the page, read its code, find the same code in the editor's list, decide. */
  function person(decision: 'approve' | 'deny', callback: string, seen: { page?: string; approvedBefore?: number }) {
    return async (authorizationUrl: string) => {
      assert.ok(authorizationUrl.startsWith(`${nr!.url}/mcp/oauth/`), authorizationUrl);
      const browser = new CookieBrowser(callback);
      const waiting = await browser.open(authorizationUrl);
      seen.page = waiting.text;
      const code = /id="code">([A-Z0-9]+)</.exec(waiting.text)?.[1];
      assert.ok(code, `the sign-in page shows a code: ${waiting.status} ${waiting.text.slice(0, 300)}`);
      const { body } = await nr!.request('GET', `/mcp-endpoint/${endpoint.id}/clients`);
      const mine = body.pending.find((p: { code: string }) => p.code === code);
      assert.ok(mine, `the editor lists the waiting client with the same code: ${JSON.stringify(body.pending)}`);
      seen.approvedBefore = body.approved.length;
      const decided = await nr!.request('POST', `/mcp-endpoint/${endpoint.id}/clients/${encodeURIComponent(mine.request)}/${decision}`, { code });
      assert.equal(decided.status, 200, decided.text);
      // The page goes on to the CLI's callback once decided; the browser's last step is that callback.
      const back = await browser.open(waiting.url);
      assert.ok(back.url.startsWith(callback), back.url);
      await fetch(back.url);
    };
  }

  it('registers, waits for approval with the code the page shows, then lists the flow tools', async () => {
    const seen: { page?: string; approvedBefore?: number } = {};
    const callback = `http://127.0.0.1:${await freePort()}/oauth/callback`;
    const run = await inspectorSigningIn(`${nr!.url}/mcp`, ['--method', 'tools/list'], callback, person('approve', callback, seen));
    assert.equal(run.code, 0, `${run.stderr}\n${run.stdout}`);
    const names = (run.json?.tools ?? []).map((t: { name: string }) => t.name).sort();
    assert.deepEqual(names, ['read_temperature', 'toggle_lamp']);
    assert.match(seen.page!, /MCP Inspector|inspector/i, 'the page names the client as it registered');
    const { body } = await nr!.request('GET', `/mcp-endpoint/${endpoint.id}/clients`);
    assert.equal(body.approved.length, seen.approvedBefore! + 1, 'the CLI is now an approved client');
  });

  it('a denied CLI gets no tools and says why', async () => {
    const seen: { page?: string } = {};
    const callback = `http://127.0.0.1:${await freePort()}/oauth/callback`;
    const run = await inspectorSigningIn(`${nr!.url}/mcp`, ['--method', 'tools/list'], callback, person('deny', callback, seen));
    assert.notEqual(run.code, 0, run.stdout);
    assert.equal(run.json?.tools, undefined);
    assert.match(run.stderr + run.stdout, /access_denied|denied/i);
  });
});
