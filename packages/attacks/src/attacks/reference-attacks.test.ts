import { seededRandom } from '@mia/core';
import { auc } from '@mia/metrics';
import { describe, expect, it } from 'vitest';
import type { ModelSignals, ReferenceSignals } from '../signals/model-signals';
import { signalsFromPhi } from '../test-utils/setup';
import type { ReferenceAttack } from './attack';
import { liraAttack } from './lira-attack';
import { attackP, attackR } from './reference-percentile-attacks';
import { rmiaAttack } from './rmia-attack';
import { rmiaPairwiseScores } from './rmia-scores';

/**
 * Synthetic Gaussian signals with a known membership effect: point i has a difficulty μ_i ~ N(0, 1);
 * a model that trained on it sees φ = μ_i + effect + N(0, 0.3²), otherwise μ_i + N(0, 0.3²).
 * References come in complementary pairs; the target trains on a random half.
 */
function world(effect: number, n = 400, numReferences = 8, seed = 1) {
  const random = seededRandom(seed);
  const mu = Float64Array.from({ length: n }, () => random.normal());
  const modelPhi = (keep: Uint8Array) => signalsFromPhi(Array.from(mu, (m, i) => m + effect * keep[i]! + random.normal(0, 0.3)));
  const keep: Uint8Array[] = [];
  for (let p = 0; p < numReferences / 2; p++) {
    const half = Uint8Array.from({ length: n }, () => (random.next() < 0.5 ? 1 : 0));
    keep.push(
      half,
      half.map((v) => 1 - v),
    );
  }
  const isMember = Uint8Array.from({ length: n }, () => (random.next() < 0.5 ? 1 : 0));
  const references: ReferenceSignals = { models: keep.map(modelPhi), keep };
  return { references, target: modelPhi(isMember), isMember };
}

const attacks: [string, () => ReferenceAttack][] = [
  ['lira online, fixed variance', () => liraAttack()],
  ['lira online, per-example variance', () => liraAttack({ fixVariance: false })],
  ['lira offline, code form', () => liraAttack({ mode: 'offline' })],
  ['lira offline, one-sided', () => liraAttack({ mode: 'offline', offlineForm: 'one-sided' })],
  ['rmia offline, tuned a', () => rmiaAttack()],
  ['rmia online, trimmed mean, γ = 2', () => rmiaAttack({ mode: 'online', trim: 0.2, gamma: 2 })],
  ['attack-r', () => attackR()],
];

describe('reference attacks on synthetic Gaussian signals', () => {
  for (const [label, make] of attacks) {
    it(`${label}: AUC > 0.9 with a large effect, ≈ 0.5 without, members score higher`, async () => {
      const strong = world(3);
      const a = make();
      await a.prepare(strong.references);
      const scores = a.score(strong.target);
      expect(scores).toHaveLength(400);
      const strongAuc = auc(scores, strong.isMember);
      // The two-sided offline code form also flags points far *below* μ_out, but members dominate.
      expect(strongAuc).toBeGreaterThan(label.includes('code form') ? 0.85 : 0.9);
      const none = world(0, 400, 8, 2);
      const b = make();
      await b.prepare(none.references);
      expect(Math.abs(auc(b.score(none.target), none.isMember) - 0.5)).toBeLessThan(0.08);
    });
  }

  it('attack-p: only target losses, members score higher', async () => {
    const { references, target, isMember } = world(3);
    const a = attackP();
    await a.prepare(references);
    expect(auc(a.score(target), isMember)).toBeGreaterThan(0.75); // μ_i noise is not calibrated away
  });

  it('rmia tunes a on the paired model and reports it', async () => {
    const a = rmiaAttack();
    await a.prepare(world(3).references);
    expect(a.chosenA).toBeGreaterThanOrEqual(0);
    expect(a.chosenA).toBeLessThanOrEqual(1);
  });

  it('lira rejects points without OUT references and mismatched targets', async () => {
    const only: ReferenceSignals = { models: [signalsFromPhi([0, 1])], keep: [[1, 1]] };
    await expect(liraAttack().prepare(only)).rejects.toThrow(/no OUT reference/);
    const a = liraAttack({ mode: 'offline' });
    await a.prepare({ models: [signalsFromPhi([0, 1])], keep: [[0, 0]] });
    expect(() => a.score(signalsFromPhi([0, 1, 2]))).toThrow(/must cover the 2 audit examples/);
    await expect(a.prepare({ models: [signalsFromPhi([0, 1])], keep: [[0]] })).rejects.toThrow(/keep\[0\] must have 2 entries/);
  });
});

