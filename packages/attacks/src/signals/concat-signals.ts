import { InvalidArgumentError, ShapeMismatchError } from '@mia/core';
import type { ModelSignals } from './model-signals';

type Typed = Float64Array | Float32Array | Uint8Array | Int32Array;

function joinField<T extends Typed>(parts: readonly ModelSignals[], pick: (s: ModelSignals) => T | undefined): T | undefined {
  const arrays = parts.map(pick);
  if (arrays.some((a) => a === undefined)) return undefined;
  const first = arrays[0]!;
  const out = new (first.constructor as new (n: number) => T)(arrays.reduce((n, a) => n + a!.length, 0));
  let offset = 0;
  for (const a of arrays) {
    out.set(a!, offset);
    offset += a!.length;
  }
  return out;
}

/**
 * Concatenates signals of the same model kind over several example sets (e.g. the members of k
 * shadow models pooled for NN-CRL, or members followed by non-members). A field is kept only when
 * every part has it; queries and flip counts are joined per query.
 *
 * @param parts - At least one {@link ModelSignals}, all with the same `numClasses` (and query count).
 * @returns One {@link ModelSignals} with the examples of `parts` in order.
 * @throws InvalidArgumentError on an empty list; ShapeMismatchError when the class or query counts differ.
 */
export function concatSignals(parts: readonly ModelSignals[]): ModelSignals {
  const fn = 'concatSignals';
  if (!Array.isArray(parts) || parts.length === 0) throw new InvalidArgumentError(`${fn}: parts must be a non-empty array of ModelSignals`);
  if (parts.length === 1) return parts[0]!;
  const c = parts[0]!.numClasses;
  for (const [k, s] of parts.entries()) {
    if (s.numClasses !== c) throw new ShapeMismatchError(`${fn}: parts[${k}].numClasses must be ${c}, got ${s.numClasses}`);
  }
  const queryCounts = new Set(parts.map((s) => s.queries?.length ?? 0));
  if (queryCounts.size > 1) throw new ShapeMismatchError(`${fn}: every part must have the same number of queries, got ${[...queryCounts].join(', ')}`);
  const q = parts[0]!.queries?.length ?? 0;
  const flipCounts = parts.every((s) => s.flipCounts !== undefined && s.flipCounts.length === parts[0]!.flipCounts!.length)
    ? parts[0]!.flipCounts!.map((_: Float64Array, k: number) => joinField(parts, (s) => s.flipCounts![k])!)
    : undefined;
  return {
    size: parts.reduce((n, s) => n + s.size, 0),
    numClasses: c,
    labels: joinField(parts, (s) => s.labels)!,
    logits: joinField(parts, (s) => s.logits),
    probabilities: joinField(parts, (s) => s.probabilities),
    loss: joinField(parts, (s) => s.loss)!,
    trueProbability: joinField(parts, (s) => s.trueProbability)!,
    phi: joinField(parts, (s) => s.phi)!,
    maxProbability: joinField(parts, (s) => s.maxProbability),
    entropy: joinField(parts, (s) => s.entropy),
    modifiedEntropy: joinField(parts, (s) => s.modifiedEntropy),
    correct: joinField(parts, (s) => s.correct),
    gradientNorm: joinField(parts, (s) => s.gradientNorm),
    boundaryDistance: joinField(parts, (s) => s.boundaryDistance),
    queries: q > 0 ? Array.from({ length: q }, (_, a) => concatSignals(parts.map((s) => s.queries![a]!))) : undefined,
    flipCounts,
    flips: flipCounts === undefined ? undefined : parts[0]!.flips,
  };
}
