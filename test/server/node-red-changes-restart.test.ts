// The record of an assistant's changes outlives a restart of Node-RED (a Home Assistant add-on
// update restarts it): in a real Node-RED on a user directory kept between two starts, a change is
// deployed; after the restart the endpoint's dialog still lists it, its snapshot still rolls the
// flows back byte for byte, and the next change goes on with the next id. The file it is kept in is
// encrypted (nothing of the flows readable in it) and readable by Node-RED's user only.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { startNodeRed, type NodeRedProcess } from '../helpers/node-red';
import { connectWhenStarted } from '../helpers/bearer-requests';
import { retrying } from '../helpers/wait';

const TOKEN = 'restart-token-5e0c';

describe('mcp-endpoint: the record of changes outlives a restart of Node-RED', function () {
  this.timeout(180_000);
  const userDir = mkdtempSync(join(tmpdir(), 'mcp-changes-restart-'));
  let nr: NodeRedProcess | undefined;
  after(async () => {
    await nr?.stop();
    rmSync(userDir, { recursive: true, force: true });
  });
  const deployed = async () => JSON.stringify((await nr!.request('GET', '/flows', undefined, { 'Node-RED-API-Version': 'v2' })).body.flows);

  async function deployThroughTheTools(change: Record<string, unknown>): Promise<string> {
    const client = await connectWhenStarted(`${nr!.url}/mcp`, TOKEN, 'restart-test');
    try {
      const proposed = (await client.callTool({ name: 'flow_change', arguments: { changes: [change] } })) as CallToolResult;
      const id = (proposed.structuredContent as { change: string }).change;
      const waiting = client.callTool({ name: 'flow_deploy', arguments: { change: id } }) as Promise<CallToolResult>;
      await retrying(async () => assert.equal((await nr!.request('GET', '/mcp-endpoint/ep/changes')).body.pending.length, 1));
      assert.equal((await nr!.request('POST', `/mcp-endpoint/ep/changes/${id}/approve`, {})).status, 200);
      assert.equal(((await waiting).structuredContent as { state: string }).state, 'deployed');
      return id;
    } finally {
      await client.close();
    }
  }

  it('lists the change after the restart, rolls it back exactly, and goes on with the next id', async () => {
    nr = await startNodeRed({ userDir });
    await nr.deploy([
      { id: 'sandbox', type: 'tab', label: 'Sandbox', info: '#assistant' },
      { id: 'ep', type: 'mcp-endpoint', path: '/mcp', nodeRedTools: true, nodeRedChanges: true, nodeRedApproval: 'editor', credentials: { tokens: TOKEN } },
      { id: 'note', type: 'comment', z: 'sandbox', name: 'before', x: 100, y: 40, wires: [] },
    ]);
    const before = await deployed();
    const first = await deployThroughTheTools({ op: 'change', node: { id: 'note', name: 'after' } });
    const file = join(userDir, 'mcp-endpoint-ep-changes.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.doesNotMatch(readFileSync(file, 'utf8'), /before|after|sandbox/, 'the kept record is encrypted');
    await nr.stop();

    nr = await startNodeRed({ userDir });
    const listed = await retrying(async () => {
      const res = await nr!.request('GET', '/mcp-endpoint/ep/changes');
      assert.equal(res.status, 200);
      return res.body;
    });
    assert.deepEqual(
      listed.record.map((r: any) => [r.id, r.state, r.rollback]),
      [[first, 'deployed', true]],
    );
    const rolled = await nr.request('POST', '/mcp-endpoint/ep/changes/rollback', { change: first });
    assert.equal(rolled.status, 200, JSON.stringify(rolled.body));
    assert.equal(rolled.body.identical, true);
    assert.equal(await deployed(), before);
    const next = await deployThroughTheTools({ op: 'change', node: { id: 'note', name: 'again' } });
    assert.equal(next, `c${Number(first.slice(1)) + 1}`);
  });
});
