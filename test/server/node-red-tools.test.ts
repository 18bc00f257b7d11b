// An endpoint that offers Node-RED's own flows as read tools, in a real Node-RED (its own process,
// the installed package), called by the MCP SDK's client: the six tools say they only read; a
// flow is listed and read without any credential in it (a known secret pasted into a node is masked); a node's error and a debug node's
// messages are read back after an inject; an endpoint without the box offers none of them.
import assert from 'node:assert/strict';
import type { Client, CallToolResult } from '@modelcontextprotocol/client';
import { readdirSync } from 'node:fs';
import { EXAMPLES_DIR, readExample, startNodeRed, withTabCredentials, type FlowNode, type NodeRedProcess } from '../helpers/node-red';
import { retrying } from '../helpers/wait';
import { connectWhenStarted } from '../helpers/bearer-requests';

const TOKEN = 'node-red-tools-token-4e1a';
const SERVER_TOKEN = 'secret-server-token-do-not-show-9c2b';

const flows = (nodeRedTools: boolean): FlowNode[] => [
  { id: 'porch', type: 'tab', label: 'Porch', info: 'Porch light after sunset.' },
  { id: 'ep', type: 'mcp-endpoint', path: '/mcp', nodeRedTools, credentials: { tokens: TOKEN } },
  { id: 'ha', type: 'mcp-server', name: 'Home Assistant', transport: 'http', url: 'http://127.0.0.1:1/api/mcp', credentials: { token: SERVER_TOKEN } },
  {
    id: 'motion',
    type: 'inject',
    z: 'porch',
    name: 'motion',
    x: 120,
    y: 80,
    props: [{ p: 'payload' }],
    payload: 'motion',
    payloadType: 'str',
    wires: [['check', 'seen']],
  },
  {
    id: 'check',
    type: 'function',
    z: 'porch',
    name: 'after sunset?',
    x: 320,
    y: 80,
    func: 'node.error("no sunset time for the porch", msg); return null;',
    wires: [[]],
  },
  { id: 'seen', type: 'debug', z: 'porch', name: 'porch debug', x: 320, y: 140, active: true, tosidebar: true, complete: 'payload', wires: [] },
  // A token pasted into a comment by mistake: the package knows it (the mcp-server's), so it is masked.
  { id: 'note', type: 'comment', z: 'porch', name: 'setup', info: `token for HA: ${SERVER_TOKEN}`, x: 120, y: 200, wires: [] },
  { id: 'lamp', type: 'mcp-call-tool', z: 'porch', name: 'porch lamp', server: 'ha', tool: 'HassTurnOn', x: 520, y: 80, wires: [[], []] },
];

