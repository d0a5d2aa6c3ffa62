import { checkPositiveInteger, deriveSeed, seededRandom, type LabeledData } from '@mia/core';

/** Stateless source of the non-member batch of each training step. @internal */
export interface NonMemberBatches {
  /** Indices into the non-member data of the batch used at 0-based training step `step`. */
  indicesAt(step: number): Int32Array;
}

/**
 * Reproduces PASTr's `target_inference` loader as the PAST tuning loop consumes it: shuffled
 * batches of `batchSize` (the last one of a pass may be smaller, no `drop_last`), and when a pass
 * is exhausted a new shuffled pass starts. Step `s` always gets the same batch for a given seed, so
 * runs resumed from a checkpoint see the same non-member batches as uninterrupted ones.
 *
 * @see docs/protocol.md §4.1 step 2.1, §7 A15.
 * @internal
 */
export function nonMemberBatches(fn: string, data: LabeledData, batchSize: number, seed: number): NonMemberBatches {
  checkPositiveInteger(fn, 'batchSize', batchSize);
  const perPass = Math.ceil(data.size / batchSize);
  let cachedPass = -1;
  let order: Int32Array = new Int32Array(0);
  return {
    indicesAt(step) {
      const pass = Math.floor(step / perPass);
      if (pass !== cachedPass) {
        order = seededRandom(deriveSeed(seed, 'nonMembers', pass)).permutation(data.size);
        cachedPass = pass;
      }
      const start = (step % perPass) * batchSize;
      return order.slice(start, Math.min(start + batchSize, data.size));
    },
  };
}
