import { evaluate, type LabeledData, type TrainingPlugin } from '@mia/core';

/** A training observer that measures accuracy on a validation slice after every epoch. */
export interface ValidationMonitor {
  /** The plugin to add to a training run (an observer: eval mode, no state changes). */
  readonly plugin: TrainingPlugin;
  /** Accuracy after each epoch seen so far, in order (1-based epoch = index + 1). */
  readonly curve: readonly number[];
}

/**
 * Watches a unit's training on its validation slice (docs/protocol.md A11): after every epoch the
 * model is evaluated in eval mode (BN running statistics untouched, no random state used), so the
 * trained model is the same as without the monitor. The runner stores the curve with the unit
 * (`trainingMetrics.target.validationCurve`): early-stopping controls read their epoch off it.
 */
export function validationMonitor(validation: LabeledData, log?: (line: string) => void): ValidationMonitor {
  const curve: number[] = [];
  return {
    curve,
    plugin: {
      name: 'validationMonitor',
      onEpochEnd(info) {
        const { accuracy } = evaluate(info.model, validation, { batchSize: 256 });
        curve.push(accuracy);
        log?.(`epoch ${info.epoch + 1}: validation accuracy ${(100 * accuracy).toFixed(1)} %`);
      },
    },
  };
}
