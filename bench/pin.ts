// Pins the benchmark to one core with util-linux `taskset` (children inherit the affinity).
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';

/** The pinned core, set by {@link pinToOneCore}; undefined when not pinned. */
let pinned: number | undefined;

/**
 * Pins every thread of this process to the last core (`taskset -a -p -c`), so that the single-threaded
 * engines, measured in this process and in its children (which inherit the affinity), never migrate
 * between cores. On this 2-vCPU machine an unpinned MLP process ran at about 57 or about 77–85 ms per
 * step (bimodal, for our kernels and the prototype alike); six pinned processes, either core, all ran
 * at 56–58 ms (pinned, the slow mode is rarer but not gone). Returns a sentence for the results header.
 */
export function pinToOneCore(): string {
  const core = cpus().length - 1;
  const r = spawnSync('taskset', ['-a', '-p', '-c', String(core), String(process.pid)], { encoding: 'utf8' });
  if (r.error !== undefined || r.status !== 0) {
    return `Not pinned to a core (\`taskset\` ${r.error ? 'not found' : `failed: ${r.stderr.trim()}`}); single-thread timings may be bimodal.`;
  }
  pinned = core;
  return `Single-threaded engines pinned to core ${core} (\`taskset\`; PyTorch with 2 threads gets all cores).`;
}

/** The command prefix that gives a child all cores again (e.g. PyTorch with 2 threads), or [] when not pinned. */
export function allCores(): string[] {
  return pinned === undefined ? [] : ['taskset', '-c', `0-${cpus().length - 1}`];
}
