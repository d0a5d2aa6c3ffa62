import { InvalidArgumentError } from '@mia/core';
import type { ModelSignals, SplitSignals } from './model-signals';
import { toMembershipArray } from './validate-input';

type Typed = Float64Array | Float32Array | Uint8Array | Int32Array;

/**
 * The signals of the examples at `indices`, in that order (every field, queries and flip counts included).
 * @throws InvalidArgumentError on an index outside `[0, size)`.
 */
export function selectSignals(signals: ModelSignals, indices: ArrayLike<number>): ModelSignals {
  const idx = Int32Array.from(indices);
  idx.forEach((i) => {
    if (i < 0 || i >= signals.size) throw new InvalidArgumentError(`selectSignals: indices must be in [0, ${signals.size - 1}], got ${i}`);
  });
  const c = signals.numClasses;
  const rows = <T extends Typed>(a: T | undefined, width = 1): T | undefined => {
    if (a === undefined) return undefined;
    const out = new (a.constructor as new (n: number) => T)(idx.length * width);
    idx.forEach((i, k) => out.set(a.subarray(i * width, (i + 1) * width), k * width));
    return out;
  };
  return {
    size: idx.length,
    numClasses: c,
    labels: rows(signals.labels)!,
    logits: rows(signals.logits, c),
    probabilities: rows(signals.probabilities, c),
    loss: rows(signals.loss)!,
    trueProbability: rows(signals.trueProbability)!,
    phi: rows(signals.phi)!,
    maxProbability: rows(signals.maxProbability),
    entropy: rows(signals.entropy),
    modifiedEntropy: rows(signals.modifiedEntropy),
    correct: rows(signals.correct),
    gradientNorm: rows(signals.gradientNorm),
    boundaryDistance: rows(signals.boundaryDistance),
    queries: signals.queries?.map((q) => selectSignals(q, idx)),
    flipCounts: signals.flipCounts?.map((f) => rows(f)!),
    flips: signals.flips,
  };
}

/**
 * Splits one model's signals into members and non-members (e.g. a score file with a membership column).
 * @throws InvalidArgumentError when `isMember` is not 0/1 or booleans, or one side is empty;
 *   ShapeMismatchError when its length differs from `signals.size`.
 */
export function splitSignals(signals: ModelSignals, isMember: ArrayLike<number | boolean>): SplitSignals {
  const m = toMembershipArray('splitSignals', 'isMember', isMember, signals.size);
  const members = [...m.keys()].filter((i) => m[i] === 1);
  const nonMembers = [...m.keys()].filter((i) => m[i] === 0);
  if (members.length === 0 || nonMembers.length === 0) {
    throw new InvalidArgumentError(
      `splitSignals: isMember must contain both members and non-members, got ${members.length} members and ${nonMembers.length} non-members`,
    );
  }
  return { members: selectSignals(signals, members), nonMembers: selectSignals(signals, nonMembers) };
}
