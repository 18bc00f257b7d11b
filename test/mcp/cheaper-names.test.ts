// The bundles' name helper (scripts/cheaper-names.mjs): what esbuild renamed keeps its own name, as
// with esbuild's helper, and only the bare arrow closures go unnamed. Bundled here by esbuild itself,
// with keepNames, from two ES modules whose top-level names collide, so esbuild has to rename one of them.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';

const first = `
class ApiError extends Error { constructor(m) { super(m); this.name = this.constructor.name; } }
function describe() { return 'first'; }
export { ApiError, describe };
`;
const second = `
class ApiError extends Error { constructor(m) { super(m); this.name = this.constructor.name; } }
const Wrapped = class extends Error {};
function describe() { return 'second'; }
function withClosures(send) {
  const onProgress = (p) => send(p);
  const onTask = async (t) => send(t);
  const legacy = function (x) { return x; };
  return { onProgress, onTask, legacy, handlers: { onAbort: () => send('abort') } };
}
export { ApiError, Wrapped, describe, withClosures };
`;

describe('bundle name helper', function () {
  let dir: string;
  let cheaperNames: (code: string, file: string) => string;
  before(async () => {
    ({ cheaperNames } = await import('../../scripts/cheaper-names.mjs'));
    dir = mkdtempSync(join(tmpdir(), 'cheaper-names-'));
    writeFileSync(join(dir, 'first.mjs'), first);
    writeFileSync(join(dir, 'second.mjs'), second);
    writeFileSync(join(dir, 'entry.mjs'), `import * as first from './first.mjs';\nimport * as second from './second.mjs';\nexport { first, second };\n`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function bundled(name: string, cheaper: boolean) {
    const outfile = join(dir, name);
    await esbuild.build({
      entryPoints: [join(dir, 'entry.mjs')],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      keepNames: true,
      minifySyntax: true,
      logLevel: 'warning',
    });
    const code = readFileSync(outfile, 'utf8');
    assert.match(code, /ApiError2/, 'esbuild renamed one of the two classes');
    if (cheaper) writeFileSync(outfile, cheaperNames(code, outfile));
    return require(outfile);
  }

  it('keeps the names esbuild renamed, as its own helper does, and leaves only bare arrows unnamed', async () => {
    const plain = await bundled('plain.cjs', false);
    const cheap = await bundled('cheap.cjs', true);
    for (const b of [plain, cheap]) {
      assert.equal(new b.first.ApiError('x').name, 'ApiError');
      assert.equal(new b.second.ApiError('x').name, 'ApiError', 'the renamed class still says ApiError');
      assert.equal(b.second.ApiError.name, 'ApiError');
      assert.equal(b.second.Wrapped.name, 'Wrapped');
      assert.equal(b.second.describe.name, 'describe', 'the renamed function still says describe');
      assert.equal(b.second.describe(), 'second');
    }
    const seen: unknown[] = [];
    const named = plain.second.withClosures((v: unknown) => seen.push(v));
    const unnamed = cheap.second.withClosures((v: unknown) => seen.push(v));
    assert.deepEqual([named.onProgress.name, named.onTask.name, named.legacy.name, named.handlers.onAbort.name], ['onProgress', 'onTask', 'legacy', 'onAbort']);
    assert.deepEqual([unnamed.onProgress.name, unnamed.onTask.name, unnamed.legacy.name, unnamed.handlers.onAbort.name], ['', '', 'legacy', '']);
    unnamed.onProgress(1);
    await unnamed.onTask(2);
    unnamed.handlers.onAbort();
    assert.deepEqual(seen, [1, 2, 'abort'], 'the closures work as before');
  });

  it("refuses a bundle without esbuild's helper, so a changed esbuild cannot slip past the build", () => {
    assert.throws(() => cheaperNames('var x = 1;', 'x.js'), /expected esbuild's __name helper once, found it 0 times/);
  });
});
