// Skills a flow offers (mcp-skill) on an mcp-endpoint, read by the MCP SDK's own SkillsClient on
// both protocol revisions: the extension is declared, skills/list and skills/get carry entries whose
// SHA-256 digests and sizes the client verifies when it reads each file, the files are resources
// too, and a deploy that changes a skill tells a connected client that the resource list changed.
// A skill that breaks the extension's rules is refused on its node, with the reason.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { until } from '../helpers/wait';
import { helper, setFlows } from '../helpers/runtime';
import { connect, disconnect, loadFlow, startEndpointRuntime, stopEndpointRuntime, type Era, type FlowNode } from './harness';

const TOKEN = 'skills-token-5d1e';
const skillNode = require('../../nodes/mcp-skill/index.ts');
const LAMP_TEXT = '# Lamps\n\nCall `toggle_lamp` with the room as it is written in references/rooms.md.';
const ROOMS = 'kitchen\nliving-room\n';

const flow = (extra: FlowNode[] = []): FlowNode[] => [
  { id: 'ep', type: 'mcp-endpoint', path: '/mcp' },
  { id: 'in', type: 'mcp-tool-in', endpoint: 'ep', name: 'toggle_lamp', wires: [['out']], x: 100, y: 100 },
  { id: 'out', type: 'mcp-tool-out', x: 300, y: 100 },
  {
    id: 'lamp',
    type: 'mcp-skill',
    endpoint: 'ep',
    name: 'lamp-care',
    description: 'How to switch the lamps of this house: names, rooms, order',
    text: LAMP_TEXT,
    files: [{ path: 'references/rooms.md', text: ROOMS }],
    x: 100,
    y: 200,
  },
  ...extra,
];

const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
const tick = () => new Promise((r) => setTimeout(r, 400)); // the skill's digests, then the registry's 250 ms burst

