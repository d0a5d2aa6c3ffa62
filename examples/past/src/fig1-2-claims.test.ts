import { describe, expect, it } from 'vitest';
import { fig12SeedClaims, type ModelNumbers, type SeedNumbers } from './fig1-2-claims';

const model = (topShare: number, nearZero: number, fc: number): ModelNumbers => ({ topShare, parameters: 1e6, nearZero, weights: 1e6, fc, fcSe: 0.01 });
const seed = (trainingSeed: number, top: number, after: [number, number], control: [number, number]): SeedNumbers => ({
  trainingSeed,
  before: model(top, 0.1, 20),
  after: model(0.5, ...after),
  control: model(0.5, ...control),
});

describe('Fig. 1b / 2a / 13a claims: numbers of one model decided over training seeds', () => {
  it('decide over three seeds with the spread of the per-seed values (k − 1 = 2 degrees of freedom)', () => {
    // Top-20 % shares 0.90, 0.92, 0.94: mean 0.92, SE = 0.02/√3 = 0.01155; Δ = 0.12 is 10.4 SE, beyond t₂'s 4.53.
    const seeds = [seed(0, 0.9, [0.3, 10], [0.2, 20]), seed(1, 0.92, [0.31, 11], [0.2, 20]), seed(2, 0.94, [0.32, 12], [0.2, 20])];
    const { top20, nearZero, fc } = fig12SeedClaims(seeds);
    expect(top20.verdict).toBe('holds');
    expect(top20.decision!.se).toBeCloseTo(0.02 / Math.sqrt(3), 10);
    expect(top20.decision!.df).toBeCloseTo(2, 10);
    // Paired per seed: differences 0.10, 0.11, 0.12 (mean 0.11, SE 0.01/√3) and −10, −9, −8 (mean −9, SE 1/√3).
    expect(nearZero.verdict).toBe('holds');
    expect(nearZero.decision!.delta).toBeCloseTo(0.11, 10);
    expect(nearZero.decision!.se).toBeCloseTo(0.01 / Math.sqrt(3), 10);
    expect(nearZero.decision!.seSource).toBe('the spread of the per-seed differences over 3 training seeds');
    expect(fc.verdict).toBe('holds');
    expect(fc.decision!.se).toBeCloseTo(1 / Math.sqrt(3), 10);
  });

  it('are within noise when the seeds disagree, even if each seed alone looks decisive', () => {
    // FC differences −10, +8, −1: mean −1, SE ≈ 5.2.
    const seeds = [seed(0, 0.9, [0.3, 10], [0.2, 20]), seed(1, 0.5, [0.1, 28], [0.2, 20]), seed(2, 0.7, [0.2, 19], [0.2, 20])];
    const { top20, fc } = fig12SeedClaims(seeds);
    expect(fc.verdict).toBe('within noise');
    expect(top20.verdict).toBe('within noise');
  });

  it('are shown, not decided, with one training seed (an SE over the parameters of one model is no sampling error)', () => {
    const { top20, nearZero, fc } = fig12SeedClaims([seed(0, 0.95, [0.3, 10], [0.2, 20])]);
    for (const c of [top20, nearZero, fc]) {
      expect(c.verdict).toBe('not testable');
      expect(c.evidence).toMatch(/shown, not decided/);
    }
    expect(() => fig12SeedClaims([])).toThrow('fig12SeedClaims: seeds must hold at least one training seed, got 0');
  });
});
