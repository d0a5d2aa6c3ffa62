/** Options of every {@link MiaError}. */
export interface MiaErrorOptions {
  /** The error that caused this one, if any. */
  cause?: unknown;
}

const markerOf = (className: string): symbol => Symbol.for(`@mia/core.${className}`);

/**
 * Base class of every domain error thrown by `@mia/*`.
 *
 * Each error carries a `Symbol.for('@mia/core.<ClassName>')` marker for its class and every base
 * class, so `X.isInstance(error)` works across copies of the package (two versions installed side
 * by side, bundles, worker threads), where `instanceof` does not.
 */
export class MiaError extends Error {
  constructor(message: string, options: MiaErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    for (let cls: unknown = new.target; typeof cls === 'function' && cls !== Error; cls = Object.getPrototypeOf(cls)) {
      Object.defineProperty(this, markerOf((cls as { name: string }).name), { value: true, enumerable: false });
    }
  }

  /** True when `error` is an instance of this class (or a subclass) from any copy of `@mia/core`. */
  static isInstance(error: unknown): boolean {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[markerOf(this.name)] === true;
  }
}

/** An argument has the wrong type, range or value. The message names the function, the argument, the expected and the actual value. */
export class InvalidArgumentError extends MiaError {}

/** Two tensors or arrays that must agree in shape or length do not. */
export class ShapeMismatchError extends MiaError {}

/** A dataset file or array is missing, truncated, corrupted or has labels out of range. */
export class InvalidDatasetError extends MiaError {}

/** Training produced a non-finite loss; the message names the epoch and step. */
export class TrainingDivergedError extends MiaError {}

/** A checkpoint or saved model is unreadable or belongs to another configuration. */
export class CheckpointError extends MiaError {}

/** No usable backend, or a backend outside the supported version range. */
export class BackendError extends MiaError {}

/** A long operation was stopped through its `AbortSignal`. */
export class AbortError extends MiaError {}

/** Formats a value for an error message: arrays and objects as short JSON, strings quoted. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value === undefined || value === null) return String(value);
  if (ArrayBuffer.isView(value)) return `${value.constructor.name}(${(value as unknown as ArrayLike<unknown>).length})`;
  try {
    const text = JSON.stringify(value);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    return Object.prototype.toString.call(value);
  }
}
