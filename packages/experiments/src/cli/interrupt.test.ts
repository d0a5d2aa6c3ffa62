import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { miaNodeArgs, repositoryRoot } from '../test-utils/run-mia';

// SIGTERM and Ctrl-C end every command within 2 s, whatever it waits for. The hardest wait: open()
// of a FIFO that never gets a writer, which blocks a thread of libuv's pool in the kernel (and
// `process.exit()` would wait for that thread forever).
const dir = mkdtempSync(join(tmpdir(), 'mia-interrupt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fifo(path: string): string {
  const made = spawnSync('mkfifo', [path]);
  if (made.status !== 0) throw new Error(`mkfifo ${path} failed: ${made.stderr.toString()}`);
  return path;
}

/** Whether a thread of `pid` waits in open() of a FIFO for a writer (Linux: the kernel's wait channel). */
function waitsForWriter(pid: number): boolean {
  const tasks = join('/proc', String(pid), 'task');
  if (!existsSync(tasks)) return false;
  return readdirSync(tasks).some((tid) => {
    try {
      return readFileSync(join(tasks, tid, 'wchan'), 'utf8').trim() === 'wait_for_partner';
    } catch {
      return false;
    }
  });
}

/** Starts `mia <args>`, waits until it is blocked on the FIFO, sends `signal`; resolves with how it ended and how long that took. */
async function interruptWhileBlocked(args: readonly string[], signal: NodeJS.Signals) {
  const child = spawn(process.execPath, miaNodeArgs(...args), {
    cwd: repositoryRoot,
    env: { ...process.env, MIA_CACHE_DIR: join(dir, 'cache') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const closed = new Promise<{ status: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (status, sig) => resolve({ status, signal: sig })),
  );
  const deadline = Date.now() + 120_000;
  while (!waitsForWriter(child.pid!)) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`mia ${args.join(' ')} never blocked on the FIFO: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const sent = Date.now();
  child.kill(signal);
  const watchdog = setTimeout(() => child.kill('SIGKILL'), 10_000);
  const end = await closed;
  clearTimeout(watchdog);
  return { ...end, ms: Date.now() - sent, stdout, stderr };
}

/** Ended by the signal: the shell's status 128 + n, or death by the signal itself (which a shell reports the same way). */
const endedBy = (end: { status: number | null; signal: NodeJS.Signals | null }, signal: 'SIGTERM' | 'SIGINT') =>
  end.signal === signal || end.status === (signal === 'SIGTERM' ? 143 : 130);

describe.skipIf(process.platform !== 'linux')('mia interrupted while blocked on a FIFO', () => {
  it('attack and gate (scores files) end within 2 s of SIGTERM or Ctrl-C, saying that nothing was trained or decided', async () => {
    const scores = fifo(join(dir, 'scores.csv'));
    const attack = await interruptWhileBlocked(['attack', '--scores', scores], 'SIGTERM');
    expect(endedBy(attack, 'SIGTERM'), JSON.stringify(attack)).toBe(true);
    expect(attack.ms).toBeLessThan(2000);
    expect(attack.stderr).toBe('\nmia attack: interrupted (SIGTERM); no audit was printed; it trains nothing, so a rerun starts over\n');
    const gate = await interruptWhileBlocked(['gate', scores, '--max-advantage', '0.1'], 'SIGINT');
    expect(endedBy(gate, 'SIGINT'), JSON.stringify(gate)).toBe(true);
    expect(gate.ms).toBeLessThan(2000);
    expect(gate.stdout).toBe('');
    expect(gate.stderr).toBe('\nmia gate: interrupted (SIGINT); no decision was made (the exit status is not 0, 1 or 2); rerun it\n');
  }, 300_000);

  it('gate and report on a run directory whose results.json is a FIFO, and run on a config that is one', async () => {
    const runDir = join(dir, 'run');
    mkdirSync(runDir);
    fifo(join(runDir, 'results.json'));
    const gate = await interruptWhileBlocked(['gate', runDir, '--max-advantage', '0.1'], 'SIGTERM');
    expect(endedBy(gate, 'SIGTERM'), JSON.stringify(gate)).toBe(true);
    expect(gate.ms).toBeLessThan(2000);
    expect(gate.stderr).not.toContain('models');
    const report = await interruptWhileBlocked(['report', runDir], 'SIGTERM');
    expect(endedBy(report, 'SIGTERM'), JSON.stringify(report)).toBe(true);
    expect(report.ms).toBeLessThan(2000);
    expect(report.stderr).toBe('\nmia report: interrupted (SIGTERM); the reports may be incomplete; rerun `mia report`\n');
    const run = await interruptWhileBlocked(['--backend', 'cpu', '--quiet', 'run', fifo(join(dir, 'config.json'))], 'SIGTERM');
    expect(endedBy(run, 'SIGTERM'), JSON.stringify(run)).toBe(true);
    expect(run.ms).toBeLessThan(2000);
    expect(run.stderr).toContain('mia run: interrupted (SIGTERM); finished models are kept in the cache, a rerun resumes from them');
  }, 300_000);
});
