// For a spec run on its own (`npx mocha test/…`) rather than through `npm test`: brings the
// .tools/ folders (test/tools.json) the same way npm test's first step does. Quick once they exist.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export function ensureTestTools(): void {
  execFileSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'test-tools.mjs')], { stdio: 'inherit', timeout: 600_000 });
}
