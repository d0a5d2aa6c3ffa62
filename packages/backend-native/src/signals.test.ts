import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { describeNative } from './test-utils/native-available';

interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  sent: number;
}

const child = fileURLToPath(new URL('./test-utils/signal-child.ts', import.meta.url));

/** Runs the child (matrix products for `ms` ms); with `storm`, sends it SIGUSR2 every millisecond while it computes. */
function runChild(nodeArgs: string[], threads: number, ms: number, storm: boolean): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [...nodeArgs, '--conditions=@mia/source', '--import', 'tsx', child, String(threads), String(ms)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const killer = setTimeout(() => proc.kill('SIGKILL'), 120_000);
    proc.stdout.on('data', (d: Buffer) => {
      output += String(d);
      if (output.includes('"calls"')) clearInterval(timer);
      if (storm && timer === undefined && output.includes('ready') && !output.includes('"calls"')) {
        timer = setInterval(() => {
          if (proc.exitCode === null && proc.signalCode === null && proc.kill('SIGUSR2')) sent++;
        }, 1);
      }
    });
    proc.stderr.on('data', (d: Buffer) => (output += String(d)));
    proc.on('error', reject);
    proc.on('exit', (code, signal) => {
      clearInterval(timer);
      clearTimeout(killer);
      resolve({ code, signal, output, sent });
    });
  });
}

const lastLine = (run: ChildRun): Record<string, number> => JSON.parse(run.output.trim().split('\n').at(-1)!) as Record<string, number>;

// oneDNN 2.x's JIT f32 GEMM kernels point the stack pointer into the heap while they run, so a
// signal handled on a thread inside one corrupted the heap (a crash at a later free, or SIGSEGV):
// before the addon held signals around its oneDNN calls, both runs below crashed on an AVX-512 CPU.
describeNative('signals during oneDNN calls', () => {
  const profiles = mkdtempSync(join(tmpdir(), 'mia-signals-'));
  afterAll(() => rmSync(profiles, { recursive: true, force: true }));

  it('a process receiving a signal every millisecond while 2 threads compute matrix products finishes with the right numbers', async () => {
    const run = await runChild([], 2, 2000, true);
    expect(run, run.output).toMatchObject({ code: 0, signal: null });
    const { calls, signals } = lastLine(run);
    expect(calls).toBeGreaterThan(100);
    expect(run.sent).toBeGreaterThan(100);
    expect(signals).toBeGreaterThan(0);
  }, 150_000);

  it("under V8's sampling profiler (SIGPROF to the main thread) the products finish", async () => {
    const run = await runChild(['--cpu-prof', `--cpu-prof-dir=${profiles}`], 1, 2000, false);
    expect(run, run.output).toMatchObject({ code: 0, signal: null });
    expect(lastLine(run)['calls']).toBeGreaterThan(100);
    expect(readdirSync(profiles).some((f) => f.endsWith('.cpuprofile'))).toBe(true);
  }, 150_000);
});
