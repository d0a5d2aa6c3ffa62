import { seededRandom } from '@mia/core';
import { describe, expect, it } from 'vitest';
import { signalsFromLogits } from '../signals/signals-from-logits';
import { rmiaAttack } from './rmia-attack';
import { rmiaPairwiseScores } from './rmia-scores';
import { rmiaProbability } from './rmia-signal';

/** The authors' pairwise test written out: `mean_z 1[r(x)/r(z) > γ]` over z ≠ x, O(n·|Z|). */
function naiveScores(r: Float64Array, population: Int32Array, gamma: number): Float64Array {
  return Float64Array.from(r, (rx, i) => {
    let [count, size] = [0, 0];
    for (const z of population) {
      if (z === i) continue;
      size++;
      if (rx / r[z]! > gamma) count++;
    }
    return size > 0 ? count / size : 0;
  });
}

/** Ratios of every sign: negatives, ±0, positives, repeated values, occasionally ±∞ and NaN. */
function signedRatios(seed: number | string, n: number): Float64Array {
  const random = seededRandom(seed);
  const pool = [0, -0, 1, -1, 2, -2, Infinity, -Infinity, NaN];
  return Float64Array.from({ length: n }, () => {
    const u = random.next();
    if (u < 0.15) return pool[random.int(pool.length)]!;
    return random.normal(0, 2) * (u < 0.3 ? 1e-3 : 1);
  });
}

describe('rmiaPairwiseScores with signals of any sign', () => {
  it('equals the pairwise test r(x)/r(z) > γ with negative and zero ratios (known answer)', () => {
    // r = [−2, −1, 0, 1, 2], γ = 1, every point in the population, x never against itself:
    //   x = −2: −2/−1 = 2 > 1 only → 1/4      x = −1: −1/−2 = ½, −1/0 = −∞, … → 0
    //   x = 0:  0/z is ±0 → 0                 x = 1:  1/0 = +∞ only → 1/4
    //   x = 2:  2/0 = +∞ and 2/1 = 2 → 2/4
    // (Counting r(z) < r(x)/γ instead would give [0, 1/4, 2/4, 3/4, 3/4].)
    const r = Float64Array.from([-2, -1, 0, 1, 2]);
    const population = Int32Array.from([0, 1, 2, 3, 4]);
    expect([...rmiaPairwiseScores([r], population, 1)]).toEqual([1 / 4, 0, 0, 1 / 4, 2 / 4]);
  });

  it('a −0 ratio divides into −∞: it never counts for a positive r(x)', () => {
    const r = Float64Array.from([3, -0, 0]);
    // x = 3: 3/−0 = −∞ (no), 3/0 = +∞ (yes) → ½.
    expect(rmiaPairwiseScores([r], Int32Array.from([0, 1, 2]), 2)[0]).toBe(0.5);
  });

  for (const gamma of [0.5, 1, 2]) {
    it(`matches the naive O(n·|Z|) loop on random signed ratios, γ = ${gamma}`, () => {
      for (const seed of [1, 2, 3]) {
        const r = signedRatios(`${seed}-${gamma}`, 300);
        const random = seededRandom(seed);
        // A population with repeats and points outside it.
        const population = Int32Array.from({ length: 200 }, () => random.int(300));
        expect([...rmiaPairwiseScores([r], population, gamma)]).toEqual([...naiveScores(r, population, gamma)]);
        const all = Int32Array.from({ length: 300 }, (_, i) => i);
        expect([...rmiaPairwiseScores([r], all, gamma)]).toEqual([...naiveScores(r, all, gamma)]);
      }
    });
  }

  it('the one-query and several-query paths agree (identical queries vote as one)', () => {
    const r = signedRatios(7, 250);
    const population = Int32Array.from({ length: 250 }, (_, i) => i);
    const one = [...rmiaPairwiseScores([r], population, 2)];
    expect([...rmiaPairwiseScores([r, r, r], population, 2)]).toEqual(one);
    expect([...rmiaPairwiseScores([r, r], population, 2)]).toEqual(one);
  });
});

describe('rmiaAttack with the soft-margin Taylor signal when it is negative', () => {
  it('scores equal the naive pairwise test on Pr(x|θ_T)/Pr(x)', async () => {
    // T = 2, n = 4, m = 0.6: a wrong-class logit −6 gives taylor(−3) = 1 − 3 + 4.5 − 4.5 = −2 < 0,
    // so Pr = s_y/(s_y − 2) is negative or > 1 for many examples.
    const random = seededRandom(11);
    const n = 60;
    const logits = () => Array.from({ length: 2 * n }, (_, j) => (j % 2 === 1 && random.next() < 0.6 ? -6 : random.normal(0, 3)));
    const labels = new Array(n).fill(0);
    const reference = signalsFromLogits(logits(), labels, 2);
    const target = signalsFromLogits(logits(), labels, 2);
    const signal = { taylor: {} };
    const pTarget = rmiaProbability(target, signal);
    const pRef = rmiaProbability(reference, signal);
    expect(pTarget.some((p) => p < 0)).toBe(true);
    // Offline, a = 1: Pr(x) = Pr_OUT(x), the one OUT reference's signal.
    const attack = rmiaAttack({ a: 1, signal, gamma: 2 });
    await attack.prepare({ models: [reference], keep: [new Array(n).fill(0)] });
    const ratios = pTarget.map((p, i) => p / pRef[i]!);
    const all = Int32Array.from({ length: n }, (_, i) => i);
    expect([...attack.score(target)]).toEqual([...naiveScores(ratios, all, 2)]);
  });
});
