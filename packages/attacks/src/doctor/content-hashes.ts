import { InvalidArgumentError } from '@mia/core';

/** Records longer than this are hashed on this many evenly spaced values (a CIFAR image: every twelfth). */
export const HASHED_VALUES = 256;

/**
 * A content hash of every record: 64 bits (two 32-bit FNV-1a lanes over the bit patterns of its
 * float32 values, at most {@link HASHED_VALUES} evenly spaced ones, and its length) as 16 hex
 * digits, so that two records with the same content (a duplicate across splits) have the same hash
 * whatever their index. Two different records collide when they agree at every hashed value (for
 * long records: a near-copy, which counts as a copy too) or by chance (~n²/2⁶⁵).
 *
 * @param values - Row-major records, `recordLength` numbers each.
 * @param recordLength - Numbers per record (≥ 1).
 * @returns One hash per record.
 * @throws InvalidArgumentError when `values.length` is not a multiple of `recordLength`.
 */
export function contentHashes(values: Float32Array, recordLength: number): string[] {
  if (!Number.isInteger(recordLength) || recordLength < 1 || values.length % recordLength !== 0)
    throw new InvalidArgumentError(`contentHashes: values must hold whole records of recordLength (${recordLength}) numbers, got ${values.length} numbers`);
  const words = new Uint32Array(values.buffer, values.byteOffset, values.length);
  const out: string[] = [];
  const count = Math.min(recordLength, HASHED_VALUES);
  const offsets = Uint32Array.from({ length: count }, (_, k) => Math.floor((k * recordLength) / count));
  for (let start = 0; start < words.length; start += recordLength) {
    let a = 0x811c9dc5;
    let b = 0x01000193 ^ recordLength;
    for (let k = 0; k < count; k++) {
      const w = words[start + offsets[k]!]!;
      a = Math.imul(a ^ w, 0x01000193);
      b = Math.imul(b ^ ((w >>> 16) | (w << 16)), 0x5bd1e995);
      b ^= b >>> 15;
    }
    out.push((a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0'));
  }
  return out;
}
