import { BackendError } from '@mia/core';
import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { loadNativeAddon } from './load-native-addon';
import { DEFAULT_SPIN_COUNT, useOpenMpDefaults } from './openmp-environment';
import { setupNative } from './test-utils/backends';
import { describeNative } from './test-utils/native-available';
import { parseProcStat, resolveAdaptive, setThreadGovernor, ThreadGovernor, threadsFor, type CpuReading } from './thread-governor';
import { useNativeTraining } from './use-native-training';

const reading = (machineBusy: number, ownCpu: number, wall: number): CpuReading => ({ machineBusy, ownCpu, wall });

describe('parseProcStat', () => {
  it('sums user, nice, system, irq, softirq and steal ticks (not idle, iowait or guest) into seconds', () => {
    const text = 'cpu  1000 200 300 90000 50 10 20 30 400 0\ncpu0 500 100 150 45000 25 5 10 15 200 0\nintr 1 2 3\n';
    expect(parseProcStat(text)).toBeCloseTo((1000 + 200 + 300 + 10 + 20 + 30) / 100, 10);
  });

  it('accepts the short cpu line of old kernels', () => {
    expect(parseProcStat('cpu 100 0 100 5000\n')).toBeCloseTo(2, 10);
  });

  it('rejects a file that does not start with the aggregate cpu line, quoting what it found', () => {
    expect(() => parseProcStat('intr 1 2 3\ncpu 1 2 3 4\n')).toThrow(
      '/proc/stat: expected a first line "cpu <user> <nice> <system> <idle> …", got "intr 1 2 3"',
    );
    expect(() => parseProcStat('cpu 1 2\n')).toThrow('expected a first line');
    expect(() => parseProcStat('cpu 1 x 3 4\n')).toThrow('/proc/stat: expected non-negative tick counts on the cpu line, got "cpu 1 x 3 4"');
    expect(() => parseProcStat('')).toThrow('/proc/stat');
  });
});

describe('threadsFor', () => {
  it('keeps every thread when only this process was busy', () => {
    // 2 s of wall, the machine busy 4 core-seconds, all of them this process's.
    expect(threadsFor(2, 2, reading(10, 3, 100), reading(14, 7, 102))).toBe(2);
  });

  it('drops a thread per core that other processes kept busy, never below one', () => {
    // Others: (4 − 2) / 2 s = 1 core.
    expect(threadsFor(2, 2, reading(10, 3, 100), reading(14, 5, 102))).toBe(1);
    // Others: 2 cores of 2.
    expect(threadsFor(2, 2, reading(10, 3, 100), reading(14, 3, 102))).toBe(1);
    // 8 cores: others 3.5 cores → 3 busy → 5 threads of 6; others 3.8 → 4 busy (from 0.7 of a core) → 4.
    expect(threadsFor(6, 8, reading(0, 0, 0), reading(9, 2, 2))).toBe(5);
    expect(threadsFor(6, 8, reading(0, 0, 0), reading(9.6, 2, 2))).toBe(4);
  });

  it('counts a core as busy from 0.7 of it', () => {
    expect(threadsFor(2, 2, reading(0, 0, 0), reading(1.3, 0, 2))).toBe(2); // 0.65 core
    expect(threadsFor(2, 2, reading(0, 0, 0), reading(1.5, 0, 2))).toBe(1); // 0.75 core
  });

  it('never goes above the configured count, and keeps it when no time has passed', () => {
    expect(threadsFor(1, 8, reading(0, 0, 0), reading(0, 0, 1))).toBe(1);
    expect(threadsFor(2, 2, reading(0, 0, 5), reading(9, 0, 5))).toBe(2);
  });
});

describe('ThreadGovernor', () => {
  /** A machine whose other processes keep `others()` cores busy; this process uses none. */
  function fakeMachine(others: () => number): { read: () => CpuReading; advance: (s: number) => void } {
    let wall = 0;
    let busy = 0;
    return {
      read: () => reading(busy, 0, wall),
      advance(s) {
        busy += others() * s;
        wall += s;
      },
    };
  }

  it('lowers the threads while other processes hold a core and raises them back when it is free', () => {
    let others = 0;
    const machine = fakeMachine(() => others);
    const applied: number[] = [];
    const governor = new ThreadGovernor(2, (n) => applied.push(n), { cores: 2, reader: machine.read });
    const tick = (): void => governor.tick(machine.read().wall * 1e3);
    tick(); // first reading
    machine.advance(1.5);
    tick();
    expect(governor.threads).toBe(2);
    others = 1;
    machine.advance(1.5);
    tick();
    expect(governor.threads).toBe(1);
    others = 0;
    machine.advance(1.5);
    tick();
    expect(governor.threads).toBe(2);
    expect(applied).toEqual([1, 2]);
  });

  it('reads the machine at most once per interval', () => {
    let reads = 0;
    const machine = fakeMachine(() => 2);
    const governor = new ThreadGovernor(2, () => {}, {
      cores: 2,
      intervalMs: 1000,
      reader: () => {
        reads++;
        return machine.read();
      },
    });
    governor.tick(0);
    for (let t = 100; t < 1000; t += 100) governor.tick(t);
    expect(reads).toBe(1);
    machine.advance(1);
    governor.tick(1000);
    expect(reads).toBe(2);
    expect(governor.threads).toBe(1);
  });

  it('does nothing with one thread, or where the machine cannot be read', () => {
    let reads = 0;
    const one = new ThreadGovernor(1, () => expect.fail('applied'), { reader: () => (reads++, reading(0, 0, 0)) });
    one.tick(0);
    one.tick(5000);
    expect(reads).toBe(0);
    const blind = new ThreadGovernor(2, () => expect.fail('applied'), { reader: () => (reads++, undefined) });
    blind.tick(0);
    blind.tick(5000);
    expect(reads).toBe(1);
    expect(blind.threads).toBe(2);
  });
});

