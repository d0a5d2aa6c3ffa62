import { InvalidArgumentError, type Classifier } from '@mia/core';

/** The part of a tfjs-layers model that {@link checkNoBatchNorm} reads (`tf.LayersModel` has it). */
export interface LayersLike {
  readonly layers: ReadonlyArray<{ readonly name: string; getClassName(): string; readonly layers?: LayersLike['layers'] }>;
}

const isClassifier = (m: unknown): m is Classifier => typeof m === 'object' && m !== null && Array.isArray((m as Classifier).parameterGroups);

function batchNormLayers(layers: LayersLike['layers']): string[] {
  return layers.flatMap((l) => [...(l.getClassName() === 'BatchNormalization' ? [l.name] : []), ...(l.layers === undefined ? [] : batchNormLayers(l.layers))]);
}

/**
 * Refuses a model with batch normalization: in training mode an example's output, and so its
 * gradient, depends on the other examples of the batch through the batch statistics, so clipping
 * per-example gradients no longer bounds one example's influence and the DP guarantee does not hold.
 * Use a GroupNorm (or no-norm) variant for DP training. Reads a `Classifier` (its `batchnorm`
 * parameter groups and state variables) or a `tf.LayersModel` (its `BatchNormalization` layers,
 * nested models included).
 * @param fn - the calling function, named in the error.
 * @throws InvalidArgumentError naming the batch-norm modules.
 * @see Abadi et al. 2016 (arXiv:1607.00133) §3.1; docs/protocol.md §4.16
 */
export function checkNoBatchNorm(fn: string, model: Classifier | LayersLike): void {
  let found: string[];
  if (isClassifier(model)) {
    found = model.parameterGroups.filter((g) => g.kind === 'batchnorm').map((g) => g.name);
    if (found.length === 0) found = model.stateVariables.map((v) => v.name);
  } else found = batchNormLayers(model.layers);
  if (found.length === 0) return;
  const names = found.length > 4 ? `${found.slice(0, 4).join(', ')}, … (${found.length} in all)` : found.join(', ');
  throw new InvalidArgumentError(
    `${fn}: model must have no batch normalization (per-example DP does not hold when an example's gradient depends on the rest of the batch; use a GroupNorm variant), got batch-norm modules ${names}`,
  );
}