describe('mcp-skill: skills served by an endpoint, read by the SDK skills client', function () {
  this.timeout(30000);
  before(startEndpointRuntime);
  after(stopEndpointRuntime);

  for (const era of ['2025-11-25', '2026-07-28'] as Era[]) {
    it(`${era}: lists, gets and reads a skill; every file matches its digest`, async () => {
      await loadFlow(flow(), { ep: { tokens: TOKEN } }, [skillNode]);
      await tick();
      const c = await connect('/mcp', era, TOKEN);
      try {
        const skills = new SkillsClient(c.client);
        assert.equal(skills.supported, true, 'the endpoint declares io.modelcontextprotocol/skills');
        const listed = await skills.list();
        assert.deepEqual(listed.invalid, []);
        assert.equal(listed.skills.length, 1);
        const [entry] = listed.skills;
        assert.equal(entry.uri, 'skill://lamp-care/SKILL.md');
        assert.deepEqual(entry.frontmatter, { name: 'lamp-care', description: 'How to switch the lamps of this house: names, rooms, order' });
        if (era === '2026-07-28') assert.deepEqual([listed.ttlMs, listed.cacheScope], [0, 'private']);
        else assert.equal(listed.ttlMs, undefined, '2025 answers carry no caching fields');
        const files = entry.resources as { uri: string; digest: string; size: number }[];
        assert.deepEqual(
          files.map((f) => f.uri),
          ['skill://lamp-care/SKILL.md', 'skill://lamp-care/references/rooms.md'],
        );
        assert.deepEqual(files[1], { uri: 'skill://lamp-care/references/rooms.md', digest: sha256(ROOMS), size: Buffer.byteLength(ROOMS) });

        const got = await skills.get('skill://lamp-care/SKILL.md');
        assert.deepEqual(got.skill, entry);
        const manifest = await skills.read(entry);
        assert.equal(manifest.verified, true);
        assert.equal(manifest.body?.trim(), LAMP_TEXT);
        assert.equal(files[0].digest, sha256(manifest.text!), 'SKILL.md as served is what its digest says');
        const rooms = await skills.read(entry, 'references/rooms.md');
        assert.deepEqual([rooms.verified, rooms.text], [true, ROOMS]);

        // A client that knows only resources finds the same files.
        const resources = (await c.client.listResources()).resources.map((r) => r.uri);
        assert.deepEqual(resources, ['skill://lamp-care/SKILL.md', 'skill://lamp-care/references/rooms.md']);
        await assert.rejects(skills.get('skill://nothing/SKILL.md'), /No skill is served at skill:\/\/nothing\/SKILL.md/);
      } finally {
        await disconnect(c);
      }
    });
  }

  it('a deploy that changes a skill announces the resource list once; one that keeps it announces nothing', async () => {
    await loadFlow(flow(), { ep: { tokens: TOKEN } }, [skillNode]);
    await tick();
    const c = await connect('/mcp', '2025-11-25', TOKEN);
    try {
      const heard: string[] = [];
      c.client.setNotificationHandler('notifications/resources/list_changed', () => void heard.push('resources'));
      c.client.setNotificationHandler('notifications/tools/list_changed', () => void heard.push('tools'));
      await tick(); // the GET stream the notifications travel on
      const tab = { id: 'tab1', type: 'tab', label: 'tools' };
      const deployed = (nodes: FlowNode[]) => [tab, ...nodes.map((n) => (n.type === 'mcp-endpoint' ? n : { ...n, z: 'tab1' }))];
      await setFlows(deployed(flow()) as any, 'full', { ep: { tokens: TOKEN } } as any);
      await tick();
      assert.deepEqual(heard, [], 'the same skill: nothing announced');
      const changed = flow().map((n) => (n.id === 'lamp' ? { ...n, text: LAMP_TEXT + '\nNever switch the hall lamp at night.' } : n));
      await setFlows(deployed(changed) as any, 'full', { ep: { tokens: TOKEN } } as any);
      await until('resources/list_changed', () => heard.length > 0, 5000);
      await tick();
      assert.deepEqual(heard, ['resources']);
      const manifest = await new SkillsClient(c.client).read((await new SkillsClient(c.client).list()).skills[0]);
      assert.match(manifest.body!.trim(), /Never switch the hall lamp at night\.$/, 'the session reads the new text, verified');
    } finally {
      await disconnect(c);
    }
  });

  it('a skill that breaks the rules, or takes a name already served, is refused on its node with the reason', async () => {
    await loadFlow(
      flow([
        { id: 'bad', type: 'mcp-skill', endpoint: 'ep', name: 'Lamp Care', description: 'x', text: 'y', x: 100, y: 300 },
        { id: 'empty', type: 'mcp-skill', endpoint: 'ep', name: 'quiet', description: 'Nothing to say', text: '  ', x: 100, y: 350 },
        { id: 'twice', type: 'mcp-skill', endpoint: 'ep', name: 'lamp-care', description: 'Again', text: 'Again.', x: 100, y: 400 },
        { id: 'escape', type: 'mcp-skill', endpoint: 'ep', name: 'sneaky', description: 'd', text: 't', files: [{ path: '../x', text: '' }], x: 100, y: 450 },
      ]),
      { ep: { tokens: TOKEN } },
      [skillNode],
    );
    await tick();
    const errors = (id: string) =>
      helper
        .log()
        .args.filter((a: any[]) => a[0]?.id === id && a[0]?.level === 20)
        .map((a: any[]) => String(a[0].msg));
    assert.match(errors('bad').join(), /skill name "Lamp Care" must be 1-64 lowercase letters, digits and single hyphens/);
    assert.match(errors('empty').join(), /skill "quiet" has no text/);
    assert.match(errors('twice').join(), /Skill "lamp-care" is already offered by node lamp on this endpoint; rename one of them/);
    assert.match(errors('escape').join(), /file path "\.\.\/x" must be a relative path/);
    const c = await connect('/mcp', '2026-07-28', TOKEN);
    try {
      const listed = await new SkillsClient(c.client).list();
      assert.deepEqual(
        listed.skills.map((s) => s.frontmatter.name),
        ['lamp-care'],
      );
    } finally {
      await disconnect(c);
    }
  });
});
