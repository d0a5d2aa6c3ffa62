import { AbortError } from '@mia/core';
import { endpointAnswer, type EndpointAnswer, type EndpointOutput } from './endpoint-answer';
import { EndpointError } from './endpoint-error';
import type { EndpointCacheEntry, EndpointQueryCache } from './endpoint-query-cache';

/** One query sent to an endpoint: the record it belongs to and the input (the record itself, or a point near it). */
export interface EndpointQuery {
  readonly id: string;
  readonly features: readonly number[];
}

/**
 * A prediction endpoint as the audit calls it: one answer per query, in order (raw JSON values,
 * validated against the granularity). `signal` fires when the request times out.
 */
export type EndpointPredict = (
  queries: readonly EndpointQuery[],
  context: { readonly signal: AbortSignal; readonly output: EndpointOutput },
) => readonly unknown[] | Promise<readonly unknown[]>;

/** Options of {@link createEndpointClient} (validated by `auditEndpoint`). */
export interface EndpointClientOptions {
  readonly output: EndpointOutput;
  /** Distinct queries the audit may use in all, answers from the cache included. */
  readonly budget: number;
  readonly batchSize: number;
  /** Requests started per second at most (Infinity: no limit). */
  readonly requestsPerSecond: number;
  /** Attempts after the first one for a request that failed in a way that may pass (5xx, 429, network, timeout). */
  readonly retries: number;
  /** Wait before the first retry; doubled before each next one. */
  readonly backoffMs: number;
  readonly timeoutMs: number;
  readonly cache?: EndpointQueryCache;
  /** Stops the audit before its next request; a request already sent is finished and recorded first. */
  readonly signal?: AbortSignal;
  /** Called after each batch with the distinct queries used so far. */
  readonly onBatch?: (used: number) => void;
}

/** Query accounting of an endpoint client. */
export interface EndpointQueryCounts {
  /** Distinct queries used by this audit (answers from the cache included): what the budget limits. */
  readonly used: number;
  /** Queries sent to the endpoint in this session (retries not counted again). */
  readonly sent: number;
  /** Queries answered from answers recorded by an earlier session. */
  readonly fromCache: number;
  /**
   * Queries sent again after an attempt failed or timed out. An endpoint that answered a timed-out
   * request before the client gave up has seen these queries twice: count them against a quota the
   * endpoint's owner enforces.
   */
  readonly resent: number;
}

/** An endpoint behind the audit's cache, budget, batching, rate limit and retries. */
export interface EndpointClient {
  /** The answers to `queries` (one per query, in order), from the cache or the endpoint. */
  ask(queries: ReadonlyArray<EndpointQuery & { readonly key: string }>): Promise<EndpointAnswer[]>;
  counts(): EndpointQueryCounts;
}

interface Pending {
  readonly query: EndpointQuery & { readonly key: string };
  readonly resolve: (answer: EndpointAnswer) => void;
  readonly reject: (error: unknown) => void;
}

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const named = (ids: readonly string[]) =>
  `${[...new Set(ids)]
    .slice(0, 3)
    .map((id) => JSON.stringify(id))
    .join(', ')}${new Set(ids).size > 3 ? ` and ${new Set(ids).size - 3} more` : ''}`;

/**
 * Puts an endpoint behind what an audit needs: answers recorded in `cache` after every batch (a
 * resumed audit sends no query twice), at most `budget` distinct queries, queries of concurrent
 * callers joined into batches of `batchSize`, one request at a time at most `requestsPerSecond`,
 * retries with exponential backoff, and an abort that finishes the request in flight first.
 */
