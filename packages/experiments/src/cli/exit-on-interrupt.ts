import { constants } from 'node:os';

/** The signals that interrupt a command: Ctrl-C, `kill`, a closed terminal. */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** What an interrupted command leaves behind, by command (`mia <name>`); the default for the others. */
const AFTERMATH: Readonly<Record<string, string>> = {
  run: 'finished models are kept in the cache, a rerun resumes from them',
  sweep: 'finished models are kept in the cache, a rerun resumes from them',
  reproduce: 'finished models are kept in the cache, a rerun resumes from them',
  'references export': 'finished models are kept in the cache, a rerun resumes from them',
  attack: 'no audit was printed; it trains nothing, so a rerun starts over',
  gate: 'no decision was made (the exit status is not 0, 1 or 2); rerun it',
  report: 'the reports may be incomplete; rerun `mia report`',
  'datasets fetch': 'the files it finished are kept (each is written whole), a rerun fetches the rest',
  'cache verify': 'not every entry was checked; rerun it',
  'cache prune': 'not everything was pruned; rerun it to finish',
  schema: 'no schema was printed',
};

/** The handle of {@link exitOnInterrupt}. */
export interface InterruptHandlers {
  /** Names the running command (`run`, `attack`, `cache prune`, …), which picks what the message says. */
  setCommand(name: string): void;
  /** Removes the handlers (for a command that handles signals itself). */
  stop(): void;
}

/** Requests that run on libuv's thread pool; `process.exit()` waits for them (internal). */
const POOL_REQUESTS = /^(FSReq|FileHandleCloseReq|GetAddrInfoReqWrap|GetNameInfoReqWrap)/;
const poolBusy = () => process.getActiveResourcesInfo().some((name) => POOL_REQUESTS.test(name));
/** How long a pending file-system request may take to finish before the process ends by the signal itself. */
const GRACE_MS = 250;

/**
 * Makes an interruption end the process within a fraction of a second, with a message that fits
 * the command and the shell's status for it, 128 + the signal number (130 for Ctrl-C, 143 for
 * SIGTERM), so a script never takes an interrupted run for a finished one. Nothing computed is
 * lost: cache entries are published atomically, and the exit handlers remove this process's
 * unfinished writes and claims. The process exits with that status (`pnpm mia` passes it on);
 * but `process.exit()` waits for every request on libuv's thread pool, and one blocked in the
 * kernel (`open()` of a FIFO that never gets a writer) never returns: when a request is still
 * pending after a quarter of a second, the exit handlers run and the signal is raised again with its
 * default action, which ends the process at once (status 128 + n in a shell as well).
 * @param write - Where the message goes. @default process.stderr
 * @returns {@link InterruptHandlers}.
 */
export function exitOnInterrupt(write: (text: string) => void = (text) => process.stderr.write(text)): InterruptHandlers {
  let command: string | undefined;
  let ending = false;
  const endBySignal = (signal: (typeof SIGNALS)[number], code: number) => {
    try {
      process.emit('exit', code);
    } finally {
      // Without a listener, Node restores the signal's default action.
      for (const s of SIGNALS) process.removeAllListeners(s);
      process.kill(process.pid, signal);
    }
  };
  const handler = (signal: (typeof SIGNALS)[number]) => {
    const code = 128 + constants.signals[signal];
    if (ending) return endBySignal(signal, code); // a second signal: at once
    ending = true;
    const aftermath = command === undefined ? undefined : (AFTERMATH[command] ?? 'nothing of it was finished');
    write(`\nmia${command === undefined ? '' : ` ${command}`}: interrupted (${signal})${aftermath === undefined ? '' : `; ${aftermath}`}\n`);
    process.exitCode = code;
    const deadline = Date.now() + GRACE_MS;
    const finish = (): void => {
      if (!poolBusy()) process.exit(code);
      else if (Date.now() < deadline) setTimeout(finish, 10);
      else endBySignal(signal, code);
    };
    finish();
  };
  for (const signal of SIGNALS) process.on(signal, handler);
  return {
    setCommand: (name) => {
      command = name;
    },
    stop: () => {
      for (const signal of SIGNALS) process.off(signal, handler);
    },
  };
}
