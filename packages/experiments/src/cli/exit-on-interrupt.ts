import { constants } from 'node:os';

/** The signals that interrupt a command: Ctrl-C, `kill`, a closed terminal. */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Makes an interruption end the process with a message and the shell's code for it, 128 + the
 * signal number (130 for Ctrl-C), so a script never takes an interrupted run for a finished one.
 * Nothing computed is lost: cache entries are published atomically, and the exit handlers remove
 * this process's unfinished writes and claims.
 * @param write - Where the message goes. @default process.stderr
 * @returns a function that removes the handlers (for a command that handles signals itself).
 */
export function exitOnInterrupt(write: (text: string) => void = (text) => process.stderr.write(text)): () => void {
  const handler = (signal: (typeof SIGNALS)[number]) => {
    write(`\nmia: interrupted (${signal}); finished models are kept in the cache, a rerun resumes from them\n`);
    process.exit(128 + constants.signals[signal]);
  };
  for (const signal of SIGNALS) process.on(signal, handler);
  return () => {
    for (const signal of SIGNALS) process.off(signal, handler);
  };
}
