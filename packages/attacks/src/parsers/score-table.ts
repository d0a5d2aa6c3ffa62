import { InvalidDatasetError } from '@mia/core';

/**
 * Per-example outputs of a model exported from any framework, ready for the score-level attacks:
 * exactly one of `logits`, `probabilities`, `losses` or `scores`, plus membership and (required
 * with logits or probabilities) the true labels.
 */
export interface ScoreTable {
  /**
   * Number of classes C: the row width of the logits/probabilities (checked against an explicit
   * `numClasses` when the file gives one); for losses and scores the explicit value, else
   * `max(2, 1 + max label)` (2 without labels).
   */
  readonly numClasses: number;
  /**
   * True labels, length n. Absent only for losses or scores given without labels: the loss and
   * score attacks do not need them; the signals of the per-class attacks do
   * ({@link signalsFromScoreTable} throws without them).
   */
  readonly labels?: Int32Array;
  /** Membership, 1 = member, length n. */
  readonly isMember: Uint8Array;
  /** Row-major logits `[n, C]`. */
  readonly logits?: Float64Array;
  /** Row-major posteriors `[n, C]`. */
  readonly probabilities?: Float64Array;
  /** Per-example cross-entropy (≥ 0). */
  readonly losses?: Float64Array;
  /** Ready-made attack scores (higher = member). */
  readonly scores?: Float64Array;
}

/** The kinds of values a score table holds, exactly one per table. */
export const SCORE_KINDS = ['logits', 'probabilities', 'losses', 'scores'] as const;

/** What the statistics of logits or probabilities read at the true label (internal: error messages). */
export const LABEL_NEEDED_BY = 'the loss, confidence, φ, modified-entropy and correctness attacks read them at each row’s true label';

/**
 * Validates the assembled columns of a score file and builds the {@link ScoreTable}. With logits or
 * probabilities the number of classes is the row width: `rowWidth` when the file has nested rows,
 * else `values / n` for a flat row-major array; an explicit `numClasses` must agree with it. Labels
 * may use any subset of the classes, and may be left out with losses or scores. Typed arrays of
 * the table's types (`Int32Array` labels, `Uint8Array` membership, `Float64Array` values) are used
 * as they are, other arrays are copied.
 *
 * @param fn - Name for error messages (function and file).
 * @param columns - The parsed columns; `rowWidth` is the width of nested logit/probability rows.
 * @throws InvalidDatasetError on missing columns (labels with logits or probabilities), lengths that
 *   disagree, a `numClasses` that contradicts the row width, a label ≥ the number of classes, a
 *   non-finite value or a negative loss.
 */
export function buildScoreTable(
  fn: string,
  columns: {
    labels?: ArrayLike<number>;
    isMember?: ArrayLike<number>;
    logits?: ArrayLike<number>;
    probabilities?: ArrayLike<number>;
    losses?: ArrayLike<number>;
    scores?: ArrayLike<number>;
    numClasses?: number;
    rowWidth?: number;
  },
): ScoreTable {
  const fail = (why: string): never => {
    throw new InvalidDatasetError(`${fn}: ${why}`);
  };
  const check = (values: ArrayLike<number>, ok: (v: number, i: number) => boolean | never) => {
    for (let i = 0; i < values.length; i++) ok(values[i]!, i);
  };
  const isMember = columns.isMember ?? fail('missing membership (isMember)');
  const labels = columns.labels;
  const n = labels?.length ?? isMember.length;
  if (labels !== undefined && isMember.length !== n) fail(`isMember has ${isMember.length} entries but labels has ${n}`);
  const kinds = SCORE_KINDS.filter((k) => columns[k] !== undefined);
  if (kinds.length !== 1) fail(`exactly one of logits, probabilities, losses or scores must be given, got ${kinds.length === 0 ? 'none' : kinds.join(', ')}`);
  const kind = kinds[0]!;
  const matrix = kind === 'logits' || kind === 'probabilities';
  if (labels === undefined && matrix) fail(`missing labels: ${kind} need them (${LABEL_NEEDED_BY}); only losses or scores may come without labels`);
  if (n === 0) fail('no examples');
  if (labels !== undefined) check(labels, (v, i) => (Number.isInteger(v) && v >= 0) || fail(`labels[${i}] must be a non-negative integer, got ${v}`));
  check(isMember, (v, i) => v === 0 || v === 1 || fail(`isMember[${i}] must be 0/1 or a boolean, got ${v}`));
  let maxLabel = 0;
  if (labels !== undefined) check(labels, (v) => ((maxLabel = Math.max(maxLabel, v)), true));
  const values = columns[kind]!;
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
  check(values, (v, i) => Number.isFinite(v) || fail(`${kind}[${i}] must be a finite number, got ${v}`));
  if (kind === 'losses') check(values, (v, i) => v >= 0 || fail(`losses[${i}] must be ≥ 0 (a cross-entropy), got ${v}`));
  return {
    numClasses,
    ...(labels === undefined ? {} : { labels: labels instanceof Int32Array ? labels : Int32Array.from(labels) }),
    isMember: isMember instanceof Uint8Array ? isMember : Uint8Array.from(isMember),
    [kind]: values instanceof Float64Array ? values : Float64Array.from(values),
  };
}
