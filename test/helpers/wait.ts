// Waiting for something a peer or the runtime does, polled, with a message naming what never came.

/** Resolves with the first truthy value of `check` (polled every 10 ms); fails naming `what` after `ms`. */
export function waitFor<T>(check: () => T | undefined | null | false, what: string, ms = 15000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const v = check();
      if (v) return resolve(v);
      if (Date.now() - started > ms) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 10);
    };
    tick();
  });
}

/** Waits until `check` holds; fails naming `what` after `ms`. */
export async function until(what: string, check: () => boolean, ms = 15000): Promise<void> {
  await waitFor(() => check() || undefined, what, ms);
}

/**
 * Resolves with the first attempt that does not throw, tried every 100 ms; after `tries` attempts
 * the last error is thrown. For what a deploy starts after it has answered (Node-RED's deploy
 * returns before its nodes have started).
 */
export async function retrying<T>(attempt: () => Promise<T>, tries = 50): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (i >= tries) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
