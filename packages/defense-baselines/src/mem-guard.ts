import * as tf from '@tensorflow/tfjs-core';
import { ShapeMismatchError, option, optionsSchema } from '@mia/core';
import type { MemGuardAttackModel } from './mem-guard-attack-model';

/** Options of {@link memGuard}. */
export interface MemGuardOptions {
  /** Weight of `|logit_h(z')|`. @default 1 */
  readonly c1?: number;
  /** Weight of the label-preservation hinge. @default 10 */
  readonly c2?: number;
  /** Initial weight of `‖softmax(z') − p‖₁` (> 0), ×10 after each success up to `maxC3`. @default 0.1 */
  readonly c3?: number;
  /** Largest c3 tried. @default 1e5 */
  readonly maxC3?: number;
  /** Normalised-gradient step. @default 0.1 */
  readonly stepSize?: number;
  /** Iterations per c3. @default 300 */
  readonly maxIterations?: number;
}

/** The schema of {@link MemGuardOptions} (validation, defaults, JSON Schema; unknown keys are errors). @see docs/protocol.md §4.15 */
export const memGuardOptionsSchema = optionsSchema({
  c1: option.number({ min: 0, default: 1, description: 'Weight of |logit_h(z′)|.' }),
  c2: option.number({ min: 0, default: 10, description: 'Weight of the label-preservation hinge.' }),
  // > 0: the search multiplies c3 by 10 until maxC3, so c3 = 0 would repeat the same level forever.
  c3: option.number({
    min: 0,
    exclusiveMin: true,
    default: 0.1,
    description: 'Initial weight of ‖softmax(z′) − p‖₁ (> 0), ×10 after each success up to maxC3.',
  }),
  maxC3: option.number({ min: 0, default: 1e5, description: 'Largest c3 tried.' }),
  stepSize: option.number({ min: 0, default: 0.1, description: 'Normalised-gradient step.' }),
  maxIterations: option.integer({ min: 1, default: 300, description: 'Iterations per c3.' }),
});

/** What {@link memGuard} returns; the caller disposes the tensors. */
export interface MemGuardResult {
  /** Perturbed logits `[n, C]`, in the original class order. */
  readonly logits: tf.Tensor2D;
  /** `softmax(logits)`: the posteriors to release. */
  readonly probabilities: tf.Tensor2D;
  /** 1 where a perturbation was found (else the row is unchanged). */
  readonly perturbed: Uint8Array;
}

/**
 * MemGuard (Jia et al. 2019) Phase I, as ported in SEL: for each query, search perturbed logits z'
 * (in the sorted order of the query's logits, label ŷ = top class) by normalised gradient descent on
 * `c1·|logit_h(softmax(z'))| + c2·ReLU(max_{j≠ŷ} z'_j − z'_ŷ) + c3·‖softmax(z') − p‖₁`, stopping a
 * row when its label is unchanged and h's output has crossed 0.5. c3 starts at 0.1 and is ×10 after
 * each success (up to 1e5); the last successful z' is kept, otherwise the original. Rows with
 * `|h(z) − 0.5| ≤ 1e-5` are left unchanged. Phase II (random release under a utility budget) is
 * omitted as in SEL. All rows are searched in parallel.
 *
 * @param logits - `[n, C]` target logits. @param attackModel - the defender's {@link MemGuardAttackModel}.
 * @returns perturbed logits/probabilities; the predicted label of every row is unchanged.
 * @throws ShapeMismatchError when `logits` is not `[n, attackModel.numClasses]`; InvalidArgumentError on bad options.
 * @see docs/protocol.md §4.15, §6 item 31.
 */
