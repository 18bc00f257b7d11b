// An endpoint whose token comes from a tab variable defined twice on that tab: Node-RED uses one of
// the rows without a word, so a user editing the other saw only 401s. The endpoint says so.
import assert from 'node:assert/strict';
import { captureLogs, catchNode, functionNode, helper, until } from '../helpers/runtime';
import { endpointNodes, startEndpointRuntime, stopEndpointRuntime } from './harness';

describe('mcp-endpoint: a token variable defined twice on its tab is named', function () {
  this.timeout(30000);
  before(startEndpointRuntime);
  after(stopEndpointRuntime);

  const deploy = async (rows: Array<{ name: string; value: string; type: string }>) => {
    await helper.unload();
    await helper.load(
      [...endpointNodes, catchNode, functionNode] as any,
      [
        { id: 'tab1', type: 'tab', label: 'tools', env: rows },
        { id: 'ep', type: 'mcp-endpoint', z: 'tab1', path: '/mcp' },
      ] as any,
      { ep: { tokens: '${MCP_TOKEN}' } } as any,
    );
  };

  it('two MCP_TOKEN rows: a warning names the variable and what to do', async () => {
    await deploy([
      { name: 'MCP_TOKEN', value: 'first', type: 'str' },
      { name: 'MCP_TOKEN', value: 'second', type: 'str' },
    ]);
    const logs = captureLogs();
    await until('the warning', () => logs.lines().some((l) => l.includes('defined more than once')), 5000).catch(() => undefined);
    const said = logs
      .lines()
      .map((l) => String(JSON.parse(l).msg))
      .filter((m) => m.includes('defined more than once'));
    assert.equal(said.length, 1, JSON.stringify(logs.lines().slice(-5)));
    assert.match(said[0], /^MCP_TOKEN is defined more than once in this tab's Environment variables/);
    assert.ok(!said[0].includes('first') && !said[0].includes('second'), 'no value is said');
  });

  it('one row: nothing is said', async () => {
    await deploy([{ name: 'MCP_TOKEN', value: 'only', type: 'str' }]);
    const logs = captureLogs();
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(!logs.lines().some((l) => l.includes('defined more than once')));
  });
});
