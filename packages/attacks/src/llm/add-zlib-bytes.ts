import { InvalidArgumentError } from '@mia/core';
import type { TokenLogprobRecord } from './token-logprob-record';
import { zlibByteLength } from './zlib-byte-length';

/**
 * Records with `zlibBytes` filled in from their `text` (records that already have it are kept as
 * they are), for the zlib attack.
 *
 * @param records - The records.
 * @returns New records (the inputs are not changed), in order.
 * @throws InvalidArgumentError naming the first record with neither `zlibBytes` nor `text`.
 */
export async function addZlibBytes(records: readonly TokenLogprobRecord[]): Promise<TokenLogprobRecord[]> {
  return Promise.all(
    records.map(async (record, i) => {
      if (record.zlibBytes !== undefined) return record;
      if (typeof record.text !== 'string')
        throw new InvalidArgumentError(`addZlibBytes: records[${i}] (id ${JSON.stringify(record.id)}) must have text or zlibBytes, got neither`);
      return { ...record, zlibBytes: await zlibByteLength(record.text) };
    }),
  );
}
