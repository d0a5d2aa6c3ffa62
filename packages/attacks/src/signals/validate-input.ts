import { InvalidArgumentError, ShapeMismatchError, checkPositiveInteger, describeValue } from '@mia/core';

/** Checks `values` is an array of finite numbers and copies it into a Float64Array (internal). */
export function toFiniteArray(fn: string, name: string, values: unknown, allowEmpty = false): Float64Array {
  if (!(Array.isArray(values) || (ArrayBuffer.isView(values) && !(values instanceof DataView)))) {
    throw new InvalidArgumentError(`${fn}: ${name} must be an array of numbers, got ${describeValue(values)}`);
  }
  const array = values as ArrayLike<unknown>;
  if (array.length === 0 && !allowEmpty) throw new InvalidArgumentError(`${fn}: ${name} must not be empty, got an empty array`);
  const out = new Float64Array(array.length);
  for (let i = 0; i < array.length; i++) {
    const v = array[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new InvalidArgumentError(`${fn}: ${name}[${i}] must be a finite number, got ${describeValue(v)}`);
    }
    out[i] = v;
  }
  return out;
}

/** Checks labels are integers in `[0, numClasses)`, `size` of them (internal). */
export function toLabelArray(fn: string, labels: unknown, numClasses: number, size: number): Int32Array {
  if (!(Array.isArray(labels) || ArrayBuffer.isView(labels))) {
    throw new InvalidArgumentError(`${fn}: labels must be an array of class indices, got ${describeValue(labels)}`);
  }
  const array = labels as ArrayLike<unknown>;
  if (array.length !== size) {
    throw new ShapeMismatchError(`${fn}: labels must have one entry per example (${size}), got ${array.length}`);
  }
  const out = new Int32Array(size);
  for (let i = 0; i < size; i++) {
    const v = array[i];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= numClasses) {
      throw new InvalidArgumentError(`${fn}: labels[${i}] must be an integer in [0, ${numClasses - 1}], got ${describeValue(v)}`);
    }
    out[i] = v;
  }
  return out;
}

/** Checks `numClasses ≥ 2` (internal). */
export function checkNumClasses(fn: string, numClasses: unknown): number {
  checkPositiveInteger(fn, 'numClasses', numClasses);
  if (numClasses < 2) throw new InvalidArgumentError(`${fn}: numClasses must be at least 2, got ${numClasses}`);
  return numClasses;
}

/** Membership labels (boolean or 0/1) as a Uint8Array of 0/1, `size` of them (internal). */
export function toMembershipArray(fn: string, name: string, values: unknown, size: number): Uint8Array {
  if (!(Array.isArray(values) || ArrayBuffer.isView(values))) {
    throw new InvalidArgumentError(`${fn}: ${name} must be an array of booleans or 0/1, got ${describeValue(values)}`);
  }
  const array = values as ArrayLike<unknown>;
  if (array.length !== size) throw new ShapeMismatchError(`${fn}: ${name} must have ${size} entries, got ${array.length}`);
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) {
    const v = array[i];
    if (v === true || v === 1) out[i] = 1;
    else if (v !== false && v !== 0) throw new InvalidArgumentError(`${fn}: ${name}[${i}] must be a boolean or 0/1, got ${describeValue(v)}`);
  }
  return out;
}
