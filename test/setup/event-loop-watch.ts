// Warns when a test blocks its worker's event loop for long. vitest's worker reports to the runner
// over messages that time out after 60 s; a test that holds the loop that long (a spawnSync of the
// CLI, a long synchronous computation) makes vitest fail the whole run with
// `Timeout calling "onTaskUpdate"`, naming no test. This names it, from 30 s on.
import { expect } from 'vitest';

const WARN_AFTER_MS = 30_000;
let last = Date.now();
const timer = setInterval(() => {
  const now = Date.now();
  if (now - last > WARN_AFTER_MS) {
    const { testPath, currentTestName } = expect.getState();
    process.stderr.write(
      `warning: the event loop of this test worker was blocked for ${((now - last) / 1000).toFixed(1)} s ` +
        `(${testPath ?? 'unknown file'} > ${currentTestName ?? 'a hook'}); vitest fails the run at 60 s: ` +
        'run child processes with spawn, not spawnSync, and yield (setImmediate) inside long synchronous loops\n',
    );
  }
  last = now;
}, 500);
timer.unref();
