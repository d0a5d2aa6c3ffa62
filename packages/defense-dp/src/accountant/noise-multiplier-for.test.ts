import { describe, expect, it } from 'vitest';
import { epsilonOf } from './epsilon-of';
import { noiseMultiplierFor } from './noise-multiplier-for';

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
    expect(() => noiseMultiplierFor({ targetEpsilon: 0.001, sampleRate: 1, steps: 1e13, delta: 1e-5 })).toThrow(
      /noiseMultiplierFor: targetEpsilon must be reachable with a noise multiplier ≤ 1000000 \(the privacy budget is too low\), got 0.001/,
    );
    expect(() => noiseMultiplierFor({ targetEpsilon: 0, sampleRate: 0.1, steps: 10, delta: 1e-5 })).toThrow(
      'noiseMultiplierFor: targetEpsilon must be a number > 0, got 0',
    );
  });
});
