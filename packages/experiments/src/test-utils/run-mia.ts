import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** The repository root (tests run the CLI from it, as `pnpm mia …` does). */
export const repositoryRoot = join(__dirname, '..', '..', '..', '..');

/** The node arguments that run the `mia` CLI from its TypeScript sources (node + tsx, as `pnpm mia` does). */
export const miaNodeArgs = (...rest: string[]): string[] => [
  '--conditions=@mia/source',
  '--import',
  'tsx',
  join(repositoryRoot, 'packages/experiments/src/cli/main.ts'),
  ...rest,
];

/** What {@link runMia} returns: the fields of `spawnSync`'s result that the tests read. */
export interface MiaRun {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link runMia}. */
export interface RunMiaOptions {
  /** Extra environment variables, on top of the test process's. */
  readonly env?: Record<string, string>;
  /** Working directory. @default the repository root */
  readonly cwd?: string;
  /** The child is killed with SIGKILL after this long (ms). @default 300000 */
  readonly timeout?: number;
}

/**
 * Runs `mia <args>` in a child process and resolves when it exits, like `spawnSync` but without
 * blocking the test worker's event loop. (A `spawnSync` that runs for longer than a minute blocks
 * vitest's worker-to-runner messages, and vitest then fails the whole run with
 * `Timeout calling "onTaskUpdate"` although every test passed.)
 */
export function runMia(args: readonly string[], options: RunMiaOptions = {}): Promise<MiaRun> {
  const { env = {}, cwd = repositoryRoot, timeout = 300_000 } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, miaNodeArgs(...args), { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    });
  });
}