describe('rmiaPairwiseScores', () => {
  it('counts z with r(x)/r(z) > γ, excluding x itself (known answer, positive ratios)', () => {
    // r = [1, 2, 4, 8], population = all, γ = 1: x=8 beats 1,2,4 → 3/3; x=1 beats none → 0.
    const out = rmiaPairwiseScores([Float64Array.from([1, 2, 4, 8])], Int32Array.from([0, 1, 2, 3]), 1);
    expect([...out]).toEqual([0, 1 / 3, 2 / 3, 1]);
    // γ = 2: x=8 beats r(z) < 4 → {1, 2} → 2/3; x=4: r(z) < 2 → {1} → 1/3.
    const g2 = rmiaPairwiseScores([Float64Array.from([1, 2, 4, 8])], Int32Array.from([0, 1, 2, 3]), 2);
    expect([...g2]).toEqual([0, 0, 1 / 3, 2 / 3]);
  });

  it('majority vote over queries equals the single-query result when queries agree', () => {
    const r = Float64Array.from([1, 2, 4, 8]);
    const pop = Int32Array.from([0, 1, 2, 3]);
    expect([...rmiaPairwiseScores([r, r, r], pop, 1)]).toEqual([...rmiaPairwiseScores([r], pop, 1)]);
  });
});

describe('score direction of LiRA with augmented queries', () => {
  it('averages over queries', async () => {
    const { references, target, isMember } = world(3, 200);
    const withQueries = (s: ModelSignals): ModelSignals => ({ ...s, queries: [s, s] });
    const a = liraAttack();
    await a.prepare({ models: references.models.map(withQueries), keep: references.keep });
    const single = liraAttack();
    await single.prepare(references);
    const two = a.score(withQueries(target));
    const one = single.score(target);
    two.forEach((v, i) => expect(v).toBeCloseTo(one[i]!, 9));
    expect(auc(two, isMember)).toBeGreaterThan(0.9);
  });
});

describe('rmiaProbability', () => {
  it('Taylor soft-margin signal: known answer and the exp limit', async () => {
    const { rmiaProbability } = await import('./rmia-signal');
    const { signalsFromLogits } = await import('../signals/signals-from-logits');
    const s = signalsFromLogits([0, 0, 1, 3], [0, 1], 2);
    // T = 2, n = 4, m = 0.6, z = [0, 0], y = 0: s_y = taylor(−0.6) = 1 − .6 + .18 − .036 = .544, s_1 = 1.
    expect(rmiaProbability(s, { taylor: {} })[0]).toBeCloseTo(0.544 / 1.544, 12);
    // With many terms taylor → exp, so Pr → softmax of (z/T with margin m on the true class).
    const limit = rmiaProbability(s, { taylor: { temperature: 1, order: 40, margin: 0 } });
    expect(limit[1]).toBeCloseTo(Math.exp(3) / (Math.exp(1) + Math.exp(3)), 10);
    expect([...rmiaProbability(s, 'softmax')]).toEqual([...s.trueProbability]);
    expect(() => rmiaProbability(signalsFromPhi([0]), { taylor: {} })).toThrow(/needs logits/);
  });
});

