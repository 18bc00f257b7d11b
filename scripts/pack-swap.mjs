// One file of the clone swapped for its published form while `npm pack` / `npm publish` runs:
// `--write` (prepack) keeps the clone's copy in .tools/ and writes the published one, `--restore`
// (postpack) puts the clone's back byte for byte. A pack that died in between left the published
// form in place: the next `--write` restores first, so it always starts from the clone's file.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** `file` under `root`, swapped by `publish(text)` (same text: nothing to swap); `kept` names the clone's copy in .tools/. */
export function swapDuringPack(root, file, kept, mode, publish) {
  const target = join(root, file);
  const keptCopy = join(root, '.tools', kept);
  const restore = () => {
    if (!existsSync(keptCopy)) return;
    copyFileSync(keptCopy, target);
    rmSync(keptCopy);
  };
  if (mode === '--restore') return restore();
  if (mode !== '--write') throw new Error(`usage: node scripts/<script> --write | --restore`);
  restore();
  const text = readFileSync(target, 'utf8');
  const out = publish(text);
  if (out === text) return;
  mkdirSync(dirname(keptCopy), { recursive: true });
  copyFileSync(target, keptCopy);
  writeFileSync(target, out);
}
