import { deriveSeed, seededRandom, type LabeledData } from '@mia/core';

/** Cycles shuffled batches of `data` forever (reshuffled at each pass, seeded). @internal */
export function batchStream(data: LabeledData, batchSize: number, seed: number) {
  let pass = 0;
  let order = seededRandom(deriveSeed(seed, pass)).permutation(data.size);
  let at = 0;
  return () => {
    if (at >= data.size) {
      pass += 1;
      order = seededRandom(deriveSeed(seed, pass)).permutation(data.size);
      at = 0;
    }
    const batch = order.slice(at, Math.min(at + batchSize, data.size));
    at += batchSize;
    return batch;
  };
}