describe('resolveAdaptive', () => {
  it('takes the option, then MIA_ADAPTIVE_THREADS, else false', () => {
    expect(resolveAdaptive(false, { MIA_ADAPTIVE_THREADS: '1' })).toBe(false);
    expect(resolveAdaptive(undefined, { MIA_ADAPTIVE_THREADS: '0' })).toBe(false);
    expect(resolveAdaptive(undefined, { MIA_ADAPTIVE_THREADS: 'false' })).toBe(false);
    expect(resolveAdaptive(undefined, { MIA_ADAPTIVE_THREADS: 'true' })).toBe(true);
    expect(resolveAdaptive(true, {})).toBe(true);
    expect(resolveAdaptive(undefined, { MIA_ADAPTIVE_THREADS: '' })).toBe(false);
    expect(resolveAdaptive(undefined, {})).toBe(false);
  });

  it('rejects another value of MIA_ADAPTIVE_THREADS, naming it and the value', () => {
    expect(() => resolveAdaptive(undefined, { MIA_ADAPTIVE_THREADS: 'yes' })).toThrow(BackendError);
    expect(() => resolveAdaptive(undefined, { MIA_ADAPTIVE_THREADS: 'yes' })).toThrow('MIA_ADAPTIVE_THREADS must be 0, 1, true or false, got "yes"');
  });
});

describe('useOpenMpDefaults', () => {
  it('sets a short spin when the user chose no OpenMP waiting, and leaves a choice alone', () => {
    const env: NodeJS.ProcessEnv = {};
    expect(useOpenMpDefaults(env)).toBe(true);
    expect(env['GOMP_SPINCOUNT']).toBe(String(DEFAULT_SPIN_COUNT));
    for (const chosen of [{ GOMP_SPINCOUNT: '300000' }, { OMP_WAIT_POLICY: 'ACTIVE' }]) {
      const mine: NodeJS.ProcessEnv = { ...chosen };
      expect(useOpenMpDefaults(mine)).toBe(false);
      expect(mine).toEqual(chosen);
    }
  });
});

describeNative('the governor on the native kernels', () => {
  it('the loader set the OpenMP defaults before the runtime loaded, unless the environment chose', async () => {
    const chosen = { spin: process.env['GOMP_SPINCOUNT'], policy: process.env['OMP_WAIT_POLICY'] };
    await setupNative();
    if (chosen.spin === undefined && chosen.policy === undefined) expect(process.env['GOMP_SPINCOUNT']).toBe(String(DEFAULT_SPIN_COUNT));
    else expect(process.env['GOMP_SPINCOUNT']).toBe(chosen.spin);
  });

  it("sets the addon's threads from the kernels that run, and useNativeTraining validates adaptiveThreads", async () => {
    await setupNative();
    const addon = loadNativeAddon();
    // The kernels tick the governor with the real clock, which skips a reading less than intervalMs
    // after the last one's wall time: the fake readings' wall times are kept in the past (a fresh
    // process's clock starts near 0).
    let wall = performance.now() / 1e3 - 100;
    let busy = 0;
    const governor = new ThreadGovernor(2, (n) => addon.setNumThreads(n), { cores: 2, intervalMs: 0, reader: () => reading(busy, 0, wall) });
    setThreadGovernor(governor);
    try {
      const x = tf.ones([64, 64]);
      tf.dispose(tf.add(x, x)); // first reading
      wall += 1;
      busy += 2; // other processes held both cores
      tf.dispose(tf.add(x, x));
      expect(addon.getNumThreads()).toBe(1);
      wall += 1;
      tf.dispose(tf.add(x, x));
      expect(addon.getNumThreads()).toBe(2);
      x.dispose();
    } finally {
      setThreadGovernor(undefined);
      addon.setNumThreads(2);
    }
    await expect(useNativeTraining({ adaptiveThreads: 'yes' as unknown as boolean })).rejects.toThrow(/options\.adaptiveThreads must be a boolean, got "yes"/);
  });
});
