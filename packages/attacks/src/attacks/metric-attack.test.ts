import { MiaError } from '@mia/core';
import { describe, expect, it } from 'vitest';
import type { ModelSignals, SplitSignals } from '../signals/model-signals';
import { concatSignals } from '../signals/concat-signals';
import { metricAttack } from './metric-attack';
import type { StatisticName } from './signed-statistic';

/**
 * Signals whose "lower = member" statistics (loss, entropy, m-entropy) all equal `low` and whose
 * "higher = member" statistics (p_y, max p) equal `1 − low`, so every threshold attack sees the
 * same ordering.
 */
function fixture(low: number[], labels: number[], correct: number[] = low.map(() => 1)): ModelSignals {
  const l = Float64Array.from(low);
  const h = l.map((v) => 1 - v);
  return {
    size: l.length,
    numClasses: 2,
    labels: Int32Array.from(labels),
    loss: l,
    entropy: l,
    modifiedEntropy: l,
    trueProbability: h,
    maxProbability: h,
    phi: h,
    correct: Uint8Array.from(correct),
  };
}

// Shadow data (fixed small input):
//   class 0: members low = [0.1, 0.2, 0.5], non-members [0.4, 0.9]
//   class 1: members [0.3],                 non-members [0.3, 1.0]
const shadow: SplitSignals = { members: fixture([0.1, 0.2, 0.5, 0.3], [0, 0, 0, 1]), nonMembers: fixture([0.4, 0.9, 0.3, 1.0], [0, 0, 1, 1]) };
// Target: members [0.15 (c0), 0.3 (c0), 0.25 (c1)], non-members [0.5 (c0), 0.2 (c1)].
const target: SplitSignals = { members: fixture([0.15, 0.3, 0.25], [0, 0, 1], [1, 1, 0]), nonMembers: fixture([0.5, 0.2], [0, 1], [1, 0]) };
const targetAll = concatSignals([target.members, target.nonMembers]);

describe('metricAttack, Song & Mittal per-class thresholds', () => {
  // Derivation for the signed loss score s = −low, class 0: tr = [−.1, −.2, −.5], te = [−.4, −.9],
  // candidates in concat order: −.1 → ½(1/3 + 2/2) = .667; −.2 → ½(2/3 + 1) = .833 (best);
  // −.5 → ½(1 + 1/2) = .75; −.4 → ½(2/3 + 1/2); −.9 → .5. So thr_0 = −0.2.
  // Class 1: tr = [−.3], te = [−.3, −1]: −.3 → ½(1 + 1/2) = .75 (best); −1 → .5. So thr_1 = −0.3.
  // Global: −.2 → ½(2/4 + 4/4) = .75 first; later .75 ties do not replace it. So global = −0.2.
  // Target decisions: members −.15 ≥ −.2 ✓, −.3 < −.2 ✗, −.25 ≥ −.3 ✓ → TPR 2/3;
  // non-members −.5 < −.2 (TN), −.2 ≥ −.3 (FP) → FPR 1/2. Accuracy ½(2/3 + 1/2) = 7/12.
  const lowerIsMember: StatisticName[] = ['loss', 'entropy', 'modifiedEntropy'];
  const higherIsMember: StatisticName[] = ['confidence', 'maxConfidence'];

  for (const statistic of [...lowerIsMember, ...higherIsMember]) {
    it(`${statistic}: thresholds and target accuracy`, async () => {
      const attack = metricAttack(statistic, { minClassExamples: 1 });
      await attack.prepare(shadow);
      // Signed score: −low for loss-like statistics, 1 − low for the confidences.
      const expected = (low: number) => (lowerIsMember.includes(statistic) ? -low : 1 - low);
      expect(attack.thresholds![0]).toBeCloseTo(expected(0.2), 12);
      expect(attack.thresholds![1]).toBeCloseTo(expected(0.3), 12);
      expect(attack.globalThreshold).toBeCloseTo(expected(0.2), 12);
      const decisions = attack.decide!(targetAll);
      expect([...decisions]).toEqual([1, 0, 1, 0, 1]);
      const scores = attack.score(targetAll);
      expect(scores[0]).toBeGreaterThan(scores[1]!); // lower loss = higher score
    });
  }

  it('correctness: member iff correctly classified, accuracy ½(acc_train + 1 − acc_test)', async () => {
    const attack = metricAttack('correctness');
    await attack.prepare(shadow);
    // members correct [1, 1, 0], non-members [1, 0] → ½(2/3 + 1 − 1/2) = 7/12
    const d = attack.decide!(targetAll);
    expect([...d]).toEqual([1, 1, 0, 1, 0]);
  });

  it("'global' mode: one threshold for every class (global fit −0.2 from the derivation above)", async () => {
    const attack = metricAttack('loss', { mode: 'global' });
    await attack.prepare(shadow);
    expect([...attack.thresholds!].map((t) => t.toFixed(12))).toEqual(['-0.200000000000', '-0.200000000000']);
    // Target: −.15 ✓, −.3 ✗, −.25 ✗ (members); −.5 TN, −.2 FP (≥ −.2).
    expect([...attack.decide!(targetAll)]).toEqual([1, 0, 0, 0, 1]);
  });

  it('falls back to the global threshold for a class missing from the shadow non-members (A5)', async () => {
    const attack = metricAttack('loss', { minClassExamples: 1 });
    await attack.prepare({ members: fixture([0.1, 0.3], [0, 1]), nonMembers: fixture([0.9, 0.8], [0, 0]) });
    expect(attack.fallbackClasses).toEqual([1]);
    expect(attack.thresholds![1]).toBe(attack.globalThreshold);
  });
});

