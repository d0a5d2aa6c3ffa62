import { variable, type Tensor, type Variable } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, describeValue } from './errors';

/**
 * Throws an {@link InvalidArgumentError} `"<fn>: <name> must be <expected>, got <actual>"` unless `ok`.
 * @internal
 */
export function check(ok: boolean, fn: string, name: string, expected: string, actual: unknown): void {
  if (!ok) throw new InvalidArgumentError(`${fn}: ${name} must be ${expected}, got ${describeValue(actual)}`);
}

/** Asserts a positive integer argument. */
export function checkPositiveInteger(fn: string, name: string, value: unknown): asserts value is number {
  check(Number.isInteger(value) && (value as number) > 0, fn, name, 'a positive integer', value);
}

/** Asserts a non-negative integer argument. */
export function checkNonNegativeInteger(fn: string, name: string, value: unknown): asserts value is number {
  check(Number.isInteger(value) && (value as number) >= 0, fn, name, 'a non-negative integer', value);
}

/** Asserts a finite number argument within `[min, max]` (inclusive). */
export function checkNumberInRange(fn: string, name: string, value: unknown, min = -Infinity, max = Infinity): asserts value is number {
  const range = min === -Infinity && max === Infinity ? 'a finite number' : `a number in [${min}, ${max}]`;
  check(typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max, fn, name, range, value);
}

/** Creates a variable holding a copy of `tensor` without leaving the intermediate copy behind. @internal */
export function variableFrom(tensor: Tensor, trainable: boolean, name: string): Variable {
  const copy = tensor.clone();
  const v = variable(copy, trainable, name);
  copy.dispose();
  return v;
}
