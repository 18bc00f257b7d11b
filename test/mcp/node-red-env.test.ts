// `${VAR}` in settings resolves through Node-RED's own environment lookup (tab, group, global, then
// the process), so a Home Assistant add-on user, who cannot set process variables, sets HA_URL on a
// tab. Proven with the real runtime against the Home Assistant stand-in.
import assert from 'node:assert/strict';
import { helper, nextMessage, send, mcpNodes, catchNode, useRuntimeWithHomeAssistant } from '../helpers/runtime';

const env = (vars: Record<string, string>) => Object.entries(vars).map(([name, value]) => ({ name, value, type: 'str' }));

describe('settings: ${VAR} through Node-RED environment variables', function () {
  this.timeout(30000);
  const peers = useRuntimeWithHomeAssistant();
  afterEach(() => helper.unload());

  async function listThrough(flow: Record<string, unknown>[]) {
    await helper.load([...mcpNodes, catchNode] as any, flow as any, { ha: { token: peers.ha.token } } as any);
    const got = Promise.race([nextMessage('out').then((m) => ({ ok: m })), nextMessage('caught').then((m) => ({ err: m }))]);
    send('list', { payload: '' });
    return got;
  }

  const nodes = (tab: string, extra: Record<string, unknown> = {}) => [
    { id: 'ha', type: 'mcp-server', z: tab, name: 'HA', transport: 'http', url: '${HA_URL:-http://127.0.0.1:9}/api/mcp', ...extra },
    { id: 'list', type: 'mcp-list-tools', z: tab, server: 'ha', wires: [['out']] },
    { id: 'out', type: 'helper', z: tab },
    { id: 'catcher', type: 'catch', z: tab, scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', type: 'helper', z: tab },
  ];

  it('an mcp-server on a tab uses HA_URL set on that tab', async () => {
    const origin = new URL(peers.ha.url).origin;
    const result: any = await listThrough([{ id: 't1', type: 'tab', label: 'home', env: env({ HA_URL: origin }) }, ...nodes('t1')]);
    assert.ok(result.ok, `listed, not failed: ${JSON.stringify(result.err?.error)}`);
    assert.equal(result.ok.payload.length, 19);
  });

  it('without the tab variable the default applies (and names the address it tried)', async () => {
    const result: any = await listThrough([{ id: 't1', type: 'tab', label: 'home' }, ...nodes('t1')]);
    assert.ok(result.err, 'the list fails');
    assert.match(result.err.error.message, /127\.0\.0\.1:9/);
  });

  it("a group's variable wins over its tab's", async () => {
    const origin = new URL(peers.ha.url).origin;
    const [server, ...rest] = nodes('t1', { g: 'g1' });
    const result: any = await listThrough([
      { id: 't1', type: 'tab', label: 'home', env: env({ HA_URL: 'http://127.0.0.1:9' }) },
      { id: 'g1', type: 'group', z: 't1', env: env({ HA_URL: origin }), nodes: ['ha'] },
      server,
      ...rest,
    ]);
    assert.ok(result.ok, `listed through the group's HA_URL: ${JSON.stringify(result.err?.error)}`);
  });

  it('a text setting of any node takes a tab variable inside it: mcp-list-tools includes "Hass${VERB}*"', async () => {
    // Node-RED replaces only a value that is nothing but "${VERB}"; inside a text it is ours to expand.
    const origin = new URL(peers.ha.url).origin;
    const [server, list, ...rest] = nodes('t1');
    const result: any = await listThrough([
      { id: 't1', type: 'tab', label: 'home', env: env({ HA_URL: origin, VERB: 'Turn' }) },
      server,
      { ...list, include: 'Hass${VERB}*' },
      ...rest,
    ]);
    assert.ok(result.ok, `listed, not failed: ${JSON.stringify(result.err?.error)}`);
    const names: string[] = result.ok.payload.map((t: { name: string }) => t.name);
    assert.ok(names.length > 0 && names.length < 19, names.join(', '));
    assert.ok(
      names.every((n) => n.startsWith('HassTurn')),
      names.join(', '),
    );
  });
});
