import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, InvalidDatasetError, MiaError, ShapeMismatchError } from './errors';

describe('MiaError family', () => {
  it('isInstance follows the class hierarchy through Symbol.for markers', () => {
    const e = new InvalidDatasetError('bad file', { cause: new Error('io') });
    expect(MiaError.isInstance(e)).toBe(true);
    expect(InvalidDatasetError.isInstance(e)).toBe(true);
    expect(ShapeMismatchError.isInstance(e)).toBe(false);
    expect(e.name).toBe('InvalidDatasetError');
    expect((e.cause as Error).message).toBe('io');
  });

  it('recognises an error from another copy of the package by its marker', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('@mia/core.InvalidArgumentError')]: true, [Symbol.for('@mia/core.MiaError')]: true });
    expect(InvalidArgumentError.isInstance(foreign)).toBe(true);
    expect(MiaError.isInstance(new Error('plain'))).toBe(false);
    expect(MiaError.isInstance(null)).toBe(false);
  });
});
