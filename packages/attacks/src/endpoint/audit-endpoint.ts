import { AbortError, InvalidArgumentError, describeValue } from '@mia/core';
import { summarizeScores } from '@mia/metrics';
import {
  auditEndpointOptionsSchema,
  type AuditEndpointOptions,
  type EndpointAuditReport,
  type EndpointAuditRow,
  type EndpointRecords,
} from './audit-endpoint-options';
import { ENDPOINT_GRANULARITIES, type EndpointAnswer, type EndpointGranularity, type EndpointOutput } from './endpoint-answer';
import { createEndpointClient, type EndpointPredict } from './endpoint-client';
import { queryKey } from './endpoint-query-cache';
import { checkRecords, labelOnlyDistances, type CheckedRecords } from './endpoint-records';
import { granularityViews, viewStatistics } from './granularity-views';
import { httpPredict } from './http-predict';

type Params = ReturnType<typeof auditEndpointOptionsSchema.parse>;

/** Summary of one attack's scores as a report row. */
function row(
  attack: string,
  view: { granularity: EndpointGranularity; derived: boolean },
  scores: Float64Array,
  isMember: Uint8Array,
  queries: number,
): EndpointAuditRow {
  const m = summarizeScores(scores, isMember, { fprs: [0.01, 0.001, 0] });
  return {
    attack,
    granularity: view.granularity,
    derived: view.derived,
    queries,
    auc: m.auc,
    advantage: m.advantage,
    balancedAccuracy: m.balancedAccuracy,
    tprAtFpr: m.tprAtFpr.map((t) => ({ fpr: t.fpr, tpr: t.tpr, achievedFpr: t.achievedFpr })),
  };
}

/**
 * Audits a model behind a prediction endpoint, black-box, under a query budget: sends each record
 * once and runs the metric attacks on the answers at the endpoint's granularity and at every coarser
 * one derived from them (confidence, max confidence, entropy, modified entropy, correctness: no
 * extra query), then spends the rest of the budget on the label-only boundary-distance attack
 * (HopSkipJump on the predicted labels, ⌊budget / n⌋ queries per record, the record's own query
 * included). Reports, per attack, the AUC, the best advantage TPR − FPR and TPR at 1 %, 0.1 % and 0 %
 * FPR (scores higher = more likely member; thresholds chosen on the same records, so optimistic)
 * against the queries used, and which granularity leaks most. Answers go to `cache` after every
 * batch: an audit killed or aborted part-way and run again with the same cache sends no query twice.
 *
 * @param endpoint - An http(s) URL ({@link httpPredict}'s JSON protocol) or an {@link EndpointPredict}.
 * @param records - {@link EndpointRecords}.
 * @param options - {@link AuditEndpointOptions}; the params are validated whole before any query.
 * @returns The {@link EndpointAuditReport}.
 * @throws InvalidArgumentError / ShapeMismatchError on bad options or records (a budget below one
 *   query per record); EndpointError naming the records of a request that failed after its retries,
 *   or of an answer of the wrong shape; AbortError when `signal` fires.
 * @see Choquette-Choo et al., "Label-Only Membership Inference Attacks", ICML 2021 (label-only,
 *   boundary distance); Song & Mittal, "Systematic Evaluation of Privacy Risks", USENIX Security 2021 (metric attacks).
 */
export async function auditEndpoint(endpoint: string | EndpointPredict, records: EndpointRecords, options: AuditEndpointOptions): Promise<EndpointAuditReport> {
  const fn = 'auditEndpoint';
  const { cache, signal, onProgress, ...params } = options ?? ({} as AuditEndpointOptions);
  const o = auditEndpointOptionsSchema.parse(params, fn);
  if (o.clipMin !== undefined && o.clipMax !== undefined && !(o.clipMin < o.clipMax))
    throw new InvalidArgumentError(`${fn}: clipMin must be below clipMax (${o.clipMax}), got ${o.clipMin}`);
  const predict = typeof endpoint === 'string' ? httpPredict(endpoint) : endpoint;
  if (typeof predict !== 'function')
    throw new InvalidArgumentError(`${fn}: endpoint must be an http(s) URL or a predict function, got ${describeValue(endpoint)}`);
  const data = checkRecords(records);
  const n = data.ids.length;
  if (o.budget < n) throw new InvalidArgumentError(`${fn}: budget must allow one query per record (${n}), got ${o.budget}`);
  const output: EndpointOutput = {
    granularity: o.granularity,
    ...(o.granularity === 'top-k' ? { topK: o.topK } : {}),
    ...(o.granularity === 'rounded' ? { decimals: o.decimals } : {}),
  };
  let phase: 'metric' | 'label-only' = 'metric';
  const client = await createEndpointClient(predict, {
    output,
    budget: o.budget,
    batchSize: o.batchSize,
    requestsPerSecond: o.requestsPerSecond ?? Infinity,
    retries: o.retries,
    backoffMs: o.backoffMs,
    timeoutMs: o.timeoutMs,
    ...(cache === undefined ? {} : { cache }),
    ...(signal === undefined ? {} : { signal }),
    onBatch: (used) => onProgress?.({ phase, used, budget: o.budget }),
  });
  const answers = await client.ask(data.ids.map((id, i) => ({ id, key: queryKey(data.rows[i]!), features: Array.from(data.rows[i]!) })));
  const rows = metricRows(answers, data, o);
  const notes: string[] = [];
  const perRecord = Math.floor(o.budget / n);
  if (!o.labelOnly) notes.push('boundary-distance not run: labelOnly is false');
  else if (perRecord < 2)
    notes.push(`boundary-distance not run: the budget (${o.budget}) leaves no label query beyond each record's own; give at least ${2 * n}`);
  else {
    if (signal?.aborted === true) throw new AbortError(`${fn}: aborted before the label-only attack; the answers so far are in the cache`);
    phase = 'label-only';
    const distance = await labelOnlyDistances(client, data, o, perRecord);
    rows.push(row('boundary-distance', { granularity: 'label', derived: o.granularity !== 'label' }, distance, data.isMember, client.counts().used));
  }
  return report(o, data.isMember, rows, { ...client.counts(), budget: o.budget }, notes);
}

/** The metric attacks on the clean answers, at every granularity they reveal. */
function metricRows(answers: readonly EndpointAnswer[], data: CheckedRecords, o: Params): EndpointAuditRow[] {
  const queries = data.ids.length;
  return granularityViews(answers, o.granularity, o).flatMap((view) =>
    viewStatistics(view, data.y).map(({ attack, scores }) => row(attack, view, scores, data.isMember, queries)),
  );
}

/** The report: rows by query cost, the most leaking attack of each granularity. */
function report(o: Params, isMember: Uint8Array, rows: EndpointAuditRow[], queries: EndpointAuditReport['queries'], notes: string[]): EndpointAuditReport {
  const members = isMember.reduce((a, m) => a + m, 0);
  const leakage = ENDPOINT_GRANULARITIES.flatMap((granularity) => {
    const of = rows.filter((r) => r.granularity === granularity);
    if (of.length === 0) return [];
    const best = of.reduce((a, b) => (b.advantage > a.advantage ? b : a));
    return [{ granularity, attack: best.attack, advantage: best.advantage, auc: best.auc }];
  });
  return { granularity: o.granularity, members, nonMembers: isMember.length - members, rows, leakage, queries, notes };
}
