// examples/build-a-flow-by-asking.json in a real Node-RED, on both Home Assistant generations: the
// example's gemini-agent (the fake Gemini scripted as a model would answer) reaches this Node-RED's
// own endpoint through its mcp-server, reads the flows, proposes a porch-light flow in the sandbox
// tab and asks to deploy it; the deploy waits until a person approves it in the endpoint's dialog
// (its admin route); the agent then presses the new flow's inject node, and the Home Assistant
// stand-in receives the call the built flow makes. Before the token is set, the endpoint refuses.
import assert from 'node:assert/strict';
import { reply } from '../peers/fake-gemini';
import { HA_GENERATIONS, haToolName, type HaGeneration } from '../peers/home-assistant';
import { assertCleanDeploy, readExample, startNodeRed, withTabCredentials, type FlowNode, type NodeRedProcess } from '../helpers/node-red';
import { startServicePeers, type ServicePeers } from './service-peers';
import { retrying } from '../helpers/wait';
import { untilEndpointStarted } from '../helpers/bearer-requests';

const TOKEN = 'build-a-flow-token-0a7d';

for (const generation of HA_GENERATIONS) describeExample(generation);

function describeExample(generation: HaGeneration) {
  describe(`examples: build-a-flow-by-asking.json on Home Assistant ${generation}`, function () {
    this.timeout(120_000);
    let peers: ServicePeers;
    let nr: NodeRedProcess;
    const turnOn = haToolName(generation, 'HassTurnOn');
    // As the user sets it up: a token on the tab, and (Node-RED listens on a port of the test's) the endpoint's address.
    const setUp = (flow: FlowNode[]) =>
      withTabCredentials(flow, { MCP_TOKEN: TOKEN }).map((n) =>
        n.id === 'bfa-tab' ? { ...n, env: [...(n.env as object[]), { name: 'ASSISTANT_URL', value: `${nr.url}/assistant`, type: 'str' }] } : n,
      );

    before(async () => {
      peers = await startServicePeers(generation);
      nr = await startNodeRed({ env: peers.env });
    });
    after(async () => {
      await nr?.stop();
      await peers?.close();
    });

    it('deploys without errors; before a token is set, the endpoint refuses everyone', async () => {
      const flow = readExample('build-a-flow-by-asking');
      assert.ok(!JSON.stringify(flow).includes(TOKEN));
      await nr.deploy(flow);
      await assertCleanDeploy(nr, flow);
      // Resolves once the endpoint answers 401 (no token set: everyone refused); times out on anything else.
      await untilEndpointStarted(`${nr.url}/assistant`);
    });

    it('the agent builds the flow, a person approves the deploy, and the built flow turns the porch light on', async () => {
      await nr.deploy(setUp(readExample('build-a-flow-by-asking')));
      const changes = [
        {
          op: 'add',
          node: {
            id: 'porch-motion',
            type: 'inject',
            z: 'bfa-sandbox',
            name: 'porch motion',
            x: 140,
            y: 120,
            props: [{ p: 'payload' }],
            payload: '{"name":"Porch Light","domain":["light"]}',
            payloadType: 'json',
            wires: [['porch-on']],
          },
        },
        {
          op: 'add',
          node: {
            id: 'porch-on',
            type: 'mcp-call-tool',
            z: 'bfa-sandbox',
            name: 'porch light on',
            server: 'bfa-ha',
            tool: turnOn,
            x: 360,
            y: 120,
            wires: [['porch-done'], []],
          },
        },
        {
          op: 'add',
          node: {
            id: 'porch-done',
            type: 'debug',
            z: 'bfa-sandbox',
            name: 'porch light',
            x: 580,
            y: 120,
            active: true,
            tosidebar: true,
            complete: 'payload',
            wires: [],
          },
        },
      ];
      peers.gemini.script(
        reply.call('flows_list', {}),
        reply.call('flow_change', { changes }),
        reply.call('flow_deploy', { change: 'c1' }),
        reply.call('inject', { node: 'porch motion' }),
        reply.text('I built the porch light flow in the sandbox and tried it: the porch light is on.'),
      );
      await nr.inject('bfa-ask');
      // The deploy waits for a person: the endpoint's dialog lists it, line by line.
      const waiting = await retrying(async () => {
        const listed = (await nr.request('GET', '/mcp-endpoint/bfa-endpoint/changes')).body;
        if (!listed.pending?.length) throw new Error('nothing waits yet');
        return listed.pending[0];
      }, 60_000);
      assert.equal(waiting.id, 'c1');
      assert.ok(waiting.lines.some((l: string) => l.startsWith(`+ mcp-call-tool "porch light on" (porch-on) on "Gemini: the assistant's sandbox"`)));
      assert.deepEqual(
        peers.ha.requests.filter((r) => r.rpcMethod === 'tools/call'),
        [],
        'nothing ran before the approval',
      );
      assert.equal((await nr.request('POST', '/mcp-endpoint/bfa-endpoint/changes/c1/approve', {})).status, 200);

      const answer = await nr.debug.next('bfa-answer', undefined, 60_000);
      assert.equal(answer.value, 'I built the porch light flow in the sandbox and tried it: the porch light is on.');
      const trace = await nr.debug.next('bfa-trace');
      const calls = trace.value.steps.flatMap((s: any) => s.calls.map((c: any) => [c.name, c.isError]));
      assert.deepEqual(calls, [
        ['flows_list', false],
        ['flow_change', false],
        ['flow_deploy', false],
        ['inject', false],
      ]);
      // What the model read back: deployed by the person in the editor; the inject ran without errors.
      const said = peers.gemini.requests.map((r: any) => r.body.contents.at(-1).parts[0].functionResponse?.response);
      assert.deepEqual([said[3].output.state, said[3].output.decidedBy, said[3].output.errors], ['deployed', 'editor', []]);
      assert.deepEqual([said[4].output.injected, said[4].output.errors], ['porch-motion', []]);
      const haCall = peers.ha.requests.find((r: any) => r.rpcMethod === 'tools/call') as any;
      assert.equal(haCall.json.params.name, turnOn);
      assert.deepEqual(haCall.json.params.arguments, { name: 'Porch Light', domain: ['light'] });
      const flows = (await nr.request('GET', '/flows', undefined, { 'Node-RED-API-Version': 'v2' })).body.flows as FlowNode[];
      assert.deepEqual(
        flows.filter((n) => n.z === 'bfa-sandbox').map((n) => n.id),
        ['bfa-ha', 'bfa-sandbox-note', 'porch-motion', 'porch-on', 'porch-done'],
      );
      assert.deepEqual(nr.debug.errors(), []);
    });
  });
}
