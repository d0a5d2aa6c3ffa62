import { InvalidArgumentError } from '@mia/core';

/** Values: one array, or a list of arrays (per-module tensors) flattened together. */
export type ValuesInput = ArrayLike<number> | ReadonlyArray<ArrayLike<number>>;

/**
 * Flattens {@link ValuesInput} into a new Float64Array.
 * @throws InvalidArgumentError on no value or a non-finite value.
 * @internal
 */
export function flattenValues(fn: string, values: ValuesInput): Float64Array {
  const parts = values.length > 0 && typeof values[0] !== 'number' ? (values as ReadonlyArray<ArrayLike<number>>) : [values as ArrayLike<number>];
  const out = new Float64Array(parts.reduce((a, p) => a + p.length, 0));
  let k = 0;
  for (const part of parts) for (let i = 0; i < part.length; i++) out[k++] = part[i]!;
  if (out.length === 0) throw new InvalidArgumentError(`${fn}: values must contain at least 1 value, got 0`);
  for (const v of out) if (!Number.isFinite(v)) throw new InvalidArgumentError(`${fn}: values must be finite, got ${v}`);
  return out;
}
