import { describe, expect, it } from 'vitest';
import { DEFAULT_ORDERS } from './accountant-options';
import { epsilonFromRdp } from './epsilon-from-rdp';
import { epsilonOf } from './epsilon-of';
import { rdpOf } from './rdp-of';
import { searchEpsilonOf } from './search-epsilon-of';

describe('searchEpsilonOf', () => {
  const opacus = { sampleRate: 0.04, noiseMultiplier: 1.5, steps: 2250 };

  it("one training is that training's ε (Opacus' test value)", () => {
    const spent = searchEpsilonOf({ trainings: [opacus], delta: 1e-5 });
    expect(spent.epsilon).toBeCloseTo(7.32911117143, 7);
    expect(spent).toEqual(epsilonOf({ ...opacus, delta: 1e-5 }));
  });

  it('k identical trainings compose as one training of k times the steps (RDP adds over steps)', () => {
    const five = searchEpsilonOf({ trainings: Array.from({ length: 5 }, () => opacus), delta: 1e-5 });
    expect(five.epsilon).toBeCloseTo(epsilonOf({ ...opacus, steps: 5 * opacus.steps, delta: 1e-5 }).epsilon, 10);
    // More than one training's ε, less than five times it (composition in RDP is sub-linear in ε).
    expect(five.epsilon).toBeGreaterThan(7.33);
    expect(five.epsilon).toBeLessThan(5 * 7.33);
  });

  it('different trainings compose as the sum of their RDP curves', () => {
    const trainings = [opacus, { sampleRate: 0.01, noiseMultiplier: 0.8, steps: 900 }, { sampleRate: 0.2, noiseMultiplier: 3, steps: 100 }];
    const curves = trainings.map((t) => rdpOf({ ...t, orders: DEFAULT_ORDERS }));
    const sum = DEFAULT_ORDERS.map((_, i) => curves.reduce((s, c) => s + c[i]!, 0));
    expect(searchEpsilonOf({ trainings, delta: 1e-5 })).toEqual(epsilonFromRdp({ orders: DEFAULT_ORDERS, rdp: sum, delta: 1e-5 }));
  });

  it('the Gaussian mechanism (q = 1) by hand: ε = min over α of Σ T·α/(2σ²) + log(1/δ)/(α − 1) (classic)', () => {
    // Two full-batch trainings: σ = 10, 4 steps and σ = 20, 8 steps → ρ = 4/200 + 8/800 = 0.03 per unit α.
    const orders = [2, 4, 8, 16, 32, 64, 128];
    const spent = searchEpsilonOf({
      trainings: [
        { sampleRate: 1, noiseMultiplier: 10, steps: 4 },
        { sampleRate: 1, noiseMultiplier: 20, steps: 8 },
      ],
      delta: 1e-5,
      orders,
      conversion: 'classic',
    });
    const byHand = orders.map((a) => 0.03 * a + Math.log(1e5) / (a - 1));
    expect(spent.epsilon).toBeCloseTo(Math.min(...byHand), 10);
    expect(spent.order).toBe(16); // 0.48 + 0.7675 = 1.2475, below α = 8 (1.885) and 32 (1.331)
  });

  it('a training without noise makes the search unbounded', () => {
    expect(searchEpsilonOf({ trainings: [opacus, { ...opacus, noiseMultiplier: 0 }], delta: 1e-5 }).epsilon).toBe(Infinity);
  });

  it('rejects bad inputs naming the argument', () => {
    expect(() => searchEpsilonOf({ trainings: [], delta: 1e-5 })).toThrow(/searchEpsilonOf: trainings must be a list of at least 1/);
    expect(() => searchEpsilonOf({ trainings: [opacus, { ...opacus, noiseMultiplier: -1 }], delta: 1e-5 })).toThrow(
      /searchEpsilonOf: trainings\[1\]\.noiseMultiplier must be a number ≥ 0, got -1/,
    );
    expect(() => searchEpsilonOf({ trainings: [{ ...opacus, steps: 1.5 }], delta: 1e-5 })).toThrow(/trainings\[0\]\.steps must be an integer ≥ 0, got 1.5/);
    expect(() => searchEpsilonOf({ trainings: [opacus], delta: 0 })).toThrow('searchEpsilonOf: delta must be a number in (0, 1), got 0');
  });
});
