import { InvalidArgumentError, InvalidDatasetError, checkPositiveInteger } from '@mia/core';

/**
 * Checks that every label is an integer in `[0, numClasses)`.
 * @throws InvalidDatasetError naming `where`, the index and the bad label.
 * @internal
 */
export function checkStoredLabels(where: string, labels: ArrayLike<number>, numClasses: number): void {
  checkPositiveInteger(where, 'numClasses', numClasses);
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i]!;
    if (!Number.isInteger(label) || label < 0 || label >= numClasses) {
      throw new InvalidDatasetError(`${where}: label ${i} must be in [0, ${numClasses - 1}], got ${label}`);
    }
  }
}

/**
 * Checks batch indices for `gather`.
 * @throws InvalidArgumentError naming the first index outside `[0, size)`.
 * @internal
 */
export function checkIndices(where: string, indices: ArrayLike<number>, size: number): void {
  for (let i = 0; i < indices.length; i++) {
    const j = indices[i]!;
    if (!Number.isInteger(j) || j < 0 || j >= size) {
      throw new InvalidArgumentError(`${where}: indices[${i}] must be an integer in [0, ${size - 1}], got ${j}`);
    }
  }
}
