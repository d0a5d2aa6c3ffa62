import { checkNonNegativeInteger, checkNumberInRange, checkPositiveInteger, deriveSeed, seededRandom } from '@mia/core';
import { cutAtFractions, partition, type ModelSplit, type Partition } from './partition';

/** A named way to split a dataset; `split(n, seed)` makes the {@link Partition}. */
export interface PartitionPreset {
  readonly name: string;
  split(n: number, seed: number): Partition;
}

function equalSlices(name: string, roles: readonly string[]): PartitionPreset & { readonly roles: readonly string[] } {
  return { name, roles, split: (n, seed) => partition(n, roles.length, seed, roles, name) };
}

/** PAST: six equal slices (docs/protocol.md §1.2). CIFAR 10 000, Purchase 32 887, Texas 11 221 each. */
export const PAST6 = equalSlices('PAST6', ['target_train', 'target_inference', 'target_test', 'shadow_train', 'shadow_inference', 'shadow_test']);
/** CCL: four equal slices (docs/protocol.md §1.3). CIFAR 15 000, Purchase 49 331, Texas 16 832 each. */
export const CCL4 = equalSlices('CCL4', ['target_train', 'target_test', 'shadow_train', 'shadow_test']);
/** CCL with one shared inference set: five equal slices (docs/protocol.md §1.3). CIFAR 12 000 each. */
export const CCL5 = equalSlices('CCL5', ['target_train', 'target_test', 'inference', 'shadow_train', 'shadow_test']);
/** RelaxLoss: five equal slices (docs/protocol.md §1.4, §1.8). CIFAR 12 000 each. */
export const RELAX5 = equalSlices('RELAX5', ['target_train', 'target_test', 'shadow_train', 'shadow_test', 'pseudo_test']);

/** Splits `indices` in two seeded halves: `⌊len/2⌋` and the rest. */
function halves(indices: readonly number[], seed: number): ModelSplit {
  const order = seededRandom(seed).permutation(indices.length);
  const half = Math.floor(indices.length / 2);
  const pick = (from: number, to: number): number[] => Array.from(order.subarray(from, to), (j) => indices[j]!);
  return { train: pick(0, half), test: pick(half, indices.length) };
}

/**
 * SELENA / SharpReg (docs/protocol.md §1.5): members = the first `⌊trainFraction·n⌋` of a seeded
 * permutation, split 50/50 into `tr` (attacker knows) and `te` (evaluated); `ref` = the next
 * `refFraction·n` (reference non-members the attacker knows); `test` = the rest (evaluation non-members).
 * Purchase: `SELENA(0.1, 0.15)` → 9 866 / 9 866 / 29 599 / 147 993. Texas: `SELENA(10000/67330, 0.3)` → 5 000 / 5 000 / 20 199 / 37 131.
 */
export function SELENA(trainFraction: number, refFraction: number): PartitionPreset {
  checkNumberInRange('SELENA', 'trainFraction', trainFraction, 0, 1);
  checkNumberInRange('SELENA', 'refFraction', refFraction, 0, 1 - trainFraction);
  const name = `SELENA(${trainFraction}, ${refFraction})`;
  return {
    name,
    split(n, seed) {
      checkPositiveInteger('SELENA', 'n', n);
      checkNonNegativeInteger('SELENA', 'seed', seed);
      const [members, ref, test] = cutAtFractions(seededRandom(seed).permutation(n), [trainFraction, trainFraction + refFraction]);
      const { train: tr, test: te } = halves(members!, deriveSeed(seed, 'selena-members'));
      return { preset: name, n, seed, roles: { tr, te, ref: ref!, test: test! } };
    },
  };
}

/**
 * CRL (docs/protocol.md §1.6): a seeded 50/50 target/shadow split; the target pool split 50/50 into
 * `target_train` / `target_test`; then `k` independent 50/50 splits of `shadow_pool`, one per shadow
 * model (`models[i]`). CIFAR: 15 000 / 15 000 and k shadow splits of 15 000 / 15 000.
 */
export function CRL(k = 5): PartitionPreset {
  checkPositiveInteger('CRL', 'k', k);
  const name = `CRL(${k})`;
  return {
    name,
    split(n, seed) {
      checkPositiveInteger('CRL', 'n', n);
      checkNonNegativeInteger('CRL', 'seed', seed);
      const pools = halves(
        Array.from({ length: n }, (_, i) => i),
        seed,
      );
      const target = halves(pools.train, deriveSeed(seed, 'crl-target'));
      const models = Array.from({ length: k }, (_, i) => halves(pools.test, deriveSeed(seed, 'crl-shadow', i)));
      return { preset: name, n, seed, roles: { target_train: target.train, target_test: target.test, shadow_pool: pools.test }, models };
    },
  };
}

/**
 * LiRA / RMIA pairs (docs/protocol.md §1.7): for each of `P` pairs a fresh seeded permutation; model 2i
 * keeps the first `⌊n/2⌋`, model 2i+1 the complementary rest, so every point is a member of exactly
 * one model of each pair. Model 0 is the target, model 1 its pair, the rest are references.
 */
export function PAIRS(pairs: number): PartitionPreset {
  checkPositiveInteger('PAIRS', 'pairs', pairs);
  const name = `PAIRS(${pairs})`;
  return {
    name,
    split(n, seed) {
      checkPositiveInteger('PAIRS', 'n', n);
      checkNonNegativeInteger('PAIRS', 'seed', seed);
      const all = Array.from({ length: n }, (_, i) => i);
      const models: ModelSplit[] = [];
      for (let p = 0; p < pairs; p++) {
        const { train, test } = halves(all, deriveSeed(seed, 'pairs', p));
        models.push({ train, test }, { train: test, test: train });
      }
      return { preset: name, n, seed, roles: {}, models };
    },
  };
}
