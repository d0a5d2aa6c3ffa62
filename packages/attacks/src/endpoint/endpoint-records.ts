import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, ShapeMismatchError, deriveSeed, describeValue } from '@mia/core';
import { boundaryDistances } from '../builtin/boundary-distances';
import type { LabelOracle } from '../label-only/label-oracle';
import { answerLabel } from './endpoint-answer';
import type { EndpointClient } from './endpoint-client';
import { queryKey } from './endpoint-query-cache';
import type { EndpointRecords } from './audit-endpoint-options';

/** The params of the label-only search (of `auditEndpointOptionsSchema`). */
interface SearchParams {
  readonly initEvals: number;
  readonly maxEvals: number;
  readonly initTrials: number;
  readonly clipMin?: number | undefined;
  readonly clipMax?: number | undefined;
  readonly parallel: number;
  readonly seed: number;
}

/** The audited records, checked: ids, one float32 row per record, labels, membership. */
export type CheckedRecords = ReturnType<typeof checkRecords>;

/** The records checked and flattened: ids, one float32 row per record, labels, membership. */
export function checkRecords(records: EndpointRecords): { ids: string[]; rows: Float32Array[]; y: Int32Array; isMember: Uint8Array } {
  const fn = 'auditEndpoint';
  const x = records?.x;
  if (typeof x?.shape !== 'object' || x.rank < 2 || x.shape[0]! < 2)
    throw new ShapeMismatchError(`${fn}: records.x must be a tensor [n ≥ 2, ...], got ${describeValue(x?.shape ?? x)}`);
  const n = x.shape[0]!;
  for (const key of ['y', 'isMember'] as const)
    if (records[key]?.length !== n)
      throw new ShapeMismatchError(`${fn}: records.${key} must hold ${n} values (one per row of x), got ${describeValue(records[key]?.length)}`);
  const y = Int32Array.from(records.y, (v, i) => {
    if (!Number.isInteger(v) || v < 0) throw new InvalidArgumentError(`${fn}: records.y[${i}] must be a non-negative integer label, got ${describeValue(v)}`);
    return v;
  });
  const isMember = Uint8Array.from(records.isMember, (v, i) => {
    if (v !== 0 && v !== 1) throw new InvalidArgumentError(`${fn}: records.isMember[${i}] must be 0 or 1, got ${describeValue(v)}`);
    return v;
  });
  const members = isMember.reduce((a, m) => a + m, 0);
  if (members === 0 || members === n) throw new InvalidArgumentError(`${fn}: records.isMember must hold members and non-members, got ${members} of ${n}`);
  const ids = records.ids === undefined ? Array.from({ length: n }, (_, i) => String(i)) : [...records.ids];
  if (ids.length !== n || ids.some((id) => typeof id !== 'string' || id === '') || new Set(ids).size !== n)
    throw new InvalidArgumentError(`${fn}: records.ids must be ${n} unique non-empty strings, got ${describeValue(records.ids)}`);
  const values = x.dataSync();
  const d = values.length / n;
  return { ids, rows: ids.map((_, i) => Float32Array.from(values.subarray(i * d, (i + 1) * d))), y, isMember };
}

/** A label oracle of one record over the client: every row it is asked about is a query of that record. */
function recordOracle(client: EndpointClient, id: string): LabelOracle {
  return async (x) => {
    const values = x.dataSync();
    const n = x.shape[0]!;
    const d = values.length / n;
    const rows = Array.from({ length: n }, (_, i) => Float32Array.from(values.subarray(i * d, (i + 1) * d)));
    const answers = await client.ask(rows.map((r) => ({ id, key: queryKey(r), features: Array.from(r) })));
    return Int32Array.from(answers, answerLabel);
  };
}

/** The label-only boundary distance of every record, `parallel` records at a time, each under `perRecord` queries. */
export async function labelOnlyDistances(client: EndpointClient, data: CheckedRecords, o: SearchParams, perRecord: number): Promise<Float64Array> {
  const { ids, rows, y } = data;
  let clipMin = o.clipMin;
  let clipMax = o.clipMax;
  for (const r of rows)
    for (const v of r) {
      if (o.clipMin === undefined) clipMin = Math.min(clipMin ?? Infinity, v);
      if (o.clipMax === undefined) clipMax = Math.max(clipMax ?? -Infinity, v);
    }
  const distance = new Float64Array(ids.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < ids.length; i = next++) {
      const x = tf.tensor2d(rows[i]!, [1, rows[i]!.length]);
      try {
        const params = { budget: perRecord, initEvals: o.initEvals, maxEvals: o.maxEvals, initTrials: o.initTrials, clipMin: clipMin!, clipMax: clipMax! };
        const out = await boundaryDistances(
          recordOracle(client, ids[i]!),
          { x, y: [y[i]!] },
          { ...params, seed: deriveSeed(o.seed, 'endpoint-boundary', ids[i]!) },
        );
        distance[i] = out.distance[0]!;
      } finally {
        x.dispose();
      }
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: Math.min(o.parallel, ids.length) }, worker));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
  return distance;
}
