// Tool names across renames (src/mcp/tool-renames.ts, src/mcp/tool-names.ts), on the names Home
// Assistant really served before and after 2026.9 (both fixture generations), plus the edge cases:
// ambiguity is reported, never guessed, and a wildcard-only rest never widens to every tool.
import assert from 'node:assert/strict';
import { closeMatches, filterTools, globMatchesTool, missingNames, otherForms, resolveToolName } from '../../src/mcp/tool-names';
import { haFixtures } from '../peers/home-assistant';

const before = haFixtures('pre-2026.9').tools.map((t) => ({ name: t.name }));
const after = haFixtures('2026.10').tools.map((t) => ({ name: t.name }));

describe('tool names across renames', () => {
  it('other forms: without each integration prefix, and the innermost prefix joined by one underscore', () => {
    assert.deepEqual(otherForms('assist__intent__HassTurnOn'), ['intent__HassTurnOn', 'intent_HassTurnOn', 'HassTurnOn']);
    assert.deepEqual(otherForms('todo__get_items'), ['todo_get_items', 'get_items']);
    assert.deepEqual(otherForms('media_player__HassMediaPause'), ['media_player_HassMediaPause', 'HassMediaPause']);
    assert.deepEqual(otherForms('HassTurnOn'), []);
    assert.deepEqual(otherForms('__private'), []);
    assert.deepEqual(otherForms('Foo__bar'), [], 'an upper-case first part is not an integration');
  });

  it('every pre-2026.9 tool name resolves to its one 2026.10 tool, and back', () => {
    assert.equal(before.length, after.length);
    for (const { name } of before) {
      const r = resolveToolName(name, after);
      assert.equal(r.kind, 'found', `${name} on 2026.10`);
      const back = resolveToolName((r as { tool: { name: string } }).tool.name, before);
      assert.equal(back.kind === 'found' && back.tool.name, name, `${name} back on pre-2026.9`);
    }
  });

  it('an exact name wins; a bare name fitting several tools is ambiguous with every candidate', () => {
    const merged = ['assist__intent__HassTurnOn', 'management__intent__HassTurnOn', 'HassTurnOn'].map((name) => ({ name }));
    assert.deepEqual(resolveToolName('HassTurnOn', merged), { kind: 'found', tool: merged[2], renamed: false });
    const r = resolveToolName('intent__HassTurnOn', merged.slice(0, 2));
    assert.equal(r.kind, 'ambiguous');
    assert.deepEqual(
      (r as { candidates: Array<{ name: string }> }).candidates.map((c) => c.name),
      ['assist__intent__HassTurnOn', 'management__intent__HassTurnOn'],
    );
    assert.equal(resolveToolName('HassTurnOnn', after).kind, 'missing');
  });

  it('globs match the full name or a renamed form, both ways; a prefix with only wildcards after it does not widen', () => {
    assert.ok(globMatchesTool('Hass*', 'intent__HassTurnOn'));
    assert.ok(globMatchesTool('HassTurnOff', 'assist__intent__HassTurnOff'));
    assert.ok(globMatchesTool('intent__HassTurnOn', 'HassTurnOn'));
    assert.ok(globMatchesTool('todo__*', 'todo_get_items'));
    assert.ok(!globMatchesTool('light__*', 'HassTurnOn'));
    assert.ok(!globMatchesTool('intent__Hass*', 'light__HassLightSet'));
    assert.deepEqual(
      filterTools(after as never, ['media_player__*'], ['*Volume*']).map((t) => t.name),
      ['media_player__HassMediaUnpause', 'media_player__HassMediaPause', 'media_player__HassMediaNext', 'media_player__HassMediaSearchAndPlay'],
    );
  });

  it('expected names are missing only when they name no tool in either generation', () => {
    const names = after.map((t) => t.name);
    assert.deepEqual(missingNames(['HassTurnOn', 'todo_get_items', 'GetLiveContext', 'HassUnlock'], names), ['HassUnlock']);
  });

  it('close matches measure each candidate by its closest form', () => {
    assert.deepEqual(
      closeMatches(
        'HassTurnOnn',
        after.map((t) => t.name),
      ).slice(0, 1),
      ['intent__HassTurnOn'],
    );
  });
});