export async function createEndpointClient(predict: EndpointPredict, options: EndpointClientOptions): Promise<EndpointClient> {
  const keyOf = (id: string, query: string) => `${id}\u0000${query}`;
  const known = new Map<string, unknown>();
  for (const e of (await options.cache?.load()) ?? []) known.set(keyOf(e.id, e.query), e.answer);
  const used = new Set<string>();
  const inFlight = new Map<string, Promise<EndpointAnswer>>();
  let pending: Pending[] = [];
  let pumping = false;
  let failure: unknown;
  let lastStart = -Infinity;
  const counts = { sent: 0, fromCache: 0, resent: 0 };
  const describe = (id: string, origin: string) => `${origin} for record ${JSON.stringify(id)}`;

  /** One request with retries; the answers of every query of the batch, validated. */
  async function send(batch: readonly Pending[]): Promise<EndpointAnswer[]> {
    const queries = batch.map((p) => ({ id: p.query.id, features: p.query.features }));
    for (let attempt = 0; ; attempt++) {
      const wait = lastStart + 1000 / options.requestsPerSecond - Date.now();
      if (wait > 0) await sleep(wait);
      if (options.signal?.aborted === true) throw new AbortError('auditEndpoint: aborted before the next request; the answers so far are in the cache');
      lastStart = Date.now();
      if (attempt > 0) counts.resent += queries.length;
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), options.timeoutMs);
      try {
        const raw = await predict(queries, { signal: timeout.signal, output: options.output });
        if (!Array.isArray(raw) || raw.length !== queries.length)
          throw new EndpointError(
            `the endpoint must answer with one output per query (${queries.length}), got ${Array.isArray(raw) ? raw.length : typeof raw}`,
          );
        return raw.map((answer, i) => endpointAnswer(answer, options.output, describe(queries[i]!.id, "the endpoint's answer")));
      } catch (error) {
        const cause = timeout.signal.aborted ? new EndpointError(`no answer within ${options.timeoutMs} ms`, { retryable: true, cause: error }) : error;
        const retryable = !EndpointError.isInstance(cause) || (cause as EndpointError).retryable;
        if (!retryable || attempt >= options.retries) {
          const what =
            queries.length === 1 ? `record ${named([queries[0]!.id])}` : `the batch of records ${named(queries.map((q) => q.id))} (${queries.length} queries)`;
          throw new EndpointError(
            `auditEndpoint: the endpoint failed on ${what} after ${attempt + 1} attempt${attempt === 0 ? '' : 's'}: ${(cause as Error)?.message ?? String(cause)}`,
            { cause },
          );
        }
        await sleep(options.backoffMs * 2 ** attempt);
      } finally {
        clearTimeout(timer);
      }
    }
  }

  /**
   * Sends a batch, records its answers in the cache, then hands them out. A batch that fails after its
   * retries is split in halves, each sent on its own, down to the record that fails: the error names
   * it, and the answers of the other records are kept.
   */
  async function deliver(batch: readonly Pending[]): Promise<void> {
    let answers: EndpointAnswer[];
    try {
      answers = await send(batch);
    } catch (error) {
      if (batch.length === 1 || AbortError.isInstance(error)) throw error;
      const half = Math.ceil(batch.length / 2);
      await deliver(batch.slice(0, half));
      await deliver(batch.slice(half));
      return;
    }
    await options.cache?.append(batch.map((p, i): EndpointCacheEntry => ({ id: p.query.id, query: p.query.key, answer: raw(answers[i]!) })));
    counts.sent += batch.length;
    batch.forEach((p, i) => p.resolve(answers[i]!));
    options.onBatch?.(used.size);
  }

  /** Sends the pending queries, batch by batch, each after the callers have queued what they ask next. */
  async function pump(): Promise<void> {
    pumping = true;
    try {
      await tick();
      while (pending.length > 0 && failure === undefined) {
        const batch = pending.splice(0, options.batchSize);
        try {
          await deliver(batch);
        } catch (error) {
          failure = error;
          for (const p of [...batch, ...pending]) p.reject(error);
          pending = [];
        }
        await tick();
      }
    } finally {
      pumping = false;
    }
  }

  function answer(query: EndpointQuery & { readonly key: string }): Promise<EndpointAnswer> {
    const key = keyOf(query.id, query.key);
    const first = !used.has(key);
    if (first) used.add(key);
    const recorded = known.get(key);
    if (recorded !== undefined) {
      if (first) counts.fromCache += 1;
      return Promise.resolve(endpointAnswer(recorded, options.output, describe(query.id, 'the cached answer')));
    }
    const flying = inFlight.get(key);
    if (flying !== undefined) return flying;
    if (failure !== undefined) return Promise.reject(failure);
    if (used.size > options.budget) return Promise.reject(new EndpointError(`auditEndpoint: the query budget (${options.budget}) is spent`));
    const promise = new Promise<EndpointAnswer>((resolve, reject) => pending.push({ query, resolve, reject })).then((a) => {
      known.set(key, raw(a));
      inFlight.delete(key);
      return a;
    });
    inFlight.set(key, promise);
    if (!pumping) void pump();
    return promise;
  }

  return {
    ask: (queries) => Promise.all(queries.map(answer)),
    counts: () => ({ used: used.size, sent: counts.sent, fromCache: counts.fromCache, resent: counts.resent }),
  };
}

/** The JSON an answer was parsed from (what the cache records). */
function raw(answer: EndpointAnswer): unknown {
  if (answer.kind === 'label') return answer.label;
  if (answer.kind === 'top-k') return { labels: answer.labels, scores: answer.scores };
  return answer.scores;
}
