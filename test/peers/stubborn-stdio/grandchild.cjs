// The leak the stdio hygiene test hunts: a grandchild of an `sh -c` wrapper that ignores SIGTERM
// (and never reads stdin, so closing the pipe does not end it either). Only SIGKILL, or a kill of
// its whole process group with escalation, gets rid of it. Plain CommonJS: no loader, starts fast.
'use strict';
const { appendFileSync } = require('node:fs');

const pidFile = process.env.STUBBORN_PID_FILE;
process.on('SIGTERM', () => {
  if (pidFile) appendFileSync(pidFile, `grandchild-ignored-sigterm ${process.pid}\n`);
});
// Keep the event loop alive forever.
setInterval(() => undefined, 60 * 60 * 1000);
if (pidFile) appendFileSync(pidFile, `grandchild ${process.pid}\n`);
