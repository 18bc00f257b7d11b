// `npm start` end to end: Node-RED started as scripts/start.mjs starts it, with every example
// installed on first start (getting-started first), lists and calls the tools of server-everything
// over stdio, and every example of the package is listed under Import > Examples.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until } from '../helpers/wait';
import { EXAMPLES_DIR, PACKAGE_NAME, readExample, startNodeRed, assertCleanDeploy, type NodeRedProcess } from '../helpers/node-red';

const home = require('../../scripts/node-red-home.cjs');

describe('examples: npm start and the getting-started flow', function () {
  this.timeout(120_000);
  let nr: NodeRedProcess;
  const flow = readExample('00-getting-started');

  before(async () => {
    // As scripts/start.mjs does on a first start: Node-RED with no flow, then every example deployed.
    nr = await startNodeRed();
    await home.deployExamples(nr.url);
  });
  after(async () => {
    await nr?.stop();
  });

  it('deploys every example on first start, getting-started first, without errors or unknown node types', async () => {
    const res = await nr.request('GET', '/flows');
    assert.equal(res.status, 200);
    const deployed = res.body as any[];
    const ids = new Set(deployed.map((n) => n.id));
    for (const n of flow) assert.ok(ids.has(n.id), `node ${n.id} (${n.type}) is deployed`);
    const tabs = deployed.filter((n) => n.type === 'tab').map((n) => n.label);
    // One tab per example, and build-a-flow-by-asking's second one (the assistant's sandbox).
    const exampleTabs = readdirSync(EXAMPLES_DIR)
      .filter((f) => f.endsWith('.json'))
      .flatMap((f) => readExample(f.replace(/\.json$/, '')).filter((n) => n.type === 'tab'));
    assert.equal(exampleTabs.length, readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.json')).length + 1);
    assert.equal(tabs.length, exampleTabs.length, `every example's tabs: ${tabs.join(', ')}`);
    assert.equal(tabs[0], flow.find((n) => n.type === 'tab')?.label, 'getting-started is the first tab');
    // One pattern for the tab names, "<area>: <what it shows>", so a person scans them by area.
    assert.deepEqual(
      tabs.filter((label) => !/^(MCP|Gemini|ESP32|Voice|Endpoint): \S/.test(label ?? '')),
      [],
      'every example tab is named "<area>: <what>"',
    );
    // After importing every example, a picker tells their config nodes apart: each is named after its tab.
    const labelOf = new Map(deployed.filter((n) => n.type === 'tab').map((n) => [n.id, n.label]));
    const misnamed = deployed
      .filter((n) => ['mcp-server', 'esp32-listener', 'mcp-endpoint'].includes(n.type))
      .filter((n) => !String(n.name ?? '').endsWith(`(${labelOf.get(n.z)})`))
      .map((n) => `${n.name} on ${labelOf.get(n.z)}`);
    assert.deepEqual(misnamed, [], 'every example config node is named "<what> (<its tab>)"');
    await assertCleanDeploy(nr, flow);
    assert.ok(!nr.log.some((l) => /missing (node )?types/i.test(l)), nr.log.join('\n'));
    // Deployed as an import is, the examples keep their credentials: the closed endpoints name the
    // tab variable to set, instead of a bare "no tokens" warning. (Nodes log as they start, after
    // the deploy has answered.)
    // One line for the closed endpoints (expose-a-flow-as-a-tool, home-as-object-graph, build-a-flow-by-asking), naming each.
    await until('the closed endpoints to name MCP_TOKEN in the log', () => nr.log.some((l) => /take their token from MCP_TOKEN/.test(l)));
    const advice = nr.log.filter((l) => /take their token from MCP_TOKEN/.test(l));
    assert.equal(advice.length, 1, advice.join('\n'));
    for (const path of [/\/mcp\b/, /\/home-mcp\b/, /\/assistant\b/]) assert.match(advice[0], path);
    assert.ok(!nr.log.some((l) => /has no tokens and is not anonymous/.test(l)), nr.log.filter((l) => /mcp-endpoint/.test(l)).join('\n'));
  });

  it('lists every example under Import > Examples, each an importable flow', async () => {
    const res = await nr.request('GET', `/library/examples/flows/${PACKAGE_NAME}`);
    assert.equal(res.status, 200, res.text);
    const listed = (res.body as Array<string | { fn: string }>).filter((e): e is { fn: string } => typeof e === 'object').map((e) => e.fn);
    const files = readdirSync(EXAMPLES_DIR)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''));
    assert.ok(files.includes('00-getting-started'));
    assert.deepEqual([...listed].sort(), [...files].sort());
    // The editor lists them by name: the one to try first comes first.
    assert.equal([...listed].sort()[0], '00-getting-started');
    // Sub-folders (examples/servers/…) would show up as folders of flows: they must hold none.
    const folders = (res.body as unknown[]).filter((e) => typeof e === 'string');
    for (const folder of folders) {
      const inner = await nr.request('GET', `/library/examples/flows/${PACKAGE_NAME}/${folder}`);
      assert.deepEqual(JSON.stringify(inner.body).includes('"fn"'), false, `examples/${folder} must not contain .json files`);
    }
    for (const name of files) {
      const one = await nr.request('GET', `/library/examples/flows/${PACKAGE_NAME}/${name}`);
      assert.equal(one.status, 200);
      const nodes = one.body as any[];
      assert.ok(Array.isArray(nodes), `${name}: an array of nodes`);
      assert.ok(
        nodes.some((n) => n.type === 'tab'),
        `${name}: has a tab`,
      );
      assert.ok(
        nodes.some((n) => n.type === 'comment' && String(n.info ?? '').length > 40),
        `${name}: has a comment node explaining it`,
      );
      const tabs = new Set(nodes.filter((n) => n.type === 'tab').map((n) => n.id));
      const ids = new Set(nodes.map((n) => n.id));
      assert.equal(ids.size, nodes.length, `${name}: ids are unique`);
      for (const n of nodes) {
        if (n.z !== undefined) assert.ok(tabs.has(n.z), `${name}: ${n.id} is on a tab of the flow`);
        for (const out of n.wires ?? []) for (const target of out) assert.ok(ids.has(target), `${name}: ${n.id} wires to ${target}`);
      }
    }
  });

  it('once deployed, shows the tool list and an echo result in the debug sidebar (inject once on deploy)', async () => {
    nr.debug.clear();
    // A full redeploy restarts every node, so the inject nodes with once:true fire again.
    await nr.deploy(flow);
    const tools = await nr.debug.next('gs-debug-tools');
    assert.ok(Array.isArray(tools.value), `tool list is an array (${tools.format})`);
    const names = tools.value.map((t: any) => t.name);
    for (const expected of ['echo', 'get-sum', 'trigger-long-running-operation']) assert.ok(names.includes(expected), `${expected} listed: ${names}`);
    const echo = await nr.debug.next('gs-debug-echo');
    assert.match(JSON.stringify(echo.value), /Hello from Node-RED/);
    assert.deepEqual(nr.debug.errors(), []);
  });

  it('its comment tells an installed user only what applies to them: nothing to install, no developer commands', () => {
    const text = flow
      .filter((n) => n.type === 'comment')
      .map((n) => `${n.name}\n${n.info}`)
      .join('\n');
    assert.match(text, /ships with this package/);
    for (const wrong of [/MCP_EVERYTHING/, /npm (start|install)/, /server-everything/]) assert.doesNotMatch(text, wrong);
  });

  it('calls get-sum, and a long-running operation with progress on the second output', async () => {
    await nr.inject('gs-inject-sum');
    const sum = await nr.debug.next('gs-debug-sum');
    assert.match(JSON.stringify(sum.value), /\b5\b/);

    await nr.inject('gs-inject-long');
    const result = await nr.debug.next('gs-debug-long');
    assert.match(JSON.stringify(result.value), /Long running operation completed/);
    const progress = nr.debug.messages.filter((m) => m.id === 'gs-debug-progress');
    assert.ok(progress.length >= 1, 'progress notifications reached output 2');
    assert.equal(progress[0].value.total, 4);
    assert.deepEqual(nr.debug.errors(), []);
  });

  it('every example imported into one Node-RED together: unique ids, no errors, no unknown nodes', async () => {
    const all = readdirSync(EXAMPLES_DIR)
      .filter((f) => f.endsWith('.json'))
      .flatMap((f) => readExample(f.replace(/\.json$/, '')));
    const ids = all.map((n) => n.id);
    assert.deepEqual(
      ids.filter((id, i) => ids.indexOf(id) !== i),
      [],
      'node ids are unique across the examples',
    );
    nr.debug.clear();
    await nr.deploy(all);
    // The getting-started injects fire on deploy: once their output is in, every flow has started.
    await nr.debug.next('gs-debug-echo');
    await assertCleanDeploy(nr, all);
    assert.deepEqual(nr.debug.errors(), []);
  });

  it("keeps the user's deployed flow: the example is copied only on first start", () => {
    const { flowFile } = home.prepareUserDir(nr.userDir, { initialFlow: join(EXAMPLES_DIR, '00-getting-started.json') });
    const edited = [{ id: 'user-tab', type: 'tab', label: 'mine' }];
    writeFileSync(flowFile, JSON.stringify(edited));
    home.prepareUserDir(nr.userDir, { initialFlow: join(EXAMPLES_DIR, '00-getting-started.json') });
    assert.deepEqual(JSON.parse(readFileSync(flowFile, 'utf8')), edited);
  });
});
