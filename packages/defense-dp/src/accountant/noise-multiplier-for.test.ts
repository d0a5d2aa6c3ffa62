import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MECHANISM, TARGETS } from '../test-utils/bounded-calls';
import { DEFAULT_ORDERS } from './accountant-options';
import { epsilonOf } from './epsilon-of';
import { noiseMultiplierFor } from './noise-multiplier-for';
import { smallestCertifiableEpsilon } from './smallest-certifiable-epsilon';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The floor of Opacus' grid at δ = 1e-5: −(log δ + log 63)/62 + log(62/63), by hand (and Python). */
const FLOOR = 0.10286725121127971;

describe('noiseMultiplierFor', () => {
  it("reproduces Opacus' get_noise_multiplier test values", () => {
    // Opacus opacus/tests/accountants_test.py test_get_noise_multiplier_rdp_epochs: ε = 8, δ = 1e-5,
    // q = 0.04, 90 epochs = int(90 / 0.04) = 2250 steps → 1.416 (places=4).
    expect(noiseMultiplierFor({ targetEpsilon: 8, sampleRate: 0.04, steps: 2250, delta: 1e-5 })).toBeCloseTo(1.416, 4);
    // test_get_noise_multiplier_rdp_steps: the same with 2000 steps → 1.3562 (places=4).
    expect(noiseMultiplierFor({ targetEpsilon: 8, sampleRate: 0.04, steps: 2000, delta: 1e-5 })).toBeCloseTo(1.3562, 4);
  });

  it('never overshoots the target, and lands within the tolerance below it', () => {
    // Opacus test_get_noise_multiplier_overshoot (a hypothesis property over ε ∈ [1, 10], 10–100
    // epochs, q ∈ {1e-4 … 0.1}, δ ∈ {1e-4, 1e-5, 1e-6}); here a fixed sample of that space.
    for (const [targetEpsilon, epochs, sampleRate, delta] of [
      [1, 10, 0.1, 1e-4],
      [3.7, 40, 0.01, 1e-5],
      [10, 100, 0.05, 1e-6],
      [2.2, 25, 0.002, 1e-5],
    ] as const) {
      const steps = Math.trunc(epochs / sampleRate);
      const sigma = noiseMultiplierFor({ targetEpsilon, sampleRate, steps, delta });
      const { epsilon } = epsilonOf({ sampleRate, noiseMultiplier: sigma, steps, delta });
      expect(epsilon).toBeLessThan(targetEpsilon);
      expect(epsilon).toBeGreaterThanOrEqual(targetEpsilon - 0.01);
    }
  });

  it('honours the conversion and a custom tolerance', () => {
    const base = { targetEpsilon: 8, sampleRate: 0.04, steps: 2250, delta: 1e-5 };
    // The classic conversion is looser, so it needs more noise for the same ε.
    expect(noiseMultiplierFor({ ...base, conversion: 'classic' })).toBeGreaterThan(noiseMultiplierFor(base));
    const coarse = noiseMultiplierFor({ ...base, epsilonTolerance: 1 });
    const { epsilon } = epsilonOf({ sampleRate: 0.04, steps: 2250, delta: 1e-5, noiseMultiplier: coarse });
    expect(epsilon).toBeGreaterThanOrEqual(7);
    expect(epsilon).toBeLessThan(8);
  });

  it('says when the budget cannot be reached, and rejects bad inputs', () => {
    expect(() => noiseMultiplierFor({ targetEpsilon: 0.2, sampleRate: 1, steps: 1e13, delta: 1e-5 })).toThrow(
      /noiseMultiplierFor: targetEpsilon must be reachable with a noise multiplier ≤ 1000000 \(the privacy budget is too low\), got 0.2/,
    );
    expect(() => noiseMultiplierFor({ targetEpsilon: 0, sampleRate: 0.1, steps: 10, delta: 1e-5 })).toThrow(
      'noiseMultiplierFor: targetEpsilon must be a number > 0, got 0',
    );
    // No example sampled or no step: ε is 0 for every σ, so there is nothing to search (this looped forever).
    expect(() => noiseMultiplierFor({ targetEpsilon: 1, sampleRate: 0, steps: 10, delta: 1e-5 })).toThrow(
      'noiseMultiplierFor: sampleRate must be a number in (0, 1], got 0',
    );
    expect(() => noiseMultiplierFor({ targetEpsilon: 1, sampleRate: 0.1, steps: 0, delta: 1e-5 })).toThrow(
      'noiseMultiplierFor: steps must be an integer ≥ 1, got 0',
    );
  });

  it('refuses a target at or below the smallest ε the orders certify, naming it and what to change', () => {
    // The reported case: ε(σ) stays above FLOOR (order 63) until the KL bound makes it 0 at σ ≈ 28 822.
    expect(smallestCertifiableEpsilon({ delta: 1e-5 }).epsilon).toBe(FLOOR);
    expect(() => noiseMultiplierFor({ ...MECHANISM, targetEpsilon: 0.1 })).toThrow(
      'noiseMultiplierFor: targetEpsilon must be above 0.102867, the smallest ε > 0 that RDP orders up to 63 certify at delta 0.00001 (improved conversion, at order 63) however much noise is added, got 0.1; raise targetEpsilon or delta, or add larger orders (128, 256, 512, 1024 lower it to 0.00350141)',
    );
    expect(() => noiseMultiplierFor({ ...MECHANISM, targetEpsilon: FLOOR })).toThrow(/targetEpsilon must be above 0\.102867,/);
    // The classic conversion's floor is −log δ / 62 = 0.185692 (hand calculation).
    expect(() => noiseMultiplierFor({ ...MECHANISM, targetEpsilon: 0.15, conversion: 'classic' })).toThrow(
      /must be above 0\.185692, .*\(classic conversion, at order 63\)/,
    );
    // The suggested remedy works: with the orders up to 1024, ε = 0.1 is reached at a usable σ.
    const orders = [...DEFAULT_ORDERS, 128, 256, 512, 1024];
    const sigma = noiseMultiplierFor({ ...MECHANISM, targetEpsilon: 0.1, orders });
    const { epsilon } = epsilonOf({ ...MECHANISM, noiseMultiplier: sigma, orders });
    expect(epsilon).toBeLessThan(0.1);
    expect(epsilon).toBeGreaterThanOrEqual(0.09);
    expect(sigma).toBeLessThan(20);
  });

  it('names the jump when a target lies between the floor and the ε where the KL bound takes over', () => {
    // At q = 0.05, T = 60 the ε just below the jump is FLOOR + 5.7e-9: a target in that gap has no σ within the tolerance.
    expect(() => noiseMultiplierFor({ ...MECHANISM, targetEpsilon: 0.102867254 })).toThrow(
      /targetEpsilon must be above 0\.1028672\d+, the smallest ε > 0 the orders certify for these steps and q \(ε jumps from it at σ = 28822\.1 to 0 at σ = 28822\.1, where the KL bound applies\), got 0\.102867254/,
    );
  });

  it('stops the bisection at a tolerance finer than doubles resolve, or a target no σ in reach comes near', () => {
    expect(() => noiseMultiplierFor({ ...MECHANISM, targetEpsilon: 1, epsilonTolerance: 1e-300 })).toThrow(
      /noiseMultiplierFor: epsilonTolerance must be coarser than the search can resolve, got 1e-300 \(after \d+ halvings σ ∈ \[1\.94\d*, 1\.94\d*\] gives ε/,
    );
    expect(() => noiseMultiplierFor({ ...MECHANISM, targetEpsilon: 1e300 })).toThrow(
      /noiseMultiplierFor: targetEpsilon must be at most [\d.e+]+, the ε at σ = 1\.57\d*e-29 where the search stops \(100 halvings\), got 1e\+300; so large a target needs no noise/,
    );
  });

  it('returns or throws within a second for every target in (0.01, 0.2) (run in a child process: a hang fails here)', async () => {
    const fixture = join(packageRoot, 'src', 'test-utils', 'bounded-calls.ts');
    const run = promisify(execFile)(process.execPath, ['--conditions=@mia/source', '--import', 'tsx', fixture], { cwd: packageRoot, timeout: 90_000 });
    const { stdout } = await run.catch((error: { killed?: boolean; stdout?: string; stderr?: string }) => {
      throw new Error(
        `bounded-calls did not finish (${error.killed === true ? 'killed after 90 s: a call hangs' : 'failed'}):\n${error.stdout ?? ''}${error.stderr ?? ''}`,
      );
    });
    const results = new Map(
      stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { name: string; ms: number; value?: unknown; error?: string })
        .map((r) => [r.name, r]),
    );
    expect(results.size).toBe(TARGETS.length + 2);
    for (const r of results.values()) expect(r.ms, r.name).toBeLessThan(1000);
    for (const t of TARGETS) {
      const r = results.get(`noiseMultiplierFor ${t}`)!;
      if (t <= FLOOR) expect(r.error, r.name).toMatch(/^noiseMultiplierFor: targetEpsilon must be above 0\.102867, the smallest ε > 0/);
      else if (t === 0.102867254) expect(r.error, r.name).toMatch(/ε jumps from it at σ = 28822\.1 to 0/);
      else {
        const { epsilon } = epsilonOf({ ...MECHANISM, noiseMultiplier: r.value as number });
        expect(epsilon, r.name).toBeLessThan(t);
        expect(epsilon, r.name).toBeGreaterThanOrEqual(t - 0.01);
      }
    }
    // A σ whose 1/σ² overflows is no noise (ε = ∞), not a series of ∞ − ∞ terms that never ends.
    expect(results.get('rdpOf σ=1e-200')!.value).toEqual(['Infinity', 'Infinity']);
    expect(results.get('logAFractional σ=NaN')!.error).toBe(
      'RDP accountant: term 0 of the series of log A_α is NaN at q = 0.3, σ = NaN, α = 1.5 (outside what double precision resolves)',
    );
  }, 120_000);
});
