// An endpoint that lets an assistant change Node-RED's flows, in a real Node-RED (its own process,
// the installed package), driven by the MCP SDK's client on both revisions: every validation
// refusal; a deploy the person denies changes nothing; a build-run-fix round (add a flow, deploy it
// with the editor's Approve, press its inject, read the error, fix it, deploy with the client's own
// form, read the debug node) that ends with a working flow; rollback restores the flows byte for
// byte; a masked value and "[redacted]" credentials round-trip unchanged; no credential in any
// result or in the log; an endpoint without "allow changes" refuses every write.
import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { startNodeRed, type FlowNode, type NodeRedProcess } from '../helpers/node-red';
import { untilEndpointStarted } from '../helpers/bearer-requests';
import { retrying } from '../helpers/wait';
import { connect as connectEra, disconnect, type Era } from './harness';
import { porchFlowChanges } from '../helpers/porch-flow';

const TOKEN = 'node-red-changes-token-7d2f';
const SERVER_TOKEN = 'secret-server-token-never-shown-51ac';
const OTHER_TOKEN = 'another-client-token-77e1';

const flows = (changes: boolean, extra: Record<string, unknown> = {}): FlowNode[] => [
  { id: 'home', type: 'tab', label: 'Home', info: 'The person’s own flows.' },
  { id: 'sandbox', type: 'tab', label: 'Sandbox', info: 'Where the assistant builds. #assistant' },
  {
    id: 'ep',
    type: 'mcp-endpoint',
    path: '/mcp',
    nodeRedTools: true,
    nodeRedChanges: changes,
    nodeRedTabs: 'marked',
    ...extra,
    credentials: { tokens: `${TOKEN}\n${OTHER_TOKEN}` },
  },
  { id: 'ha', type: 'mcp-server', name: 'Home Assistant', transport: 'http', url: 'http://127.0.0.1:1/api/mcp', credentials: { token: SERVER_TOKEN } },
  {
    id: 'ha2',
    type: 'mcp-server',
    name: 'HA by header',
    transport: 'http',
    url: 'http://127.0.0.1:1/api/mcp',
    headers: { Authorization: 'Bearer ${HA_TOKEN}' },
  },
  { id: 'hall', type: 'inject', z: 'home', name: 'hall', x: 100, y: 60, props: [{ p: 'payload' }], payload: 'x', payloadType: 'str', wires: [['hall-debug']] },
  { id: 'hall-debug', type: 'debug', z: 'home', name: 'hall debug', x: 300, y: 60, active: true, tosidebar: true, complete: 'payload', wires: [] },
  // A token pasted into a comment by mistake: the tools show it masked, and sending the mask back keeps it.
  { id: 'setup', type: 'comment', z: 'sandbox', name: 'setup', info: `token: ${SERVER_TOKEN}`, x: 100, y: 200, wires: [] },
];

/** The porch flow as an assistant would first build it: the function throws on every message. */
const PORCH = porchFlowChanges('sandbox', { name: 'after sunset?', func: 'throw new Error("sunset is not defined")' });