describe('mcp-endpoint: Node-RED tools (read) in a real Node-RED', function () {
  this.timeout(120_000);
  let nr: NodeRedProcess;
  let client: Client | undefined;
  before(async () => (nr = await startNodeRed()));
  after(async () => {
    await client?.close();
    await nr?.stop();
  });

  async function connect(): Promise<Client> {
    await client?.close();
    client = await connectWhenStarted(`${nr.url}/mcp`, TOKEN, 'node-red-tools-test');
    return client;
  }
  const call = async (name: string, args: Record<string, unknown> = {}) => (await client!.callTool({ name, arguments: args })) as CallToolResult;
  const data = (r: CallToolResult) => r.structuredContent as any;

  it('lists six read tools, each annotated as read-only', async () => {
    await nr.deploy(flows(true));
    await connect();
    const { tools } = await client!.listTools();
    const ours = tools.filter((t) => ['flows_list', 'flow_read', 'nodes_search', 'node_types', 'node_errors', 'debug_read'].includes(t.name));
    assert.equal(ours.length, 6);
    for (const t of ours) assert.deepEqual([t.name, t.annotations?.readOnlyHint, t.annotations?.destructiveHint], [t.name, true, false]);
  });

  it('lists the tab and reads its nodes; no credential appears anywhere', async () => {
    const listed = data(await call('flows_list'));
    assert.deepEqual(listed.flows, [{ id: 'porch', type: 'tab', label: 'Porch', disabled: false, info: 'Porch light after sunset.', nodes: 5 }]);
    const read = await call('flow_read', { flow: 'Porch' });
    assert.deepEqual(
      data(read)
        .nodes.map((n: { id: string }) => n.id)
        .sort(),
      ['check', 'lamp', 'motion', 'note', 'seen'],
    );
    const found = data(await call('nodes_search', { query: 'home assistant' }));
    assert.deepEqual(found.nodes, [{ id: 'ha', type: 'mcp-server', name: 'Home Assistant' }]);
    const note = data(read).nodes.find((n: { id: string }) => n.id === 'note');
    assert.match(note.info, /^token for HA: \S+$/);
    const everything = JSON.stringify([listed, read, found, await call('flow_read', { flow: 'porch' })]);
    assert.doesNotMatch(everything, new RegExp(SERVER_TOKEN));
    assert.doesNotMatch(everything, new RegExp(TOKEN));
    assert.doesNotMatch(everything, /"credentials"/);
    const missing = await call('flow_read', { flow: 'Garden' });
    assert.equal(missing.isError, true);
    assert.match((missing.content as Array<{ text: string }>)[0].text, /No tab or subflow has the id or label "Garden"; flows_list lists them/);
  });

  it("after an inject, reads the function's error and what the debug node showed", async () => {
    assert.equal((await nr.request('POST', '/inject/motion')).status, 200);
    const errors = await retrying(async () => {
      const seen = data(await call('node_errors', { flow: 'Porch' }));
      if (!seen.errors.length) throw new Error('the error has not reached the sidebar yet');
      return seen;
    });
    assert.deepEqual(
      errors.errors.map((e: any) => [e.node, e.type, e.level, e.message]),
      [['check', 'function', 'error', 'no sunset time for the porch']],
    );
    const shown = data(await call('debug_read', { node: 'porch debug' }));
    assert.equal(shown.node, 'seen');
    assert.deepEqual(
      shown.messages.map((m: any) => m.value),
      ['motion'],
    );
  });

  it('an endpoint without the box offers none of them and refuses a call', async () => {
    await nr.deploy(flows(false));
    // The endpoint with the old settings answers until the new one replaces it: a session made on
    // it ends with it, so connect again until the new endpoint is the one answering.
    const tools = await retrying(async () => {
      const listed = (await (await connect()).listTools()).tools;
      if (listed.some((t) => t.name === 'flows_list')) throw new Error('the old endpoint still answers');
      return listed;
    });
    assert.deepEqual(
      tools.filter((t) => t.name === 'flows_list'),
      [],
    );
    const refused = await client!.callTool({ name: 'flows_list', arguments: {} }).then(
      (r) => JSON.stringify(r),
      (err: Error) => err.message,
    );
    assert.match(refused, /Unknown tool: flows_list/);
  });

  it('reads the shipped examples: every tab listed and readable, the credentials only named, no secret anywhere', async () => {
    const examples = readdirSync(EXAMPLES_DIR)
      .filter((f) => f.endsWith('.json'))
      .flatMap((f) => readExample(f.replace(/\.json$/, '')));
    // As after the set-up their comments ask for: a token on each tab; and one more endpoint offering the tools.
    const set = withTabCredentials(examples, { MCP_TOKEN: 'example-token-set-up', DEVICE_TOKEN: 'example-device-token' });
    await nr.deploy([...set, { id: 'tools-ep', type: 'mcp-endpoint', path: '/nr-tools', nodeRedTools: true, credentials: { tokens: TOKEN } }]);
    await client?.close();
    client = await connectWhenStarted(`${nr.url}/nr-tools`, TOKEN, 'node-red-tools-test');
    const tabs = examples.filter((n) => n.type === 'tab');
    const listed = data(await call('flows_list')).flows;
    assert.deepEqual(listed.map((f: { id: string }) => f.id).sort(), tabs.map((t) => t.id).sort());
    const everything: unknown[] = [listed];
    for (const tab of tabs) {
      const read = await call('flow_read', { flow: tab.id });
      assert.equal(read.isError, undefined, tab.id);
      assert.equal(data(read).nodes.length, examples.filter((n) => n.z === tab.id).length, tab.id);
      everything.push(read);
    }
    // The tab variables are credentials: named, each "[redacted]", never the value.
    const endpoint = data(await call('flow_read', { flow: 'fat-tab' })).nodes.find((n: { type: string }) => n.type === 'mcp-endpoint');
    assert.deepEqual(endpoint.credentials, { tokens: '[redacted]' });
    const agents = data(await call('nodes_search', { query: 'gemini-agent' })).nodes;
    assert.ok(agents.length >= 8, `${agents.length} agents found`);
    everything.push(agents);
    for (const secret of ['example-token-set-up', 'example-device-token', TOKEN]) assert.doesNotMatch(JSON.stringify(everything), new RegExp(secret));
  });
});
