import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '@mia/core';

/**
 * A concave term `f(p_y)` of CCL: a function in the set 𝓕 of CCL Definition 4.1
 * (`f' < 0` and `f'' < 0` on [0, 1]), applied elementwise to the true-class probability.
 */
export interface ConcaveTerm {
  /** Name for logs and error messages. */
  readonly name: string;
  /** Elementwise `f(p)` as a differentiable tfjs expression. */
  readonly value: (p: tf.Tensor) => tf.Tensor;
  /** `A = −f'(1) > 0`, the constant of CCL Proposition 4.2 (gradient upper bound). */
  readonly slopeAtOne: number;
}

/** Concave exponential term `f(p) = −exp(p)` (CCEL). @see CCL Eq. 5; `A = e`. */
export const exponentialConcave: ConcaveTerm = {
  name: 'exponential',
  value: (p) => tf.neg(tf.exp(p)),
  slopeAtOne: Math.E,
};

/** Concave quadratic term `f(p) = −p − p²/2` (CCQL). @see CCL Eq. 6; `A = 2`. */
export const quadraticConcave: ConcaveTerm = {
  name: 'quadratic',
  value: (p) => tf.neg(tf.add(p, tf.mul(tf.square(p), 0.5))),
  slopeAtOne: 2,
};

/** Options of {@link concaveTerm}. */
export interface ConcaveTermOptions {
  /** Name for logs and error messages. @default 'custom' */
  readonly name?: string;
  /** Number of grid intervals on [0, 1] for the numerical check. @default 200 */
  readonly gridSize?: number;
}

/**
 * Wraps a user function as a {@link ConcaveTerm} after checking numerically, on a uniform grid of
 * [0, 1], that it is finite, strictly decreasing (every first difference < 0) and concave (every
 * second difference ≤ a float32 round-off tolerance), i.e. that it belongs to CCL's set 𝓕
 * (Definition 4.1). `A = −f'(1)` comes from `tf.grad` at 1.
 *
 * @param f - elementwise tfjs function of the true-class probability (must be differentiable).
 * @returns the validated term.
 * @throws InvalidArgumentError when `f` is not finite, not decreasing or not concave on the grid.
 * @see CCL Definition 4.1, Eq. 4.
 */
export function concaveTerm(f: (p: tf.Tensor) => tf.Tensor, options: ConcaveTermOptions = {}): ConcaveTerm {
  const name = options.name ?? 'custom';
  const n = options.gridSize ?? 200;
  if (typeof f !== 'function') throw new InvalidArgumentError(`concaveTerm: f must be a function, got ${typeof f}`);
  if (!Number.isInteger(n) || n < 4) throw new InvalidArgumentError(`concaveTerm: gridSize must be an integer ≥ 4, got ${n}`);
  const values = tf.tidy(() => {
    const grid = tf.linspace(0, 1, n + 1);
    const out = f(grid);
    if (out.size !== n + 1) throw new InvalidArgumentError(`concaveTerm: f must map a tensor elementwise (${n + 1} values in), got ${out.size} values out`);
    return out.dataSync().slice() as Float32Array;
  });
  const h = 1 / n;
  const scale = Math.max(1, ...Array.from(values, Math.abs));
  const tolerance = 64 * 1.2e-7 * scale;
  for (let i = 0; i <= n; i++) {
    if (!Number.isFinite(values[i]!))
      throw new InvalidArgumentError(`concaveTerm: f (${name}) must be finite on [0, 1], got ${values[i]} at p = ${(i * h).toFixed(4)}`);
  }
  for (let i = 0; i < n; i++) {
    if (!(values[i + 1]! < values[i]!)) {
      throw new InvalidArgumentError(
        `concaveTerm: f (${name}) must be strictly decreasing on [0, 1], got f(${(i * h).toFixed(4)}) = ${values[i]} ≤ f(${((i + 1) * h).toFixed(4)}) = ${values[i + 1]}`,
      );
    }
  }
  for (let i = 1; i < n; i++) {
    const second = values[i + 1]! - 2 * values[i]! + values[i - 1]!;
    if (second > tolerance) {
      throw new InvalidArgumentError(
        `concaveTerm: f (${name}) must be concave on [0, 1], got a positive second difference ${second.toExponential(3)} at p = ${(i * h).toFixed(4)}`,
      );
    }
  }
  return { name, value: f, slopeAtOne: slopeAt1(f, name) };
}

/** `−f'(1)` by automatic differentiation (f must be differentiable in tfjs, as training needs). */
function slopeAt1(f: (p: tf.Tensor) => tf.Tensor, name: string): number {
  let slope: number;
  try {
    slope = tf.tidy(
      () =>
        -tf
          .grad((p: tf.Tensor) => tf.sum(f(p)))(tf.tensor1d([1]))
          .dataSync()[0]!,
    );
  } catch (error) {
    throw new InvalidArgumentError(`concaveTerm: f (${name}) must be differentiable with tfjs ops, got an error from tf.grad`, { cause: error });
  }
  if (!(slope > 0) || !Number.isFinite(slope)) throw new InvalidArgumentError(`concaveTerm: f (${name}) must have f'(1) < 0, got f'(1) = ${-slope}`);
  return slope;
}
