// `${VAR}` in settings resolves through Node-RED's own environment lookup (tab, group, global, then
// the process), so a Home Assistant add-on user, who cannot set process variables, sets HA_URL on a
// tab. Proven with the real runtime against the Home Assistant stand-in.
import assert from 'node:assert/strict';
import { helper, nextMessage, send, mcpNodes, catchNode, useRuntimeWithHomeAssistant } from '../helpers/runtime';
import { PASSWORD_PLACEHOLDER } from '../../nodes/shared/secret-destinations';

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

  it("Test connection resolves ${VAR} as the deployed node does: the tab's HA_URL and HA_TOKEN, for the deployed server and for a new one on that tab", async () => {
    const origin = new URL(peers.ha.url).origin;
    const [server, ...rest] = nodes('t1');
    await helper.load(
      [...mcpNodes, catchNode] as any,
      [
        { id: 't1', type: 'tab', label: 'home', env: env({ HA_URL: origin, HA_TOKEN: peers.ha.token }) },
        { ...server, url: '${HA_URL}/api/mcp' },
        ...rest,
      ] as any,
      { ha: { token: '${HA_TOKEN}' } } as any,
    );
    const config = { transport: 'http', url: '${HA_URL}/api/mcp' };
    const deployed = await helper.request().post('/mcp-server/test').send({ id: 'ha', z: 't1', config, token: PASSWORD_PLACEHOLDER }).expect(200);
    assert.equal(deployed.body.ok, true, JSON.stringify(deployed.body));
    assert.equal(deployed.body.toolCount, 19);
    // not deployed yet, on the same tab, the token typed as the tab's variable
    const fresh = await helper.request().post('/mcp-server/test').send({ id: 'new-server', z: 't1', config, token: '${HA_TOKEN}' }).expect(200);
    assert.equal(fresh.body.ok, true, JSON.stringify(fresh.body));
    // a global config node does not see a tab's variables: the default address is tried, and named
    const global = await helper
      .request()
      .post('/mcp-server/test')
      .send({ id: 'other', config: { transport: 'http', url: '${HA_URL:-http://127.0.0.1:9}/api/mcp' }, token: 'x' })
      .expect(200);
    assert.equal(global.body.ok, false);
    assert.match(global.body.error, /127\.0\.0\.1:9/);
  });
});
