import type * as tf from '@tensorflow/tfjs-core';
import { option, optionsSchema } from '@mia/core';
import type { EndpointGranularity } from './endpoint-answer';
import type { EndpointQueryCounts } from './endpoint-client';
import type { EndpointQueryCache } from './endpoint-query-cache';

/** The records an endpoint is audited on. The caller keeps ownership of `x`. */
export interface EndpointRecords {
  /** The inputs `[n, ...]`, sent flattened as each record's `features`. */
  readonly x: tf.Tensor;
  /** True labels, integers ≥ 0. */
  readonly y: ArrayLike<number>;
  /** 1 for a record the model trained on, 0 for one it did not (both present). */
  readonly isMember: ArrayLike<number>;
  /** Unique record ids (the cache's and the error messages'). @default the row index as a string */
  readonly ids?: readonly string[];
}

/** The params of {@link auditEndpoint}, validated whole by {@link auditEndpointOptionsSchema} before any query. */
export const auditEndpointOptionsSchema = optionsSchema({
  granularity: option.choice(['scores', 'rounded', 'top-k', 'label'], { required: true, description: 'what the endpoint returns per record' }),
  topK: option.integer({ min: 1, default: 3, description: "k of the endpoint's top-k answers, and of the top-k view derived from finer answers" }),
  decimals: option.integer({ min: 0, max: 12, default: 2, description: 'digits of rounded answers, and of the rounded view derived from probabilities' }),
  budget: option.integer({ min: 1, required: true, description: 'distinct queries the audit may use in all, answers from the cache included' }),
  batchSize: option.integer({ min: 1, default: 64, description: 'queries per request' }),
  requestsPerSecond: option.number({ min: 0, exclusiveMin: true, description: 'requests started per second at most (absent: no limit)' }),
  retries: option.integer({ min: 0, default: 3, description: 'retries of a request that failed with a 5xx, a 429, a network error or a timeout' }),
  backoffMs: option.number({ min: 0, default: 250, description: 'wait before the first retry in ms, doubled before each next one' }),
  timeoutMs: option.number({ min: 0, exclusiveMin: true, default: 30000, description: 'time a request may take in ms' }),
  labelOnly: option.boolean({ default: true, description: 'run the label-only boundary-distance attack with the budget the metric attacks leave' }),
  initEvals: option.integer({ min: 1, default: 100, description: "the boundary search's directions of its first gradient estimate" }),
  maxEvals: option.integer({ min: 1, default: 10000, description: 'cap of the directions of one gradient estimate' }),
  initTrials: option.integer({ min: 1, default: 100, description: 'random draws tried to find a first point of another class' }),
  clipMin: option.number({ description: 'smallest input value of the boundary search (absent: the smallest value of the records)' }),
  clipMax: option.number({ description: 'largest input value of the boundary search (absent: the largest value of the records)' }),
  parallel: option.integer({ min: 1, default: 16, description: 'records searched at once (their queries share requests)' }),
  seed: option.integer({ default: 0, description: 'seed of the boundary search' }),
});

/** Options of {@link auditEndpoint}: its params ({@link auditEndpointOptionsSchema}) and what is not data. */
export interface AuditEndpointOptions {
  readonly granularity: EndpointGranularity;
  /** @default 3 */
  readonly topK?: number;
  /** @default 2 */
  readonly decimals?: number;
  /** Distinct queries in all (answers recorded by an interrupted run of the same audit included); at least one per record. */
  readonly budget: number;
  /** @default 64 */
  readonly batchSize?: number;
  /** @default no limit */
  readonly requestsPerSecond?: number;
  /** @default 3 */
  readonly retries?: number;
  /** @default 250 */
  readonly backoffMs?: number;
  /** @default 30000 */
  readonly timeoutMs?: number;
  /** @default true */
  readonly labelOnly?: boolean;
  /** Boundary search (see `boundaryDistances`). @default 100, 10000, 100 */
  readonly initEvals?: number;
  readonly maxEvals?: number;
  readonly initTrials?: number;
  /** @default the records' smallest and largest input value */
  readonly clipMin?: number;
  readonly clipMax?: number;
  /** @default 16 */
  readonly parallel?: number;
  /** @default 0 */
  readonly seed?: number;
  /** Where answers are recorded after every batch, so that an interrupted audit resumes without repeating a query. */
  readonly cache?: EndpointQueryCache;
  /** Stops the audit before its next request (the request in flight is finished and recorded); it then rejects with `AbortError`. */
  readonly signal?: AbortSignal;
  /** Progress: the phase and the distinct queries used so far, after each batch. */
  readonly onProgress?: (progress: { readonly phase: 'metric' | 'label-only'; readonly used: number; readonly budget: number }) => void;
}

/** One attack on the endpoint's answers: what it used and how much it leaks (threshold-free, thresholds chosen on the same records). */
export interface EndpointAuditRow {
  readonly attack: string;
  /** The granularity of the answers it reads. */
  readonly granularity: EndpointGranularity;
  /** True when those answers were derived from the endpoint's finer ones (no extra query). */
  readonly derived: boolean;
  /** Distinct queries the audit had used when this attack's scores were ready. */
  readonly queries: number;
  readonly auc: number;
  /** Best-threshold advantage TPR − FPR. */
  readonly advantage: number;
  readonly balancedAccuracy: number;
  readonly tprAtFpr: ReadonlyArray<{ readonly fpr: number; readonly tpr: number; readonly achievedFpr: number }>;
}

/** What {@link auditEndpoint} found. */
export interface EndpointAuditReport {
  /** What the endpoint returns. */
  readonly granularity: EndpointGranularity;
  readonly members: number;
  readonly nonMembers: number;
  /** Every attack, by query cost: the metric attacks on the clean answers (finest granularity first), then the label-only attack. */
  readonly rows: readonly EndpointAuditRow[];
  /** Per granularity, finest first: its most leaking attack. */
  readonly leakage: ReadonlyArray<{ readonly granularity: EndpointGranularity; readonly attack: string; readonly advantage: number; readonly auc: number }>;
  readonly queries: EndpointQueryCounts & { readonly budget: number };
  /** Why an attack did not run, and similar. */
  readonly notes: readonly string[];
}
