import { checkConfidence } from './clopper-pearson';
import { MetricsError } from './metrics-error';
import { scoreBlocks, sortedAscending, type ScoreBlocks } from './score-blocks';
import { seededUniform } from './seeded-uniform';
import { checkInteger, describe, splitScores, type Membership, type Scores } from './validate';
import type { BootstrapInterval, BootstrapOptions } from './bootstrap';

/** Validated bootstrap options and the generator of the draws (internal). */
export function bootstrapSettings(fn: string, { resamples = 1000, confidence = 0.95, seed = 0, random }: BootstrapOptions) {
  checkInteger(fn, 'resamples', resamples, 1);
  checkConfidence(fn, confidence);
  if (random !== undefined && typeof random !== 'function') throw new MetricsError(`${fn}: random must be a function, got ${describe(random)}`);
  if (random === undefined) checkInteger(fn, 'seed', seed, -(2 ** 53) + 1);
  // A caller's generator is checked on every draw; the built-in one needs no check.
  const uniform =
    random === undefined
      ? seededUniform(seed)
      : () => {
          const u = random();
          if (!(u >= 0 && u < 1)) throw new MetricsError(`${fn}: random() must return numbers in [0, 1), got ${describe(u)}`);
          return u;
        };
  return { resamples, confidence, uniform };
}

/**
 * One stratified resample with replacement, as multiplicities: `draws[k]` = times entry k came up in
 * n draws of entry `floor(u·n)`, `u` from `uniform`, for the n entries of `draws` (internal). The
 * bootstraps draw the members (in ascending score order), then the non-members.
 */
export function countDraws(draws: Float64Array | Int32Array, uniform: () => number): void {
  draws.fill(0);
  const n = draws.length;
  for (let i = 0; i < n; i++) draws[Math.floor(uniform() * n)]! += 1;
}

/** The percentile interval of resampled values (numpy's `linear` quantiles) around `estimate` (internal). */
export function percentileInterval(estimate: number, samples: Float64Array, confidence: number): BootstrapInterval {
  const sorted = Float64Array.from(samples).sort();
  const alpha = 1 - confidence;
  return { estimate, lower: quantile(sorted, alpha / 2), upper: quantile(sorted, 1 - alpha / 2), confidence, samples };
}

/**
 * Percentile bootstrap interval of a statistic of the tie blocks, on stratified resamples (internal
 * to `@mia/metrics`). A resample only changes how many entries each tie block holds: the draws are
 * counted into the blocks of the full data and the blocks a resample leaves empty are dropped (as
 * scoreBlocks does), so each resample costs n draws and a pass over the blocks, with no merge.
 */
export function bootstrapBlocks(
  fn: string,
  scores: Scores,
  isMember: Membership,
  statistic: (blocks: ScoreBlocks) => number,
  options: BootstrapOptions,
): BootstrapInterval {
  const { members, nonMembers } = splitScores(fn, scores, isMember);
  const { resamples, confidence, uniform } = bootstrapSettings(fn, options);
  const evaluate = (blocks: ScoreBlocks): number => {
    const value = statistic(blocks);
    if (typeof value !== 'number' || Number.isNaN(value)) throw new MetricsError(`${fn}: statistic must return a number (not NaN), got ${describe(value)}`);
    return value;
  };
  const sortedMembers = sortedAscending(members);
  const sortedNonMembers = sortedAscending(nonMembers);
  const blocks = scoreBlocks(sortedMembers, sortedNonMembers);
  const estimate = evaluate(blocks);
  const memberBlock = blockIndices(sortedMembers, blocks);
  const nonMemberBlock = blockIndices(sortedNonMembers, blocks);
  const memberDraws = new Float64Array(members.length);
  const nonMemberDraws = new Float64Array(nonMembers.length);
  const memberCounts = new Float64Array(blocks.length);
  const nonMemberCounts = new Float64Array(blocks.length);
  const resampled: ScoreBlocks = {
    values: new Float64Array(blocks.length),
    members: new Float64Array(blocks.length),
    nonMembers: new Float64Array(blocks.length),
    length: 0,
    totalMembers: members.length,
    totalNonMembers: nonMembers.length,
  };
  const samples = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    countDraws(memberDraws, uniform);
    countDraws(nonMemberDraws, uniform);
    addToBlocks(memberCounts, memberBlock, memberDraws);
    addToBlocks(nonMemberCounts, nonMemberBlock, nonMemberDraws);
    let length = 0;
    for (let b = 0; b < blocks.length; b++) {
      const m = memberCounts[b]!;
      const n = nonMemberCounts[b]!;
      if (m + n === 0) continue;
      resampled.values[length] = blocks.values[b]!;
      resampled.members[length] = m;
      resampled.nonMembers[length] = n;
      length++;
    }
    resampled.length = length;
    samples[r] = evaluate(resampled);
  }
  return percentileInterval(estimate, samples, confidence);
}

/** The tie block (index into `blocks`, descending scores) of each entry of `sorted` (ascending). */
function blockIndices(sorted: Float64Array, blocks: ScoreBlocks): Int32Array {
  const out = new Int32Array(sorted.length);
  let b = blocks.length - 1;
  for (let k = 0; k < sorted.length; k++) {
    // `!==` joins -0 and +0 as scoreBlocks does; every entry's value has a block.
    while (blocks.values[b] !== sorted[k]) b--;
    out[k] = b;
  }
  return out;
}

/** `counts[b]` = the draws of the entries in block b. */
function addToBlocks(counts: Float64Array, blockOf: Int32Array, draws: Float64Array): void {
  counts.fill(0);
  for (let k = 0; k < draws.length; k++) counts[blockOf[k]!]! += draws[k]!;
}

/** Quantile of sorted values with linear interpolation (numpy `method='linear'`). */
function quantile(sorted: Float64Array, q: number): number {
  const position = q * (sorted.length - 1);
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (position - below) * (sorted[above]! - sorted[below]!);
}
