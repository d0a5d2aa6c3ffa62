import { InvalidArgumentError, describeValue } from '@mia/core';
import { metricAttack, type MetricAttack } from '../index';

/** Options of {@link boundaryDistanceAttack}. */
export interface BoundaryDistanceAttackOptions {
  /** Report name. @default 'boundary-distance' */
  readonly name?: string;
}

/**
 * The label-only boundary-distance attack: score = the record's distance to the decision boundary
 * (`ModelSignals.boundaryDistance`, from `boundaryDistances`; larger = more likely member, 0 for a
 * misclassified record), one global threshold fitted on the shadow signals by balanced accuracy
 * (ART's `calibrate_distance_threshold` fits one τ on known members and non-members the same way).
 *
 * @param options - {@link BoundaryDistanceAttackOptions}.
 * @returns A shadow attack; its `prepare` and `score` throw, naming the field, when the signals have no `boundaryDistance`.
 * @see Choquette-Choo, Tramèr, Carlini & Papernot, "Label-Only Membership Inference Attacks", ICML 2021, §4.
 */
export function boundaryDistanceAttack(options: BoundaryDistanceAttackOptions = {}): MetricAttack {
  const name = options.name ?? 'boundary-distance';
  if (typeof name !== 'string' || name === '')
    throw new InvalidArgumentError(`boundaryDistanceAttack: name must be a non-empty string, got ${describeValue(name)}`);
  return metricAttack(
    (signals) => {
      if (signals.boundaryDistance === undefined)
        throw new InvalidArgumentError(`${name}: the signals have no boundaryDistance; add boundaryDistance: (await boundaryDistances(oracle, data)).distance`);
      return Float64Array.from(signals.boundaryDistance);
    },
    { name, mode: 'global' },
  );
}
