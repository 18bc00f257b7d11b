// Every example deployed together (as `npm start` does) with nothing behind it: no Home Assistant
// (HA_URL points at a closed port), no Gemini key, no device. Each inject that a person would press
// fails, and each failure must reach the debug sidebar once, in full: not once per node that saw it
// (the failing node's error, a Catch's debug, the server's retry warning), and not cut short on a
// debug node's status, which Node-RED ends after 32 characters (the failing node's own status
// carries the short reason instead).
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { EXAMPLES_DIR, readExample, startNodeRed, type DebugMessage, type NodeRedProcess } from '../helpers/node-red';

/** The words of an error a sidebar entry carries, whatever shape the entry has. */
function errorText(m: DebugMessage): string | undefined {
  const v = m.value;
  if (m.level !== undefined && typeof v === 'string') return v;
  if (v && typeof v === 'object') {
    if (typeof v.message === 'string' && v.source) return v.message; // a Catch's msg.error
    if (v.error && typeof v.error.message === 'string') return v.error.message; // a whole msg
  }
  return undefined;
}

describe('examples: one failure shows once in the debug sidebar, in full', function () {
  this.timeout(300_000);
  let nr: NodeRedProcess;
  const flows = readdirSync(EXAMPLES_DIR)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => readExample(f.replace(/\.json$/, '')));

  before(async () => {
    nr = await startNodeRed({ env: { HA_URL: 'http://127.0.0.1:1', HA_TOKEN: 'no-home-assistant-here', GEMINI_API_KEY: '' } });
    await nr.deploy(flows);
    await new Promise((r) => setTimeout(r, 3000)); // the flows' own once-injects settle first
  });
  after(async () => {
    await nr?.stop();
  });

  it('each inject that fails shows its error once, and no debug status cuts an error short', async () => {
    const pressed = flows.filter((n) => n.type === 'inject' && !(n as { once?: boolean }).once && (n as { repeat?: string }).repeat === '');
    const repeated: string[] = [];
    let failures = 0;
    for (const inject of pressed) {
      nr.debug.clear();
      await nr.inject(inject.id);
      // Quiet for 1.5 s (a retrying server warns within that), at most 12 s.
      let seen = -1;
      for (let waited = 0; waited < 12_000 && seen !== nr.debug.messages.length; waited += 1500) {
        seen = nr.debug.messages.length;
        await new Promise((r) => setTimeout(r, 1500));
      }
      const texts = nr.debug.messages.map(errorText).filter((t): t is string => !!t);
      failures += texts.length ? 1 : 0;
      // The same failure in two entries: one text holding the other's first words.
      for (let i = 0; i < texts.length; i++)
        for (let j = i + 1; j < texts.length; j++) {
          const [a, b] = [texts[i], texts[j]];
          if (a.includes(b.slice(0, 60)) || b.includes(a.slice(0, 60))) repeated.push(`${inject.name || inject.id}: "${a}" / "${b}"`);
        }
    }
    console.log(`    ${pressed.length} injects pressed, ${failures} failed as they should with nothing behind them`);
    assert.ok(failures >= 5, 'the examples that need a service do fail here');
    assert.deepEqual(repeated, []);
    const cut = [...nr.debug.statuses.entries()].filter(([, s]) => /\.\.\.$/.test(s.text ?? '')).map(([id, s]) => `${id}: ${s.text}`);
    assert.deepEqual(cut, [], 'no debug node shows an error cut short');
  });
});
