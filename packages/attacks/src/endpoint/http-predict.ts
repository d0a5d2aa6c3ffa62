import { InvalidArgumentError, describeValue } from '@mia/core';
import type { EndpointPredict } from './endpoint-client';
import { EndpointError } from './endpoint-error';

/** Options of {@link httpPredict}. */
export interface HttpPredictOptions {
  /** Extra request headers, e.g. `{ authorization: 'Bearer …' }`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * An {@link EndpointPredict} over HTTP: each batch is one `POST` of
 * `{"output": {"granularity", "topK"?, "decimals"?}, "records": [{"id", "features": [...]}, ...]}`
 * (JSON), answered by `{"outputs": [...]}` with one output per record, in order. Uses the
 * web-standard `fetch` (Node ≥ 18, browsers).
 *
 * @param url - An `http:` or `https:` URL.
 * @returns The predict function; its errors are `EndpointError`s, retryable for a network error, a
 *   timeout, HTTP 429 and 5xx, not for other statuses or a body that is not the documented JSON.
 * @throws InvalidArgumentError when `url` is not an http(s) URL.
 */
export function httpPredict(url: string, options: HttpPredictOptions = {}): EndpointPredict {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    throw new InvalidArgumentError(`httpPredict: url must be an http:// or https:// URL, got ${describeValue(url)}`);
  return async (queries, { signal, output }) => {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...options.headers },
        body: JSON.stringify({ output, records: queries }),
        signal,
      });
    } catch (error) {
      throw new EndpointError(`POST ${url} failed: ${(error as Error)?.message ?? String(error)}`, { retryable: true, cause: error });
    }
    if (!response.ok) {
      const text = (await response.text().catch(() => '')).trim().slice(0, 200);
      throw new EndpointError(`POST ${url} answered HTTP ${response.status}${text === '' ? '' : `: ${text}`}`, {
        retryable: response.status === 429 || response.status >= 500,
      });
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      throw new EndpointError(`POST ${url} answered a body that is not JSON (${(error as Error).message})`, { cause: error });
    }
    const outputs = (body as { outputs?: unknown } | null)?.outputs;
    if (!Array.isArray(outputs)) throw new EndpointError(`POST ${url} must answer {"outputs": [one output per record]}, got ${describeValue(body)}`);
    return outputs;
  };
}
