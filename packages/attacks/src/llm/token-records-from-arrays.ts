import { InvalidDatasetError, describeValue } from '@mia/core';
import { tokenLogprobRecord, type TokenLogprobRecord } from './token-logprob-record';

/** A row-major numeric array with its shape, e.g. a parsed `.npy` file (`parseNpy`). */
export interface ShapedArray {
  readonly shape: readonly number[];
  readonly data: ArrayLike<number>;
}

/**
 * The `.npy`-friendly layout of per-token log-probabilities: one `[n, T]` float array per field,
 * row i holding record i's values followed by NaN padding up to the longest row (T), e.g.
 * `np.save('logprobs.npy', np.array(rows_padded_with_nan, dtype=np.float32))`.
 */
export interface TokenLogprobArrays {
  /** `[n, T]` target log-probabilities, NaN after each row's last token. */
  readonly logprobs: ShapedArray;
  /** `[n, T]` Min-K%++ μ, NaN exactly where `logprobs` is. */
  readonly mu?: ShapedArray;
  /** `[n, T]` Min-K%++ σ (standard deviation), NaN exactly where `logprobs` is. */
  readonly sigma?: ShapedArray;
  /** `[n, T']` reference-model log-probabilities, NaN-padded (its own tokenisation). */
  readonly refLogprobs?: ShapedArray;
  /** `[n]` membership, 0/1. */
  readonly member?: ShapedArray;
  /** `[n]` zlib-compressed byte length of each record's text. */
  readonly zlibBytes?: ShapedArray;
  /** Record ids. @default the row index as a string */
  readonly ids?: readonly string[];
}

const fn = 'tokenRecordsFromArrays';

/** The non-padded prefix of row `i` of a 2-D array; padding is NaN after the last value, never inside. */
function row(name: string, array: ShapedArray, i: number): number[] {
  const width = array.shape[1]!;
  const values = Array.from({ length: width }, (_, t) => array.data[i * width + t]!);
  let length = width;
  while (length > 0 && Number.isNaN(values[length - 1])) length -= 1;
  const gap = values.slice(0, length).findIndex((v) => Number.isNaN(v));
  if (gap >= 0) throw new InvalidDatasetError(`${fn}: ${name}[${i}][${gap}] must be a number (NaN only pads the end of a row), got NaN`);
  if (length === 0) throw new InvalidDatasetError(`${fn}: ${name}[${i}] must hold at least one value before its NaN padding, got none`);
  return values.slice(0, length);
}

/**
 * Builds {@link TokenLogprobRecord}s from the `.npy`-friendly layout ({@link TokenLogprobArrays}).
 *
 * @param arrays - The arrays; every one has n rows.
 * @returns One record per row, in order.
 * @throws InvalidDatasetError naming the array, the row (and column) and the expected and actual value.
 */
export function tokenRecordsFromArrays(arrays: TokenLogprobArrays): TokenLogprobRecord[] {
  const check = (name: string, a: ShapedArray | undefined, rank: 1 | 2, n?: number) => {
    if (a === undefined) return;
    const ok = typeof a === 'object' && a !== null && Array.isArray(a.shape) && a.shape.length === rank && a.data !== undefined;
    if (!ok) throw new InvalidDatasetError(`${fn}: ${name} must be a ${rank}-D array {shape, data}, got ${describeValue(a?.shape ?? a)}`);
    if (n !== undefined && a.shape[0] !== n) throw new InvalidDatasetError(`${fn}: ${name} must have ${n} rows (one per record), got ${a.shape[0]}`);
    const size = a.shape.reduce((p, d) => p * d, 1);
    if (a.data.length !== size)
      throw new InvalidDatasetError(`${fn}: ${name} must hold ${size} values for shape [${a.shape.join(', ')}], got ${a.data.length}`);
  };
  check('logprobs', arrays?.logprobs, 2);
  if (arrays.logprobs === undefined) throw new InvalidDatasetError(`${fn}: logprobs must be a 2-D array {shape, data}, got undefined`);
  const n = arrays.logprobs.shape[0]!;
  if (n === 0) throw new InvalidDatasetError(`${fn}: logprobs must have at least one row, got 0`);
  for (const name of ['mu', 'sigma', 'refLogprobs'] as const) check(name, arrays[name], 2, n);
  for (const name of ['member', 'zlibBytes'] as const) check(name, arrays[name], 1, n);
  if (arrays.ids !== undefined && (!Array.isArray(arrays.ids) || arrays.ids.length !== n))
    throw new InvalidDatasetError(`${fn}: ids must be an array of ${n} strings, got ${describeValue(arrays.ids)}`);
  const seen = new Map<string, number>();
  return Array.from({ length: n }, (_, i) => {
    const logprobs = row('logprobs', arrays.logprobs, i);
    const same = (name: 'mu' | 'sigma') => {
      if (arrays[name] === undefined) return undefined;
      const values = row(name, arrays[name], i);
      if (values.length !== logprobs.length)
        throw new InvalidDatasetError(`${fn}: ${name}[${i}] must have ${logprobs.length} values like logprobs[${i}], got ${values.length}`);
      return values;
    };
    const id = arrays.ids?.[i] ?? String(i);
    const first = seen.get(id);
    if (first !== undefined) throw new InvalidDatasetError(`${fn}: ids[${i}] must be unique, got ${JSON.stringify(id)} again (first at ${first})`);
    seen.set(id, i);
    const mu = same('mu');
    const sigma = same('sigma');
    return tokenLogprobRecord(
      {
        id,
        logprobs,
        ...(mu === undefined ? {} : { mu }),
        ...(sigma === undefined ? {} : { sigma }),
        ...(arrays.refLogprobs === undefined ? {} : { refLogprobs: row('refLogprobs', arrays.refLogprobs, i) }),
        ...(arrays.member === undefined ? {} : { member: arrays.member.data[i] }),
        ...(arrays.zlibBytes === undefined ? {} : { zlibBytes: arrays.zlibBytes.data[i] }),
      },
      `${fn}: row ${i}`,
      (m) => new InvalidDatasetError(m),
    );
  });
}
