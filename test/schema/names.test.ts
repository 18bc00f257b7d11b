// Declared names: the portable rule, stable hash shortening, order-independent collision handling,
// prefixes, and a lossless way back to the MCP name.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileTools, declareNames } from '../../src/schema';
import { ADVERSARIAL_TOOLS } from './adversarial-corpus';

const NAME_RULE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

function inverse(map: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([declared, mcp]) => [mcp, declared]));
}

describe('schema compiler: declared names', function () {
  it('keeps valid names and replaces other characters with underscores', function () {
    const back = inverse(declareNames(['HassTurnOn', 'self.audio_speaker.set_volume', 'tool with spaces', 'ns:tool:colon', 'get-sum']));
    assert.deepEqual(back, {
      HassTurnOn: 'HassTurnOn',
      'self.audio_speaker.set_volume': 'self_audio_speaker_set_volume',
      'tool with spaces': 'tool_with_spaces',
      'ns:tool:colon': 'ns_tool_colon',
      'get-sum': 'get_sum',
    });
  });

  it('puts an underscore before a leading digit', function () {
    assert.deepEqual(declareNames(['3d_printer_status']), { _3d_printer_status: '3d_printer_status' });
  });

  it('shortens long names to 64 characters with a hash of the original, the same every time', function () {
    const long = 't'.repeat(40) + '_' + 'u'.repeat(59);
    const sibling = 't'.repeat(40) + '_' + 'u'.repeat(58) + 'v';
    const first = inverse(declareNames([long, sibling]));
    const again = inverse(declareNames([sibling, long]));
    assert.deepEqual(first, again);
    for (const name of [long, sibling]) {
      assert.equal(first[name].length, 64);
      assert.match(first[name], /^t{40}_u{14}_[0-9a-f]{8}$/);
    }
    assert.notEqual(first[long], first[sibling]);
    // Alone or with others, a long name gets the same declared name.
    assert.equal(inverse(declareNames([long]))[long], first[long]);
  });

  it('resolves collisions after sanitising deterministically: the already-valid name keeps its form', function () {
    const back = inverse(declareNames(['light.turn_on', 'light_turn_on', 'light-turn-on']));
    assert.equal(back.light_turn_on, 'light_turn_on');
    assert.match(back['light.turn_on'], /^light_turn_on_[0-9a-f]{8}$/);
    assert.match(back['light-turn-on'], /^light_turn_on_[0-9a-f]{8}$/);
    assert.equal(new Set(Object.values(back)).size, 3);
    const pair = inverse(declareNames(['cover:open', 'cover/open']));
    assert.equal(new Set(Object.values(pair)).size, 2);
    assert.ok(Object.values(pair).includes('cover_open'), 'one of the pair keeps the plain form');
  });

  it("survives a name that looks exactly like another one's hashed form", function () {
    const hashed = inverse(declareNames(['a.b', 'a_b']))['a.b'];
    const back = inverse(declareNames(['a.b', 'a_b', hashed]));
    assert.equal(new Set(Object.values(back)).size, 3);
    assert.equal(back[hashed], hashed, 'a valid name is never changed when it does not collide on its base');
  });

  it('applies the prefix before the length rule, and sanitises it', function () {
    const back = inverse(declareNames(['HassTurnOn', '9lives', 'x'.repeat(64)], { prefix: 'ha.' }));
    assert.equal(back.HassTurnOn, 'ha_HassTurnOn');
    assert.equal(back['9lives'], 'ha_9lives');
    assert.equal(back['x'.repeat(64)].length, 64);
    assert.match(back['x'.repeat(64)], /^ha_x+_[0-9a-f]{8}$/);
    assert.equal(inverse(declareNames(['a'], { prefix: '1_' })).a, '_1_a');
  });

  it('property: every name set maps to distinct valid names, back to itself, independent of order', function () {
    const nameArb = fc.oneof(
      fc.string({ minLength: 0, maxLength: 120 }),
      fc.stringMatching(/^[a-z0-9._:\- ]{1,80}$/),
      fc.constantFrom('a.b', 'a_b', 'a-b', 'a:b', '1a', '_1a', 'é', '', ' ', '.', '_', 'x'.repeat(100)),
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(nameArb, { maxLength: 30 }),
        fc.option(fc.stringMatching(/^[a-z._]{0,8}$/), { nil: undefined }),
        fc.nat(),
        (names, prefix, seed) => {
          const map = declareNames(names, { prefix });
          assert.equal(Object.keys(map).length, names.length);
          for (const declared of Object.keys(map)) assert.match(declared, NAME_RULE);
          assert.deepEqual(new Set(Object.values(map)), new Set(names));
          // Same set in another order: same map.
          const shuffled = [...names].sort((a, b) => ((a.length * 31 + seed) % 7) - ((b.length * 31 + seed) % 7));
          assert.deepEqual(declareNames(shuffled, { prefix }), map);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('compileTools agrees with declareNames and warns about each renamed tool', function () {
    const names = ADVERSARIAL_TOOLS.map((t) => t.name);
    const { names: compiled, warnings } = compileTools(ADVERSARIAL_TOOLS, 'gemini');
    assert.deepEqual(compiled, declareNames(names));
    const renamed = names.filter((n) => !(n in compiled));
    for (const n of renamed)
      assert.ok(
        warnings.some((w) => w.tool === n && w.path === '$' && /declared as/.test(w.message)),
        n,
      );
    assert.ok(renamed.length >= 8);
  });

  it('declares a duplicated MCP tool once and says so', function () {
    const tool = { name: 'dup', inputSchema: { type: 'object' as const, properties: {} } };
    const { payload, names, warnings } = compileTools([tool, { ...tool, description: 'second' }], 'anthropic');
    assert.equal((payload as unknown[]).length, 1);
    assert.deepEqual(names, { dup: 'dup' });
    assert.ok(warnings.some((w) => /duplicate tool name/.test(w.message)));
  });
});
