import { MiaError, type MiaErrorOptions } from '@mia/core';

/** Options of {@link EndpointError}. */
export interface EndpointErrorOptions extends MiaErrorOptions {
  /** Whether the same request may succeed when sent again (a 5xx, a 429, a network error or a timeout). @default false */
  readonly retryable?: boolean;
}

/**
 * A prediction endpoint failed or answered badly: an HTTP error, a timeout, a body that is not the
 * documented JSON, or an answer of the wrong shape. The message names the endpoint and the records.
 */
export class EndpointError extends MiaError {
  /** Whether sending the request again may succeed. */
  readonly retryable: boolean;

  constructor(message: string, options: EndpointErrorOptions = {}) {
    super(message, options);
    this.retryable = options.retryable ?? false;
  }
}
