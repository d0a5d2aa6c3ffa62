/** The core error classes whose `Symbol.for('@mia/core.<Name>')` marker a {@link MetricsError} can carry. */
export type MetricsErrorKind = 'InvalidArgumentError' | 'ShapeMismatchError';

/** Options of a {@link MetricsError}. */
export interface MetricsErrorOptions {
  /** The error that caused this one, if any. */
  cause?: unknown;
  /**
   * Which `@mia/core` error class this error stands for: `InvalidArgumentError` (bad value, NaN,
   * empty or one-class input) or `ShapeMismatchError` (arrays of different lengths).
   * @default 'InvalidArgumentError'
   */
  kind?: MetricsErrorKind;
}

const coreMarker = (className: string): symbol => Symbol.for(`@mia/core.${className}`);
const OWN_MARKER = Symbol.for('@mia/metrics.MetricsError');

/**
 * The error every `@mia/metrics` function throws on bad input.
 *
 * `@mia/metrics` depends on nothing, so it cannot extend `MiaError` from `@mia/core`. Instead it
 * carries the same non-enumerable `Symbol.for` markers that `@mia/core` sets (`@mia/core.MiaError`
 * plus `@mia/core.InvalidArgumentError` or `@mia/core.ShapeMismatchError`), so
 * `MiaError.isInstance(error)` and `InvalidArgumentError.isInstance(error)` from `@mia/core` return
 * true for it.
 */
export class MetricsError extends Error {
  /** The `@mia/core` error class this error stands for. */
  readonly kind: MetricsErrorKind;

  constructor(message: string, options: MetricsErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MetricsError';
    this.kind = options.kind ?? 'InvalidArgumentError';
    for (const marker of [coreMarker('MiaError'), coreMarker(this.kind), OWN_MARKER]) {
      Object.defineProperty(this, marker, { value: true, enumerable: false });
    }
  }

  /** True when `error` is a {@link MetricsError} from any copy of `@mia/metrics`. */
  static isInstance(error: unknown): error is MetricsError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[OWN_MARKER] === true;
  }
}
