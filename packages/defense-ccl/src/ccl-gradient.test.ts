import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { seededRandom } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { concaveTerm, exponentialConcave, quadraticConcave, type ConcaveTerm } from './concave-term';
import { convexConcaveLoss } from './convex-concave-loss';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const n = 16;
const numClasses = 7;

function randomBatch(seed: number) {
  const r = seededRandom(seed);
  const logits = Array.from({ length: n * numClasses }, () => 3 * r.normal());
  const labels = Array.from({ length: n }, () => r.int(numClasses));
  return { logits, labels };
}

function softmaxRow(z: number[]): number[] {
  const m = Math.max(...z);
  const e = z.map((v) => Math.exp(v - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
}

// f'(p) of each built-in term, for the closed form.
const derivatives: Record<string, (p: number) => number> = {
  exponential: (p) => -Math.exp(p),
  quadratic: (p) => -1 - p,
  custom: (p) => -1.5 * Math.sqrt(p),
};
const custom = concaveTerm((p) => tf.neg(tf.pow(p, 1.5)));
const terms: [string, ConcaveTerm][] = [
  ['exponential', exponentialConcave],
  ['quadratic', quadraticConcave],
  ['custom', custom],
];

describe('CCL gradient vs the closed form (CCL Eq. 10–11)', () => {
  for (const [name, term] of terms) {
    for (const alpha of [0.1, 0.5, 0.9]) {
      it(`${name}, α = ${alpha}, β = 0.05: ∂L/∂z = β/n·[α − (1−α)·p_y·f'(p_y)]·(p − e_y)`, () => {
        const { logits, labels } = randomBatch(alpha * 100 + name.length);
        const z = tf.tensor2d(logits, [n, numClasses]);
        const y = tf.tensor1d(labels, 'int32');
        const g = tf.grad((l: tf.Tensor) => convexConcaveLoss(l, y, { alpha, concave: term, scale: 0.05 }))(z);
        const got = g.dataSync();
        for (let i = 0; i < n; i++) {
          const p = softmaxRow(logits.slice(i * numClasses, (i + 1) * numClasses));
          const py = p[labels[i]!]!;
          const coef = alpha - (1 - alpha) * py * derivatives[name]!(py);
          for (let j = 0; j < numClasses; j++) {
            const ce = p[j]! - (j === labels[i] ? 1 : 0);
            expect(got[i * numClasses + j]!).toBeCloseTo((0.05 / n) * coef * ce, 6);
          }
        }
        tf.dispose([z, y, g]);
      });
    }
  }
});

describe('CCL Proposition 4.2 bounds on random inputs', () => {
  for (const [name, term] of terms) {
    it(`${name}: α·∂CE ≤ ∂CCL ≤ [α + A(1−α)]·∂CE in magnitude, same sign (A = −f'(1) = ${term.slopeAtOne.toFixed(4)})`, () => {
      for (const alpha of [0.2, 0.5, 0.8]) {
        const { logits, labels } = randomBatch(7 + alpha * 10);
        const z = tf.tensor2d(logits, [n, numClasses]);
        const y = tf.tensor1d(labels, 'int32');
        const gCcl = tf.grad((l: tf.Tensor) => convexConcaveLoss(l, y, { alpha, concave: term }))(z);
        const gCe = tf.grad((l: tf.Tensor) => convexConcaveLoss(l, y, { alpha: 1 }))(z);
        const a = gCcl.dataSync();
        const b = gCe.dataSync();
        const upper = alpha + term.slopeAtOne * (1 - alpha);
        for (let k = 0; k < a.length; k++) {
          expect(Math.sign(a[k]!) * Math.sign(b[k]!)).not.toBe(-1);
          expect(Math.abs(a[k]!)).toBeGreaterThanOrEqual(alpha * Math.abs(b[k]!) * (1 - 1e-5) - 1e-9);
          expect(Math.abs(a[k]!)).toBeLessThanOrEqual(upper * Math.abs(b[k]!) * (1 + 1e-5) + 1e-9);
        }
        tf.dispose([z, y, gCcl, gCe]);
      }
    });
  }
  it('A is e for CCEL and 2 for CCQL (−f′(1))', () => {
    expect(exponentialConcave.slopeAtOne).toBeCloseTo(Math.E, 10);
    expect(quadraticConcave.slopeAtOne).toBe(2);
    expect(custom.slopeAtOne).toBeCloseTo(1.5, 5);
  });
});