describe('metricAttack, small classes', () => {
  // Class 0: 12 members at low = 0.1 and 12 non-members at 0.9 (per-class threshold −0.1).
  // Class 1 (rare, 3 + 3): members at 0.95, non-members at 0.97 — alone it gets threshold −0.95.
  // Global (all 30): −0.1 → ½(12/15 + 15/15) = 0.9 (best; −0.95 → ½(1 + 3/15) = 0.6), and SEL's raw
  // count agrees (−0.1 → 12 + 15 = 27 vs −0.95 → 15 + 3).
  const rep = (v: number, n: number) => Array.from({ length: n }, () => v);
  const rare: SplitSignals = {
    members: fixture([...rep(0.1, 12), ...rep(0.95, 3)], [...rep(0, 12), ...rep(1, 3)]),
    nonMembers: fixture([...rep(0.9, 12), ...rep(0.97, 3)], [...rep(0, 12), ...rep(1, 3)]),
  };
  for (const mode of ['song-mittal', 'sel'] as const) {
    it(`${mode}: a class with fewer than 10 shadow examples per side uses the global threshold, and says so`, async () => {
      const attack = metricAttack('loss', { mode });
      await attack.prepare(rare);
      expect(attack.fallbackClasses).toEqual([1]);
      expect(attack.globalThreshold).toBeCloseTo(-0.1, 12);
      expect(attack.thresholds![1]).toBe(attack.globalThreshold);
      expect(attack.thresholds![0]).toBeCloseTo(-0.1, 12);
      expect(attack.report!(targetAll, Uint8Array.from([1, 1, 1, 0, 0])).classesOnGlobalThreshold).toBe(1);
      // With the minimum lowered to 3 the rare class keeps its own fit (−0.95).
      const own = metricAttack('loss', { mode, minClassExamples: 3 });
      await own.prepare(rare);
      expect(own.fallbackClasses).toEqual([]);
      expect(own.thresholds![1]).toBeCloseTo(-0.95, 12);
      expect(own.report!(targetAll, Uint8Array.from([1, 1, 1, 0, 0])).classesOnGlobalThreshold).toBe(0);
    });
  }
  it('rejects a minClassExamples that is not a positive integer', () => {
    expect(() => metricAttack('loss', { minClassExamples: 0 })).toThrow(/metricAttack: minClassExamples must be a positive integer, got 0/);
  });
});

describe('metricAttack, SEL variant', () => {
  // SEL search on class 0 (raw count #{tr ≥ v} + #{te < v}, candidates ascending, strict >):
  // −.9 → 3; −.5 → 3 + 1 = 4 (best); −.4 → 2 + 1; −.2 → 2 + 2 = 4 (tie, not taken); −.1 → 3.
  // So SEL picks thr_0 = −0.5 where Song & Mittal picks −0.2.
  it('uses raw counts and the smallest maximiser', async () => {
    const attack = metricAttack('loss', { mode: 'sel', minClassExamples: 1 });
    await attack.prepare(shadow);
    expect(attack.thresholds![0]).toBeCloseTo(-0.5, 12);
    // class 1: −1 → 1 + 0; −.3 → 1 + 1 = 2 (best)
    expect(attack.thresholds![1]).toBeCloseTo(-0.3, 12);
    const extra = attack.report!(targetAll, Uint8Array.from([1, 1, 1, 0, 0]));
    // class thresholds on the target: members all ≥ (3 TP), −.5 ≥ −.5 (FP), −.2 ≥ −.3 (FP): 3/5 plain.
    expect(extra.selClassAccuracy).toBeCloseTo(3 / 5, 12);
    expect(extra.selAccuracyOptimistic).toBeGreaterThanOrEqual(extra.selClassAccuracy!);
  });
});

describe('metricAttack errors', () => {
  it('needs prepare, the required signals, and non-empty shadow sets', async () => {
    const attack = metricAttack('entropy');
    expect(() => attack.decide!(targetAll)).toThrow(/call prepare/);
    const lossOnly: ModelSignals = { ...targetAll, entropy: undefined };
    await attack.prepare(shadow);
    expect(() => attack.score(lossOnly)).toThrow(/no entropy/);
    const empty = fixture([], []);
    await expect(attack.prepare({ members: empty, nonMembers: shadow.nonMembers })).rejects.toThrow(/non-empty/);
    const nan = fixture([NaN, 0.1], [0, 1]);
    await expect(attack.prepare({ members: nan, nonMembers: shadow.nonMembers })).rejects.toSatisfy((e) => MiaError.isInstance(e));
    expect(() => metricAttack('loss', { mode: 'bogus' as never })).toThrow(/mode must be/);
  });
});
