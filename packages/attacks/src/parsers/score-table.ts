import { InvalidDatasetError } from '@mia/core';

/**
 * Per-example outputs of a model exported from any framework, ready for the score-level attacks:
 * exactly one of `logits`, `probabilities`, `losses` or `scores`, plus labels and membership.
 */
export interface ScoreTable {
  /**
   * Number of classes C: the row width of the logits/probabilities (checked against an explicit
   * `numClasses` when the file gives one); for losses and scores the explicit value, else
   * `max(2, 1 + max label)`.
   */
  readonly numClasses: number;
  /** True labels, length n. */
  readonly labels: Int32Array;
  /** Membership, 1 = member, length n. */
  readonly isMember: Uint8Array;
  /** Row-major logits `[n, C]`. */
  readonly logits?: Float64Array;
  /** Row-major posteriors `[n, C]`. */
  readonly probabilities?: Float64Array;
  /** Per-example cross-entropy. */
  readonly losses?: Float64Array;
  /** Ready-made attack scores (higher = member). */
  readonly scores?: Float64Array;
}

/**
 * Validates the assembled columns of a score file and builds the {@link ScoreTable}. With logits or
 * probabilities the number of classes is the row width: `rowWidth` when the file has nested rows,
 * else `values / n` for a flat row-major array; an explicit `numClasses` must agree with it. Labels
 * may use any subset of the classes.
 *
 * @param fn - Name for error messages (function and file).
 * @param columns - The parsed columns; `rowWidth` is the width of nested logit/probability rows.
 * @throws InvalidDatasetError on missing columns, lengths that disagree, a `numClasses` that
 *   contradicts the row width, a label ≥ the number of classes, or a non-finite value.
 */
export function buildScoreTable(
  fn: string,
  columns: {
    labels?: number[];
    isMember?: number[];
    logits?: number[];
    probabilities?: number[];
    losses?: number[];
    scores?: number[];
    numClasses?: number;
    rowWidth?: number;
  },
): ScoreTable {
  const fail = (why: string): never => {
    throw new InvalidDatasetError(`${fn}: ${why}`);
  };
  const labels = columns.labels ?? fail('missing labels');
  const isMember = columns.isMember ?? fail('missing membership (isMember)');
  const n = labels.length;
  if (n === 0) fail('no examples');
  if (isMember.length !== n) fail(`isMember has ${isMember.length} entries but labels has ${n}`);
  const kinds = (['logits', 'probabilities', 'losses', 'scores'] as const).filter((k) => columns[k] !== undefined);
  if (kinds.length !== 1) fail(`exactly one of logits, probabilities, losses or scores must be given, got ${kinds.length === 0 ? 'none' : kinds.join(', ')}`);
  labels.forEach((v, i) => (Number.isInteger(v) && v >= 0) || fail(`labels[${i}] must be a non-negative integer, got ${v}`));
  isMember.forEach((v, i) => v === 0 || v === 1 || fail(`isMember[${i}] must be 0/1 or a boolean, got ${v}`));
  const maxLabel = labels.reduce((m, v) => Math.max(m, v), 0);
  const kind = kinds[0]!;
  const values = columns[kind]!;
  const matrix = kind === 'logits' || kind === 'probabilities';
  let numClasses: number;
  if (matrix) {
    const width = columns.rowWidth ?? (columns.numClasses === undefined && values.length % n === 0 ? values.length / n : undefined);
    if (width !== undefined && columns.numClasses !== undefined && width !== columns.numClasses)
      fail(`numClasses is ${columns.numClasses} but the ${kind} rows have ${width} values; they must agree`);
    if (width === undefined && columns.numClasses === undefined) fail(`${kind} has ${values.length} values, not a multiple of the ${n} labels`);
    numClasses = width ?? columns.numClasses!;
  } else {
    numClasses = columns.numClasses ?? Math.max(2, maxLabel + 1);
  }
  if (!Number.isInteger(numClasses) || numClasses < 2 || maxLabel >= numClasses)
    fail(`numClasses must be an integer ≥ 2 above every label (max ${maxLabel}), got ${numClasses}`);
  const width = matrix ? numClasses : 1;
  if (values.length !== n * width) fail(`${kind} must have ${n}×${width} values, got ${values.length}`);
  values.forEach((v, i) => Number.isFinite(v) || fail(`${kind}[${i}] must be a finite number, got ${v}`));
  return { numClasses, labels: Int32Array.from(labels), isMember: Uint8Array.from(isMember), [kind]: Float64Array.from(values) };
}
