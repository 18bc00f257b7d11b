// Gemini CLI (pinned in test/tools.json) as a user runs it headless, with a real Node-RED's endpoint
// offering its own flows as tools (allow changes, approval in the editor), and the fake Gemini
// scripted as a model would answer: the CLI lists the flows, proposes a porch-light flow, waits
// while a person approves the deploy in the endpoint's dialog (its admin route), presses the inject,
// reads the function's error, fixes it, gets the fix approved, and reads the debug node: a build,
// run, read, fix round in one conversation that ends with a working flow. The CLI's side requests
// (its task router) get a fixed answer; the token never shows in what the CLI printed.
import assert from 'node:assert/strict';
import { startNodeRed, type NodeRedProcess } from '../helpers/node-red';
import { untilEndpointStarted } from '../helpers/bearer-requests';
import { skipBecause } from '../helpers/skip';
import { reply, startFakeGemini, type FakeGemini } from '../peers/fake-gemini';
import { geminiPrompt, interopMissing, interopVersions } from './clients';
import { porchFlowChanges } from '../helpers/porch-flow';

const TOKEN = 'gemini-cli-builds-token-8b3e';
const PORCH = porchFlowChanges('sandbox', { name: 'light on', func: 'msg.payload = lamp.on(); return msg;' });

describe('interop: Gemini CLI builds, runs and fixes a flow through the Node-RED tools', function () {
  this.timeout(180_000);
  let nr: NodeRedProcess | undefined;
  let gemini: FakeGemini | undefined;

  before(async function () {
    const missing = interopMissing();
    if (missing) skipBecause(this, 'the Gemini CLI spec', missing);
    console.log(`    Gemini CLI ${interopVersions().gemini}`);
    gemini = await startFakeGemini();
    nr = await startNodeRed();
    await nr.deploy([
      { id: 'sandbox', type: 'tab', label: 'Sandbox', info: 'The assistant builds here. #assistant' },
      { id: 'ep', type: 'mcp-endpoint', path: '/mcp', nodeRedTools: true, nodeRedChanges: true, nodeRedApproval: 'editor', credentials: { tokens: TOKEN } },
    ]);
    await untilEndpointStarted(`${nr.url}/mcp`);
  });
  after(async () => {
    await nr?.stop();
    await gemini?.close();
  });

  it('one conversation: build, approve, run, read the error, fix, approve, read the debug node', async () => {
    const turns = [
      reply.call('mcp_nodered_flows_list', {}),
      reply.call('mcp_nodered_flow_change', { changes: PORCH }),
      reply.call('mcp_nodered_flow_deploy', { change: 'c1' }),
      reply.call('mcp_nodered_inject', { node: 'porch motion' }),
      reply.call('mcp_nodered_flow_change', { changes: [{ op: 'change', node: { id: 'porch-check', func: 'msg.payload = "light on"; return msg;' } }] }),
      reply.call('mcp_nodered_flow_deploy', { change: 'c2' }),
      reply.call('mcp_nodered_inject', { node: 'porch motion' }),
      reply.text('The porch flow works now: motion turns the light on.'),
    ];
    // The CLI's own side requests (its task router, without tools) get a fixed answer.
    const answer = (r: any) =>
      (r.body.tools ?? []).some((t: any) => t.functionDeclarations?.length)
        ? (turns.shift() ?? reply.text('nothing more'))
        : reply.text('{"complexity_reasoning":"a few tool calls","complexity_score":15}');
    gemini!.script(...Array.from({ length: 40 }, () => answer));

    // The person: approves each deploy in the endpoint's dialog as it comes.
    let approving = true;
    const approved: string[] = [];
    const person = (async () => {
      while (approving) {
        const pending = (await nr!.request('GET', '/mcp-endpoint/ep/changes')).body.pending ?? [];
        for (const p of pending) if ((await nr!.request('POST', `/mcp-endpoint/ep/changes/${p.id}/approve`, {})).status === 200) approved.push(p.id);
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    const run = await geminiPrompt(
      'When the porch motion sensor fires, turn the porch light on. Build it in the sandbox and try it.',
      { nodered: { httpUrl: `${nr!.url}/mcp`, headers: { Authorization: `Bearer ${TOKEN}` } } },
      gemini!,
    );
    approving = false;
    await person;
    assert.equal(run.code, 0, run.stderr.slice(-3000));
    assert.equal(run.json.response, 'The porch flow works now: motion turns the light on.');
    assert.deepEqual(approved, ['c1', 'c2']);

    // What the CLI sent back to the model after each tool call, as the model read it.
    const responses = gemini!.requests
      .flatMap((r: any) => r.body.contents.at(-1).parts)
      .filter((p: any) => p.functionResponse)
      .map((p: any) => [p.functionResponse.name, JSON.stringify(p.functionResponse.response)]);
    const names = [...new Set(responses.map(([name]: string[]) => name))];
    assert.deepEqual(names, ['mcp_nodered_flows_list', 'mcp_nodered_flow_change', 'mcp_nodered_flow_deploy', 'mcp_nodered_inject']);
    const said = (name: string) => responses.filter(([n]: string[]) => n === name).map(([, text]: string[]) => text);
    assert.match(said('mcp_nodered_flow_deploy')[0], /\\"state\\":\\"deployed\\"/);
    assert.match(said('mcp_nodered_inject')[0], /ReferenceError: lamp is not defined/);
    assert.match(said('mcp_nodered_inject')[1], /\\"errors\\":\[\].*light on/);
    const flows = (await nr!.request('GET', '/flows', undefined, { 'Node-RED-API-Version': 'v2' })).body.flows as Array<{ id: string; func?: string }>;
    assert.equal(flows.find((n) => n.id === 'porch-check')?.func, 'msg.payload = "light on"; return msg;');
    assert.doesNotMatch(run.stdout + run.stderr, new RegExp(TOKEN));
  });
});
