import { MetricsError } from './metrics-error';

/** Scores, one per example; "higher = more likely member". */
export type Scores = ArrayLike<number>;
/** Membership labels, one per example: `true`/`1` = member, `false`/`0` = non-member. */
export type Membership = ArrayLike<boolean | number>;

/** Formats a value for an error message. */
export function describe(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || value === undefined || value === null) return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (ArrayBuffer.isView(value)) return `${value.constructor.name}(${(value as unknown as ArrayLike<unknown>).length})`;
  if (Array.isArray(value)) return `Array(${value.length})`;
  if (typeof value === 'object') return `an object with keys {${Object.keys(value).join(', ')}}`;
  return typeof value;
}

function isArrayLike(value: unknown): value is ArrayLike<unknown> {
  return (Array.isArray(value) || ArrayBuffer.isView(value)) && !(value instanceof DataView);
}

/** Copies `values` into a Float64Array after checking it is an array of non-NaN numbers. */
export function toNumbers(fn: string, name: string, values: unknown, { allowEmpty = false, finite = false } = {}): Float64Array {
  if (!isArrayLike(values)) throw new MetricsError(`${fn}: ${name} must be an array of numbers, got ${describe(values)}`);
  if (values.length === 0 && !allowEmpty) throw new MetricsError(`${fn}: ${name} must not be empty, got an empty array`);
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number') throw new MetricsError(`${fn}: ${name}[${i}] must be a number, got ${describe(v)}`);
    if (Number.isNaN(v)) throw new MetricsError(`${fn}: ${name}[${i}] must not be NaN, got NaN`);
    if (finite && !Number.isFinite(v)) throw new MetricsError(`${fn}: ${name}[${i}] must be finite, got ${v}`);
    out[i] = v;
  }
  return out;
}

/** Checks that `value` is a finite number in `[min, max]`. */
export function checkNumber(fn: string, name: string, value: unknown, min = -Infinity, max = Infinity): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    const range = Number.isFinite(min) || Number.isFinite(max) ? ` in [${min}, ${max}]` : '';
    throw new MetricsError(`${fn}: ${name} must be a finite number${range}, got ${describe(value)}`);
  }
  return value;
}

/** Checks that `value` is an integer in `[min, max]`. */
export function checkInteger(fn: string, name: string, value: unknown, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new MetricsError(`${fn}: ${name} must be an integer in [${min}, ${max}], got ${describe(value)}`);
  }
  return value;
}

/** Checks that two arrays have the same length (a `ShapeMismatchError`-marked error otherwise). */
export function checkSameLength(fn: string, nameA: string, a: ArrayLike<unknown>, nameB: string, b: unknown): void {
  if (!isArrayLike(b)) throw new MetricsError(`${fn}: ${nameB} must be an array, got ${describe(b)}`);
  if (a.length !== b.length) {
    throw new MetricsError(`${fn}: ${nameA} and ${nameB} must have the same length, got ${a.length} and ${b.length}`, {
      kind: 'ShapeMismatchError',
    });
  }
}

/** Membership labels as a Uint8Array of 0/1, after checking every entry is a boolean or 0/1. */
export function toMembership(fn: string, isMember: unknown, length: number, scoresName = 'scores'): Uint8Array {
  checkSameLength(fn, scoresName, { length }, 'isMember', isMember);
  const labels = isMember as ArrayLike<unknown>;
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    const v = labels[i];
    if (v === true || v === 1) out[i] = 1;
    else if (v !== false && v !== 0) throw new MetricsError(`${fn}: isMember[${i}] must be a boolean or 0/1, got ${describe(v)}`);
  }
  return out;
}

/** Member and non-member scores split from `(scores, isMember)`, both non-empty. */
export interface SplitScores {
  members: Float64Array;
  nonMembers: Float64Array;
}

/** Validates `(scores, isMember)` and splits the scores into members and non-members. */
export function splitScores(fn: string, scores: unknown, isMember: unknown): SplitScores {
  const values = toNumbers(fn, 'scores', scores);
  const labels = toMembership(fn, isMember, values.length);
  let numMembers = 0;
  for (const label of labels) numMembers += label;
  const numNonMembers = values.length - numMembers;
  if (numMembers === 0 || numNonMembers === 0) {
    throw new MetricsError(`${fn}: isMember must contain both members and non-members, got ${numMembers} members and ${numNonMembers} non-members`);
  }
  const members = new Float64Array(numMembers);
  const nonMembers = new Float64Array(numNonMembers);
  let m = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    if (labels[i] === 1) members[m++] = values[i]!;
    else nonMembers[n++] = values[i]!;
  }
  return { members, nonMembers };
}

/** Checks that `value` is a number other than NaN (±Infinity allowed). */
export function checkNotNaN(fn: string, name: string, value: unknown): number {
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new MetricsError(`${fn}: ${name} must be a number (not NaN), got ${describe(value)}`);
  }
  return value;
}

/** Class labels, one per example: integers in `0..numClasses-1`. */
export type ClassLabels = ArrayLike<number>;

/** Class labels as an Int32Array, after checking they are non-negative integers and `length` long. */
export function toLabels(fn: string, name: string, labels: unknown, scoresName: string, length: number): Int32Array {
  checkSameLength(fn, scoresName, { length }, name, labels);
  const values = labels as ArrayLike<unknown>;
  const out = new Int32Array(length);
  for (let i = 0; i < length; i++) {
    const v = values[i];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 2 ** 31 - 1) {
      throw new MetricsError(`${fn}: ${name}[${i}] must be a non-negative integer class label, got ${describe(v)}`);
    }
    out[i] = v;
  }
  return out;
}

/**
 * Flattens one array of finite numbers, or a list of them (e.g. every parameter tensor's data),
 * into one Float64Array.
 */
export function flattenValues(fn: string, name: string, values: unknown): Float64Array {
  if (Array.isArray(values) && values.length > 0 && values.every((v) => typeof v !== 'number')) {
    const parts = values.map((part: unknown, i) => toNumbers(fn, `${name}[${i}]`, part, { allowEmpty: true, finite: true }));
    const out = new Float64Array(parts.reduce((sum, part) => sum + part.length, 0));
    let offset = 0;
    for (const part of parts) {
      out.set(part, offset);
      offset += part.length;
    }
    if (out.length === 0) throw new MetricsError(`${fn}: ${name} must hold at least one value, got only empty arrays`);
    return out;
  }
  return toNumbers(fn, name, values, { finite: true });
}
