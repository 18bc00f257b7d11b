// A free TCP port on 127.0.0.1, for peers that cannot listen on port 0 themselves (server-everything
// only reads PORT) or that must come back on the same port after a restart.
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      if (address === null || typeof address === 'string') {
        probe.close();
        reject(new Error('could not read the probe socket address'));
        return;
      }
      probe.close(() => resolve(address.port));
    });
  });
}