describe('mcp-endpoint: Node-RED tools that change flows, in a real Node-RED', function () {
  this.timeout(180_000);
  let nr: NodeRedProcess;
  const seen: unknown[] = [];
  before(async () => {
    nr = await startNodeRed();
    await nr.deploy(flows(true));
    await untilEndpointStarted(`${nr.url}/mcp`);
  });
  after(async () => nr?.stop());

  async function open(era: Era, elicit?: (params: any) => Record<string, unknown>, token = TOKEN) {
    const c = await connectEra(`${nr.url}/mcp`, era, token, elicit ? { capabilities: { elicitation: { form: {} } } } : {});
    if (elicit) c.client.setRequestHandler('elicitation/create', async (request) => elicit(request.params) as any);
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const r = (await c.client.callTool({ name, arguments: args })) as CallToolResult;
      seen.push(r);
      return r;
    };
    return { ...c, call, close: () => disconnect(c) };
  }
  const data = (r: CallToolResult) => r.structuredContent as any;
  const deployed = async () => JSON.stringify((await nr.request('GET', '/flows', undefined, { 'Node-RED-API-Version': 'v2' })).body.flows);
  const pending = async () => (await nr.request('GET', '/mcp-endpoint/ep/changes')).body;

  it('offers the write tools with annotations that say what they do, and node_types reads the registry', async () => {
    const c = await open('2026-07-28');
    try {
      const { tools } = await c.client.listTools();
      const by = new Map(tools.map((t) => [t.name, t.annotations]));
      for (const name of ['flows_list', 'flow_read', 'nodes_search', 'node_types', 'node_errors', 'debug_read', 'flow_validate'])
        assert.equal(by.get(name)?.readOnlyHint, true, name);
      for (const name of ['flow_deploy', 'flow_rollback'])
        assert.deepEqual([name, by.get(name)?.readOnlyHint, by.get(name)?.destructiveHint], [name, false, true]);
      assert.equal(by.get('flow_change')?.readOnlyHint, false);
      assert.equal(by.get('inject')?.readOnlyHint, false);
      const types = data(await c.call('node_types')).types.map((t: { type: string }) => t.type);
      for (const t of ['inject', 'debug', 'function', 'mcp-call-tool', 'mcp-endpoint']) assert.ok(types.includes(t), t);
      const inject = data(await c.call('node_types', { type: 'inject' }));
      assert.equal(inject.module, 'node-red');
      assert.match(inject.help, /payload/i);
      assert.ok(inject.settingsInUse.includes('payloadType'));
      const read = data(await c.call('flow_read', { flow: 'Sandbox' }));
      assert.deepEqual(read.nodes.find((n: { id: string }) => n.id === 'setup').info, 'token: ***');
    } finally {
      await c.close();
    }
  });

  it('refuses every kind of bad change, all problems at once, and keeps nothing', async () => {
    const before = await deployed();
    const c = await open('2026-07-28');
    try {
      const r = await c.call('flow_validate', {
        changes: [
          { op: 'add', node: { id: 'x1', type: 'no-such-node', z: 'sandbox', x: 1, y: 1, wires: [] } },
          { op: 'add', node: { id: 'x2', type: 'debug', z: 'sandbox', x: 1, y: 1, wires: [['nowhere']] } },
          { op: 'add', node: { id: 'setup', type: 'comment', z: 'sandbox', x: 1, y: 1, wires: [] } },
          { op: 'add', node: { id: 'x3', type: 'mcp-call-tool', z: 'sandbox', server: 'aaaaaaaaaaaaaaaa', x: 1, y: 1, wires: [[], []] } },
          { op: 'add', node: { id: 'x4', type: 'inject', z: 'sandbox', x: 1, y: 1, wires: [['hall-debug']] } },
          { op: 'add', node: { id: 'x5', type: 'inject', z: 'sandbox', x: 1, y: 1, wires: 'x2' } },
          { op: 'change', node: { id: 'hall', name: 'hall (changed)' } },
          { op: 'change', node: { id: 'ha', url: 'https://attacker.example/mcp' } },
          { op: 'change', node: { id: 'ha2', url: 'https://attacker.example/mcp' } },
          { op: 'add', node: { id: 'x6', type: 'mcp-server', z: 'sandbox', credentials: { token: 'mine' } } },
          { op: 'remove', id: 'ep' },
          { op: 'launch' },
        ],
      });
      assert.equal(r.isError, undefined);
      const problems: string[] = data(r).problems;
      assert.equal(data(r).valid, false);
      const expect = [
        /no node type "no-such-node" is installed/,
        /debug .*\(x2\): wired to nowhere, which does not exist/,
        /the id setup is taken/,
        /server names the config node aaaaaaaaaaaaaaaa, which does not exist/,
        /\(x4\): wired to debug "hall debug" \(hall-debug\) on another tab/,
        /\(x5\): wires must be a list of outputs/,
        /inject "hall \(changed\)" \(hall\): this endpoint changes only tabs whose description carries #assistant/,
        /mcp-server "Home Assistant" \(ha\) holds credentials/,
        /mcp-server "HA by header" \(ha2\) is a config node/,
        /credentials cannot be set through these tools/,
        /mcp-endpoint .*\(ep\) serves these tools/,
        /op must be "tab", "add", "change" or "remove" \(got "launch"\)/,
      ];
      for (const e of expect)
        assert.ok(
          problems.some((p) => e.test(p)),
          `${e} in\n${problems.join('\n')}`,
        );
      const refused = await c.call('flow_change', { changes: [{ op: 'add', node: { type: 'no-such-node', z: 'sandbox', x: 1, y: 1, wires: [] } }] });
      assert.equal(refused.isError, true);
      assert.match(JSON.stringify(data(refused).problems), /no-such-node/);
      assert.equal((await pending()).record.length, 0, 'a refused change is not kept');
      assert.equal(await deployed(), before);
    } finally {
      await c.close();
    }
  });

  it('a deploy the person denies in the client changes nothing', async () => {
    const before = await deployed();
    const asked: any[] = [];
    const c = await open('2025-11-25', (params) => (asked.push(params), { action: 'decline' }));
    try {
      const proposed = data(await c.call('flow_change', { changes: PORCH }));
      assert.match(proposed.change, /^c\d+$/);
      assert.ok(proposed.would.some((l: string) => /^\+ function "after sunset\?" \(porch-check\) on "Sandbox"/.test(l)));
      const r = data(await c.call('flow_deploy', { change: proposed.change }));
      assert.equal(r.state, 'denied');
      assert.match(asked[0].message, /Deploy this change to Node-RED\?\n\+ inject "porch motion"/);
      assert.equal(await deployed(), before);
    } finally {
      await c.close();
    }
  });

  it("a client cannot ask to deploy another client's change", async () => {
    const before = await deployed();
    const a = await open('2026-07-28');
    const b = await open('2025-11-25', () => ({ action: 'accept', content: {} }), OTHER_TOKEN);
    try {
      const { change } = data(await a.call('flow_change', { changes: PORCH }));
      const refused = await b.call('flow_deploy', { change });
      assert.equal(refused.isError, true);
      assert.match((refused.content as any)[0].text, new RegExp(`Change ${change} was proposed by another client`));
      assert.equal((await pending()).record.find((r: any) => r.id === change).state, 'proposed');
      assert.equal(await deployed(), before);
    } finally {
      await a.close();
      await b.close();
    }
  });

  let firstDeploy = '';
  it('build, run, read, fix: approved in the editor, then in the client; the flow ends working', async () => {
    firstDeploy = await deployed();
    // 2026-07-28, no elicitation: the person approves in the editor while the deploy waits.
    const c = await open('2026-07-28');
    try {
      const { change } = data(await c.call('flow_change', { changes: PORCH }));
      const waiting = c.call('flow_deploy', { change });
      const shown = await retrying(async () => {
        const p = await pending();
        if (!p.pending.length) throw new Error('not waiting yet');
        return p.pending[0];
      });
      assert.equal(shown.id, change);
      assert.equal(shown.client, 'endpoint-test');
      assert.ok(shown.lines.some((l: string) => l.startsWith('+ debug "porch light" (porch-light)')));
      const approved = await nr.request('POST', `/mcp-endpoint/ep/changes/${change}/approve`, {});
      assert.equal(approved.status, 200, JSON.stringify(approved.body));
      const out = data(await waiting);
      assert.equal(out.state, 'deployed');
      assert.equal(out.decidedBy, 'editor');
      const ran = data(await c.call('inject', { node: 'porch motion' }));
      assert.deepEqual(
        ran.errors.map((e: any) => [e.node, e.message]),
        [['porch-check', 'Error: sunset is not defined']],
      );
    } finally {
      await c.close();
    }
    // The fix, approved by the person in the client's own form (2026-07-28: input_required and a retry).
    const asked: any[] = [];
    const d = await open('2026-07-28', (params) => (asked.push(params), { action: 'accept', content: {} }));
    try {
      const fix = data(
        await d.call('flow_change', { changes: [{ op: 'change', node: { id: 'porch-check', func: 'msg.payload = "light on"; return msg;' } }] }),
      );
      assert.deepEqual(fix.would, [
        '~ function "after sunset?" (porch-check): func: "throw new Error(\\"sunset is not defined\\")" → "msg.payload = \\"light on\\"; return msg;"',
      ]);
      const out = data(await d.call('flow_deploy', { change: fix.change }));
      assert.equal(out.state, 'deployed', JSON.stringify(out));
      assert.equal(out.decidedBy, 'client: endpoint-test');
      assert.equal(asked.length, 1);
      const ran = data(await d.call('inject', { node: 'porch-motion' }));
      assert.deepEqual(ran.errors, []);
      assert.deepEqual(
        ran.debug.map((m: any) => m.value),
        ['light on'],
      );
      const record = (await pending()).record.map((r: any) => [r.id, r.state]);
      assert.deepEqual(record.slice(0, 2), [
        [fix.change, 'deployed'],
        [`c${Number(fix.change.slice(1)) - 1}`, 'deployed'],
      ]);
    } finally {
      await d.close();
    }
  });

  it('a deploy whose nodes fail as they start answers with their errors', async () => {
    const c = await open('2025-11-25', () => ({ action: 'accept', content: {} }));
    try {
      const starting = {
        op: 'add',
        node: {
          id: 'porch-lamp',
          type: 'function',
          z: 'sandbox',
          name: 'porch lamp',
          x: 300,
          y: 300,
          func: 'return msg;',
          initialize: 'throw new Error("no porch lamp here")',
          outputs: 1,
          wires: [[]],
        },
      };
      const { change } = data(await c.call('flow_change', { changes: [starting] }));
      const out = data(await c.call('flow_deploy', { change }));
      assert.equal(out.state, 'deployed');
      assert.deepEqual(
        out.errors.map((e: any) => [e.node, e.level]),
        [['porch-lamp', 'error']],
      );
      assert.match(out.errors[0].message, /no porch lamp here/);
      // Fixed by removing it again (a rollback would do too).
      const { change: undo } = data(await c.call('flow_change', { changes: [{ op: 'remove', id: 'porch-lamp' }] }));
      assert.deepEqual(data(await c.call('flow_deploy', { change: undo })).errors, []);
    } finally {
      await c.close();
    }
  });

  it('a masked value and "[redacted]" credentials round-trip unchanged', async () => {
    const c = await open('2025-11-25', () => ({ action: 'accept', content: {} }));
    try {
      const read = data(await c.call('flow_read', { flow: 'sandbox' }));
      const setup = read.nodes.find((n: { id: string }) => n.id === 'setup');
      const { change } = data(await c.call('flow_change', { changes: [{ op: 'change', node: { ...setup, name: 'setup notes' } }] }));
      assert.equal(data(await c.call('flow_deploy', { change })).state, 'deployed');
      const after = JSON.parse(await deployed()).find((n: { id: string }) => n.id === 'setup');
      assert.deepEqual([after.name, after.info], ['setup notes', `token: ${SERVER_TOKEN}`]);
      const kept = data(
        await c.call('flow_validate', {
          changes: [{ op: 'add', node: { type: 'comment', z: 'sandbox', x: 1, y: 1, wires: [], credentials: { x: '[redacted]' } } }],
        }),
      );
      assert.equal(kept.valid, true, JSON.stringify(kept));
      // Valid, but the person is told to look twice: a node that reads the environment.
      const reads = data(
        await c.call('flow_validate', {
          changes: [
            {
              op: 'add',
              node: { id: 'leak', type: 'function', z: 'sandbox', x: 1, y: 1, func: 'msg.payload = env.get("HA_TOKEN"); return msg;', wires: [[]] },
            },
          ],
        }),
      );
      assert.deepEqual(reads.would.at(-1), '! function (leak) reads the environment: HA_TOKEN (check where it sends them)');
    } finally {
      await c.close();
    }
  });

  it('rollback restores the flows byte for byte, and refuses after someone else deployed', async () => {
    const c = await open('2026-07-28');
    try {
      const listed = (await pending()).record.filter((r: any) => r.state === 'deployed').map((r: any) => r.id);
      const first = listed[listed.length - 1];
      const r = data(await c.call('flow_rollback', { change: first }));
      assert.deepEqual([...r.rolledBack].sort(), [...listed].sort());
      assert.equal(r.identical, true);
      assert.equal(await deployed(), firstDeploy);
      // A person deploys in the editor: a rollback would undo their work, so it is refused.
      const { change } = data(
        await c.call('flow_change', { changes: [{ op: 'add', node: { type: 'comment', z: 'sandbox', name: 'note', x: 1, y: 1, wires: [] } }] }),
      );
      const waiting = c.call('flow_deploy', { change });
      await retrying(async () => assert.equal((await pending()).pending.length, 1));
      assert.equal((await nr.request('POST', `/mcp-endpoint/ep/changes/${change}/approve`, {})).status, 200);
      assert.equal(data(await waiting).state, 'deployed');
      await nr.deploy(flows(true));
      const refused = await c.call('flow_rollback');
      assert.equal(refused.isError, true);
      assert.match((refused.content as any)[0].text, /deployed by someone else/);
    } finally {
      await c.close();
    }
  });

  it('no credential appears in any result or in the log', () => {
    const everything = JSON.stringify(seen);
    assert.ok(seen.length > 15, 'the calls above were seen');
    for (const secret of [SERVER_TOKEN, TOKEN, OTHER_TOKEN]) {
      assert.doesNotMatch(everything, new RegExp(secret));
      assert.doesNotMatch(nr.log.join('\n'), new RegExp(secret));
    }
  });

  it('an endpoint without "allow changes" offers no write tool and refuses every write', async () => {
    await nr.deploy(flows(false));
    const c = await retrying(async () => {
      const opened = await open('2026-07-28');
      const names = (await opened.client.listTools()).tools.map((t) => t.name);
      if (names.includes('flow_change')) {
        await opened.close();
        throw new Error('the old endpoint still answers');
      }
      return opened;
    });
    const before = await deployed();
    try {
      for (const [name, args] of [
        ['flow_validate', { changes: PORCH }],
        ['flow_change', { changes: PORCH }],
        ['flow_deploy', { change: 'c1' }],
        ['flow_rollback', {}],
        ['inject', { node: 'hall' }],
      ] as const) {
        const outcome = await c.client.callTool({ name, arguments: args }).then(
          (r) => ((r as CallToolResult).isError ? 'refused' : 'answered'),
          (err: Error) => (/Unknown tool/.test(err.message) ? 'refused' : err.message),
        );
        assert.equal(outcome, 'refused', name);
      }
      assert.equal((await nr.request('GET', '/mcp-endpoint/ep/changes')).status, 404);
      assert.equal(await deployed(), before);
    } finally {
      await c.close();
    }
  });
});