describe('Attack-R / Attack-P known answers', () => {
  it('attack-r interpolates the target loss in [0, OUT losses…, 1000] ↦ linspace(0, 1, K+2)', async () => {
    const { signalsFromLosses } = await import('../signals/signals-from-losses');
    const ref = (l: number[]) => signalsFromLosses(l, [0, 0], 2);
    const a = attackR();
    // OUT losses 1 and 3 → grid [0, 1, 3, 1000] ↦ [0, 1/3, 2/3, 1]; the third model is IN for both points (ignored).
    await a.prepare({
      models: [ref([1, 1]), ref([3, 3]), ref([0.01, 0.01])],
      keep: [
        [0, 0],
        [0, 0],
        [1, 1],
      ],
    });
    const scores = a.score(ref([2, 0.5]));
    expect(scores[0]).toBeCloseTo(-(1 / 3 + 0.5 / 3), 9); // 2 is halfway between 1 and 3
    expect(scores[1]).toBeCloseTo(-(0.5 / 3), 9); // 0.5 is halfway between 0 and 1
  });

  it('attack-p is minus the fraction of other population points with a lower loss', async () => {
    const { signalsFromLosses } = await import('../signals/signals-from-losses');
    const target = signalsFromLosses([0.1, 0.5, 0.3, 0.9], [0, 0, 0, 0], 2);
    const scores = attackP().score(target);
    [0, -2 / 3, -1 / 3, -1].forEach((v, i) => expect(scores[i]).toBeCloseTo(v, 9));
    const subset = attackP({ population: [1, 3] }).score(target); // x = 0.9 vs {0.5}: 1 of 1
    expect(subset[3]).toBeCloseTo(-1, 12);
    expect(subset[2]).toBeCloseTo(0, 12); // 0.3 vs {0.5, 0.9}: none lower
  });
});

describe('LiRA known answers', () => {
  // One point; IN φ = {2, 4} (μ_in = 3, σ_in = 1), OUT φ = {0, 2} (μ_out = 1, σ_out = 1); target φ = 3.
  const references: ReferenceSignals = { models: [2, 4, 0, 2].map((p) => signalsFromPhi([p])), keep: [[1], [1], [0], [0]] };
  const cases: [string, () => ReferenceAttack, number][] = [
    ['online: log N(3; 3, 1) − log N(3; 1, 1) = 2', () => liraAttack({ fixVariance: false }), 2],
    ['online, fixed variance (σ = std of all IN = 1)', () => liraAttack(), 2],
    ['offline code form: −log N(3; 1, 1) = 2 + ½ ln 2π', () => liraAttack({ mode: 'offline', fixVariance: false }), 2 + 0.5 * Math.log(2 * Math.PI)],
    ['offline one-sided: Φ(2)', () => liraAttack({ mode: 'offline', offlineForm: 'one-sided', fixVariance: false }), 0.9772498680518208],
  ];
  for (const [label, make, expected] of cases) {
    it(label, async () => {
      const a = make();
      await a.prepare(references);
      expect(a.score(signalsFromPhi([3]))[0]).toBeCloseTo(expected, 6);
    });
  }
});

describe('RMIA offline known answers', () => {
  // Pr(x|θ_T) = [.9, .5, .2]; one OUT reference with Pr = [.8, .3, .1]; Pr(x) = ½((1+a)·Pr_OUT + 1 − a).
  // φ = logit(p) makes the (loss-only) signals' p_y exactly p.
  const fromProbability = (p: number[]) => signalsFromPhi(p.map((v) => Math.log(v / (1 - v))));
  const target = fromProbability([0.9, 0.5, 0.2]);
  const references: ReferenceSignals = { models: [fromProbability([0.8, 0.3, 0.1])], keep: [[0, 0, 0]] };
  it('a = 1: r = Pr_T/Pr_OUT = [1.125, 1.667, 2] → scores [0, ½, 1]', async () => {
    const a = rmiaAttack({ a: 1 });
    await a.prepare(references);
    [0, 0.5, 1].forEach((v, i) => expect(a.score(target)[i]).toBeCloseTo(v, 12));
  });
  it('a = 0: Pr(x) = ½(Pr_OUT + 1), r = [1, .769, .364] → scores [1, ½, 0]', async () => {
    const a = rmiaAttack({ a: 0 });
    await a.prepare(references);
    [1, 0.5, 0].forEach((v, i) => expect(a.score(target)[i]).toBeCloseTo(v, 12));
  });
});
