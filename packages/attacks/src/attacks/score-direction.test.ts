import { seededRandom } from '@mia/core';
import { auc } from '@mia/metrics';
import { describe, expect, it } from 'vitest';
import { concatSignals } from '../signals/concat-signals';
import type { ModelSignals, SplitSignals } from '../signals/model-signals';
import { signalsFromLogits } from '../signals/signals-from-logits';
import type { ShadowAttack } from './attack';
import { featureFlipAttack } from './feature-flip-attack';
import { metricAttack } from './metric-attack';
import type { StatisticName } from './signed-statistic';

const C = 3;
/**
 * Signals where members look like members in every statistic: a larger true-class margin (loss,
 * confidences, entropies, φ, correctness), a smaller input gradient, more correct augmented
 * queries and more correct noisy copies.
 */
function signals(n: number, member: boolean, seed: number): ModelSignals {
  const random = seededRandom(seed);
  const margin = member ? 3 : 0.3;
  const labels = Array.from({ length: n }, () => random.int(C));
  const logits = labels.flatMap((y) => Array.from({ length: C }, (_, j) => random.normal() + (j === y ? margin : 0)));
  const base = signalsFromLogits(logits, labels, C);
  const query = () =>
    signalsFromLogits(
      logits.map((v) => v + random.normal(0, 1.5)),
      labels,
      C,
    );
  const count = () => Float64Array.from({ length: n }, () => Math.round(random.next() * 6 + (member ? 4 : 0)));
  return {
    ...base,
    gradientNorm: Float64Array.from({ length: n }, () => Math.abs(random.normal(member ? 0.5 : 2, 0.5))),
    queries: [query(), query(), query(), query()],
    flipCounts: [count(), count()],
    flips: [1, 2],
  };
}
const split = (seed: number): SplitSignals => ({ members: signals(200, true, seed), nonMembers: signals(200, false, seed + 1) });
const shadow = split(1);
const target = split(3);
const all = concatSignals([target.members, target.nonMembers]);
const isMember = Uint8Array.from({ length: 400 }, (_, i) => (i < 200 ? 1 : 0));

const statistics: StatisticName[] = [
  'correctness',
  'loss',
  'confidence',
  'maxConfidence',
  'entropy',
  'modifiedEntropy',
  'phi',
  'gradientNorm',
  'queryAccuracy',
];
const attacks: [string, () => ShadowAttack][] = [
  ...statistics.map((s): [string, () => ShadowAttack] => [s, () => metricAttack(s)]),
  ['queryAccuracy (sel)', () => metricAttack('queryAccuracy', { mode: 'sel' })],
  ['gradientNorm (global)', () => metricAttack('gradientNorm', { mode: 'global' })],
  ['feature-flip', () => featureFlipAttack()],
];

describe('score direction: members get higher scores', () => {
  for (const [name, make] of attacks) {
    it(name, async () => {
      const attack = make();
      await attack.prepare(shadow);
      const scores = attack.score(all);
      expect(scores).toHaveLength(400);
      expect(auc(scores, isMember)).toBeGreaterThan(0.7);
      const decisions = attack.decide!(all);
      let tp = 0;
      let fp = 0;
      decisions.forEach((d, i) => (isMember[i] === 1 ? (tp += d) : (fp += d)));
      expect(tp / 200).toBeGreaterThan(fp / 200); // the fitted decision rule has a positive advantage
    });
  }
});

describe('likelihoodRatioAttack (CCLr extra)', () => {
  it('fits the Gaussians on the shadow and scores members higher', async () => {
    const { likelihoodRatioAttack } = await import('./likelihood-ratio-attack');
    const attack = likelihoodRatioAttack();
    await attack.prepare(shadow);
    expect(auc(attack.score(all), isMember)).toBeGreaterThan(0.7);
    // Known answer: with φ_in ~ N(1, 1) and φ_out ~ N(−1, 1) fitted exactly, the log ratio at φ is 2φ.
    const two = likelihoodRatioAttack();
    const phiSignals = (phi: number[]): ModelSignals => ({
      ...shadow.members,
      size: phi.length,
      phi: Float64Array.from(phi),
      labels: new Int32Array(phi.length),
    });
    await two.prepare({ members: phiSignals([0, 2]), nonMembers: phiSignals([-2, 0]) }); // means ±1, std 1
    expect(two.score(phiSignals([0.5]))[0]).toBeCloseTo(1, 12);
  });
});
