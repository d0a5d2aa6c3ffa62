import { InvalidArgumentError, ShapeMismatchError, checkPositiveInteger } from '@mia/core';

/** Options of {@link influenceEntropy}. */
export interface InfluenceEntropyOptions {
  /** Number of test points (rows of the matrix). */
  readonly numTest: number;
  /** Number of training points (columns). */
  readonly numTrain: number;
  /** Test labels; with `trainLabels`, restricts each row to the training points of the same class (the paper's choice). */
  readonly testLabels?: ArrayLike<number>;
  readonly trainLabels?: ArrayLike<number>;
  /**
   * How negative influence estimates (sampling noise) enter `p_ij`: `'clip'` sets them to 0,
   * `'abs'` uses their magnitude. Eq. 3 assumes non-negative influences. @default 'clip'
   */
  readonly negative?: 'clip' | 'abs';
}

/** Result of {@link influenceEntropy}. */
export interface InfluenceEntropyResult {
  /**
   * `I_ent[i] = −Σ_j p_ij·log p_ij` (natural log) with `p_ij = infl(i,j)/Σ_k infl(i,k)`;
   * `+Infinity` for rows whose influences are all zero (the paper's bucket 5: "evaluates to 0
   * due to normalisation, but represents the highest value").
   */
  readonly entropy: Float64Array;
  /** 1 where every (used) influence of the row is zero. */
  readonly allZero: Uint8Array;
}

/**
 * Influence entropy per test point from a user-provided influence matrix (e.g. Feldman & Zhang's
 * precomputed CIFAR-100 scores, or {@link estimateInfluence}): low entropy = the prediction
 * depends on a few training points (memorisation), high = spread influence (typical points).
 *
 * @param influence - row-major `[numTest × numTrain]`, `influence[i·numTrain + j] = infl(train j → test i)`.
 * @throws ShapeMismatchError when sizes disagree; InvalidArgumentError on NaN or a bad option.
 * @see SAM-privacy Eq. 3, §3.2.
 */
export function influenceEntropy(influence: ArrayLike<number>, options: InfluenceEntropyOptions): InfluenceEntropyResult {
  const fn = 'influenceEntropy';
  const { numTest, numTrain } = options;
  checkPositiveInteger(fn, 'numTest', numTest);
  checkPositiveInteger(fn, 'numTrain', numTrain);
  if (influence.length !== numTest * numTrain)
    throw new ShapeMismatchError(`${fn}: influence must have numTest·numTrain = ${numTest * numTrain} entries, got ${influence.length}`);
  const byClass = options.testLabels !== undefined || options.trainLabels !== undefined;
  if (byClass && (options.testLabels?.length !== numTest || options.trainLabels?.length !== numTrain)) {
    throw new ShapeMismatchError(
      `${fn}: testLabels and trainLabels must have ${numTest} and ${numTrain} entries, got ${options.testLabels?.length} and ${options.trainLabels?.length}`,
    );
  }
  const negative = options.negative ?? 'clip';
  if (negative !== 'clip' && negative !== 'abs') throw new InvalidArgumentError(`${fn}: negative must be 'clip' or 'abs', got ${JSON.stringify(negative)}`);
  const entropy = new Float64Array(numTest);
  const allZero = new Uint8Array(numTest);
  const weights = new Float64Array(numTrain);
  for (let i = 0; i < numTest; i++) {
    let total = 0;
    for (let j = 0; j < numTrain; j++) {
      const raw = influence[i * numTrain + j]!;
      if (Number.isNaN(raw)) throw new InvalidArgumentError(`${fn}: influence must not contain NaN, got NaN at test ${i}, train ${j}`);
      const used = !byClass || options.trainLabels![j] === options.testLabels![i];
      const w = !used ? 0 : negative === 'clip' ? Math.max(raw, 0) : Math.abs(raw);
      weights[j] = w;
      total += w;
    }
    if (total === 0) {
      entropy[i] = Infinity;
      allZero[i] = 1;
      continue;
    }
    let h = 0;
    for (let j = 0; j < numTrain; j++) {
      const p = weights[j]! / total;
      if (p > 0) h -= p * Math.log(p);
    }
    entropy[i] = h;
  }
  return { entropy, allZero };
}
