// Advice that many nodes of one deploy would each log (every example endpoint closed until the
// tab's MCP_TOKEN is set, every voice listener until DEVICE_TOKEN is) is logged once per deploy,
// naming every node it concerns: one line to act on, not one per example.
import type { RED } from './red-types';

interface Pending {
  who: string[];
  write: (who: string[]) => void;
}

const pending = new Map<string, Pending>();
let timer: NodeJS.Timeout | undefined;

function flush(): void {
  clearTimeout(timer);
  timer = undefined;
  for (const { who, write } of pending.values()) write(who);
  pending.clear();
}

/**
 * Collects `who` under `key` and writes the advice once the deploy has started its flows (or after
 * two seconds, where no such event comes): `write` gets every `who` collected under that key.
 */
export function adviseOncePerDeploy(RED: RED, key: string, who: string, write: (who: string[]) => void): void {
  const entry = pending.get(key) ?? { who: [], write };
  if (!entry.who.includes(who)) entry.who.push(who);
  pending.set(key, entry);
  if (timer) return;
  RED.events?.once?.('flows:started', flush);
  timer = setTimeout(() => {
    RED.events?.removeListener?.('flows:started', flush);
    flush();
  }, 2000);
  timer.unref?.();
}
