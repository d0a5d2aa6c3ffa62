import { InvalidArgumentError, ShapeMismatchError, checkNumberInRange, checkPositiveInteger, deriveSeed, seededRandom } from '@mia/core';

/** What {@link estimateInfluence}'s `trainModel` returns for one subset model. */
export interface SubsetModelOutputs {
  /** Per-training-point score of the model trained on the subset (1/0 correctness, or p_y), length numTrain. */
  readonly train: ArrayLike<number>;
  /** Per-test-point score, length numTest (omit or empty for memorisation only). */
  readonly test?: ArrayLike<number>;
}

/** Options of {@link estimateInfluence}. */
export interface EstimateInfluenceOptions {
  readonly numTrain: number;
  readonly numTest?: number;
  /**
   * Trains one model on the training points `subset` (seeded by `seed`) and scores every training
   * and test point with it. Called `numModels` times, sequentially.
   */
  readonly trainModel: (subset: Int32Array, seed: number) => Promise<SubsetModelOutputs> | SubsetModelOutputs;
  /** Number of subset models. @default 20 */
  readonly numModels?: number;
  /** Fraction of the training set in each subset. @default 0.7 (Feldman & Zhang) */
  readonly subsetFraction?: number;
  /** @default 0 */
  readonly seed?: number;
  /** Called after each model. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** Result of {@link estimateInfluence}. */
export interface InfluenceEstimate {
  /** `mem(i) = E[score_i | i ∈ S] − E[score_i | i ∉ S]`, NaN when i was always in or always out. */
  readonly memorization: Float64Array;
  /** Row-major `[numTest × numTrain]`: `infl(i → j) = E[score_j | i ∈ S] − E[score_j | i ∉ S]`. */
  readonly influence: Float64Array;
  /** How many subset models contained each training point. */
  readonly inCounts: Int32Array;
  /** The subsets drawn, for reproducibility. */
  readonly subsets: Int32Array[];
}

/**
 * Subsampling estimator of memorisation and influence (Feldman & Zhang 2020, the estimates the
 * SAM-privacy paper uses): train `numModels` models on random subsets of `subsetFraction·n`
 * training points and compare each point's (or test point's) score between models that did and
 * did not see training point i. Model-agnostic: training is the injected `trainModel` (an MLP on
 * tabular data runs on a CPU at small scale).
 *
 * @throws InvalidArgumentError on bad options; ShapeMismatchError when `trainModel` returns arrays of the wrong length.
 * @see SAM-privacy Eq. 1–2, §3.2.
 */
export async function estimateInfluence(options: EstimateInfluenceOptions): Promise<InfluenceEstimate> {
  const fn = 'estimateInfluence';
  const { numTrain, trainModel } = options;
  const numTest = options.numTest ?? 0;
  const numModels = options.numModels ?? 20;
  const fraction = options.subsetFraction ?? 0.7;
  checkPositiveInteger(fn, 'numTrain', numTrain);
  if (!Number.isInteger(numTest) || numTest < 0) throw new InvalidArgumentError(`${fn}: numTest must be a non-negative integer, got ${numTest}`);
  checkPositiveInteger(fn, 'numModels', numModels);
  checkNumberInRange(fn, 'subsetFraction', fraction, 0, 1);
  if (typeof trainModel !== 'function') throw new InvalidArgumentError(`${fn}: trainModel must be a function, got ${typeof trainModel}`);
  const k = Math.round(fraction * numTrain);
  if (k < 1 || k >= numTrain) throw new InvalidArgumentError(`${fn}: subsetFraction·numTrain must round to 1..numTrain−1, got ${k}`);
  const seed = options.seed ?? 0;
  const random = seededRandom(deriveSeed(seed, 'estimateInfluence'));
  // Sums of scores of point j (train then test) over models with / without train point i.
  const width = numTrain + numTest;
  const sumIn = new Float64Array(numTrain * width);
  const sumAll = new Float64Array(width);
  const inCounts = new Int32Array(numTrain);
  const subsets: Int32Array[] = [];
  const member = new Uint8Array(numTrain);
  for (let m = 0; m < numModels; m++) {
    const subset = random.sample(numTrain, k).sort();
    subsets.push(subset);
    const out = await trainModel(subset, deriveSeed(seed, 'model', m));
    const test = out.test ?? [];
    if (out.train.length !== numTrain || test.length !== numTest) {
      throw new ShapeMismatchError(
        `${fn}: trainModel must return ${numTrain} train and ${numTest} test scores, got ${out.train.length} and ${test.length} (model ${m})`,
      );
    }
    const scores = Float64Array.from({ length: width }, (_, j) => (j < numTrain ? out.train[j]! : test[j - numTrain]!));
    member.fill(0);
    for (const i of subset) member[i] = 1;
    for (let j = 0; j < width; j++) sumAll[j]! += scores[j]!;
    for (const i of subset) {
      inCounts[i]! += 1;
      const row = i * width;
      for (let j = 0; j < width; j++) sumIn[row + j]! += scores[j]!;
    }
    options.onProgress?.(m + 1, numModels);
  }
  const diff = (i: number, j: number): number => {
    const nIn = inCounts[i]!;
    const nOut = numModels - nIn;
    if (nIn === 0 || nOut === 0) return NaN;
    const sIn = sumIn[i * width + j]!;
    return sIn / nIn - (sumAll[j]! - sIn) / nOut;
  };
  const memorization = Float64Array.from({ length: numTrain }, (_, i) => diff(i, i));
  const influence = new Float64Array(numTest * numTrain);
  for (let t = 0; t < numTest; t++) for (let i = 0; i < numTrain; i++) influence[t * numTrain + i] = diff(i, numTrain + t);
  return { memorization, influence, inCounts, subsets };
}