export function memGuard(logits: tf.Tensor2D, attackModel: MemGuardAttackModel, options: MemGuardOptions = {}): MemGuardResult {
  if (logits.rank !== 2 || logits.shape[1] !== attackModel.numClasses) {
    throw new ShapeMismatchError(`memGuard: logits must have shape [n, ${attackModel.numClasses}], got [${logits.shape.join(', ')}]`);
  }
  const o = memGuardOptionsSchema.parse(options, 'memGuard');
  const [n, c] = logits.shape;
  // Work in each row's descending order (the attack model reads sorted vectors); ŷ is column 0.
  const rows = logits.arraySync();
  const perm = rows.map((row) => row.map((_, j) => j).sort((a, b) => row[b]! - row[a]! || a - b));
  const sortedValues = rows.map((row, i) => perm[i]!.map((j) => row[j]!));
  const z0 = tf.tensor2d(sortedValues, [n, c]);
  const p0 = tf.softmax(z0);
  const best = sortedValues.map((row) => [...row]);
  const perturbed = new Uint8Array(n);
  const memberSide = tf.tidy(() => tf.sigmoid(attackModel.logitOfSorted(p0)).arraySync()).map((h) => (Math.abs(h - 0.5) <= 1e-5 ? 0 : h > 0.5 ? 1 : -1));
  let active = memberSide.map((side, i) => (side !== 0 ? i : -1)).filter((i) => i >= 0);
  try {
    for (let c3 = o.c3; c3 <= o.maxC3 * (1 + 1e-9) && active.length > 0; c3 *= 10) {
      const found = searchLevel(attackModel, z0, p0, active, memberSide, c3, o);
      for (const [i, row] of found) {
        best[i] = row;
        perturbed[i] = 1;
      }
      active = active.filter((i) => found.has(i));
    }
  } finally {
    z0.dispose();
    p0.dispose();
  }
  const out = best.map((row, i) => {
    const original = new Array<number>(c);
    perm[i]!.forEach((j, k) => (original[j] = row[k]!));
    return original;
  });
  const result = tf.tensor2d(out, [n, c]);
  return { logits: result, probabilities: tf.softmax(result), perturbed };
}

/**
 * One c3 level for the rows `rows` (all starting from their original sorted logits): normalised
 * gradient steps until each row succeeds (label kept, attack output crossed 0.5) or the iterations
 * run out. Only the rows still searching are computed. Returns the successful rows' logits.
 */
function searchLevel(
  attackModel: MemGuardAttackModel,
  z0: tf.Tensor2D,
  p0: tf.Tensor2D,
  rows: readonly number[],
  memberSide: readonly number[],
  c3: number,
  o: Required<MemGuardOptions>,
): Map<number, number[]> {
  const found = new Map<number, number[]>();
  let searching = [...rows];
  let [z, p] = tf.tidy(() => {
    const idx = tf.tensor1d(searching, 'int32');
    return [tf.gather(z0, idx) as tf.Tensor2D, tf.gather(p0, idx) as tf.Tensor2D];
  });
  try {
    for (let it = 0; it < o.maxIterations && searching.length > 0; it++) {
      const target = p;
      const objective = (v: tf.Tensor) => {
        const zv = v as tf.Tensor2D;
        const [m, c] = zv.shape;
        const hLogit = attackModel.logitOfSorted(tf.softmax(zv));
        const top = tf.reshape(tf.slice(zv, [0, 0], [m, 1]), [m]);
        const hinge = tf.relu(tf.sub(tf.max(tf.slice(zv, [0, 1], [m, c - 1]), 1), top));
        const drift = tf.sum(tf.abs(tf.sub(tf.softmax(zv), target)), 1);
        return tf.sum(tf.add(tf.add(tf.mul(tf.abs(hLogit), o.c1), tf.mul(hinge, o.c2)), tf.mul(drift, c3))) as tf.Scalar;
      };
      const next = tf.tidy(() => {
        const g = tf.grad(objective)(z);
        const norm = tf.maximum(tf.sqrt(tf.sum(tf.square(g), 1, true)), 1e-12);
        return tf.sub(z, tf.mul(tf.div(g, norm), o.stepSize)) as tf.Tensor2D;
      });
      z.dispose();
      z = next;
      // Success is judged on what is released: the re-sorted softmax of z' (the gradient used the query's order).
      const [labels, side] = tf.tidy(() => [tf.argMax(z, 1).arraySync() as number[], attackModel.predict(z).arraySync()]);
      const success = searching.map((row, k) => labels[k] === 0 && (memberSide[row]! > 0 ? side[k]! < 0.5 : side[k]! > 0.5));
      if (!success.some(Boolean)) continue;
      const values = z.arraySync();
      success.forEach((ok, k) => ok && found.set(searching[k]!, values[k]!));
      const keep = success.flatMap((ok, k) => (ok ? [] : [k]));
      searching = keep.map((k) => searching[k]!);
      const [zk, pk] = tf.tidy(() => {
        const idx = tf.tensor1d(keep, 'int32');
        return [tf.gather(z, idx) as tf.Tensor2D, tf.gather(p, idx) as tf.Tensor2D];
      });
      z.dispose();
      p.dispose();
      z = zk;
      p = pk;
    }
  } finally {
    z.dispose();
    p.dispose();
  }
  return found;
}
