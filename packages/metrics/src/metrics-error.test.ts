import { describe, expect, it } from 'vitest';
// Test-only relative import: checks the marker convention against @mia/core's real classes without
// making @mia/metrics depend on @mia/core (package.json stays dependency-free).
import { InvalidArgumentError, MiaError, ShapeMismatchError } from '../../core/src/errors';
import { MetricsError } from './metrics-error';
import { auc } from './auc';

describe('MetricsError', () => {
  it('is recognised by @mia/core MiaError.isInstance and InvalidArgumentError.isInstance', () => {
    const error = new MetricsError('auc: scores must not be empty, got an empty array');
    expect(MiaError.isInstance(error)).toBe(true);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(ShapeMismatchError.isInstance(error)).toBe(false);
    expect(MetricsError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('MetricsError');
  });

  it('carries the ShapeMismatchError marker for length mismatches', () => {
    let caught: unknown;
    try {
      auc([1, 2, 3], [1, 0]);
    } catch (error) {
      caught = error;
    }
    expect(ShapeMismatchError.isInstance(caught)).toBe(true);
    expect(MiaError.isInstance(caught)).toBe(true);
    expect(InvalidArgumentError.isInstance(caught)).toBe(false);
    expect((caught as Error).message).toBe('auc: scores and isMember must have the same length, got 3 and 2');
  });

  it('keeps the markers non-enumerable and attaches the cause', () => {
    const cause = new Error('inner');
    const error = new MetricsError('x', { cause });
    expect(Object.keys(error)).not.toContain(Symbol.for('@mia/core.MiaError'));
    expect(Object.getOwnPropertyDescriptor(error, Symbol.for('@mia/core.MiaError'))?.enumerable).toBe(false);
    expect(error.cause).toBe(cause);
    expect(MetricsError.isInstance(new Error('plain'))).toBe(false);
    expect(MetricsError.isInstance(null)).toBe(false);
  });
});
