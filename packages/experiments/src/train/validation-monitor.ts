import * as tf from '@tensorflow/tfjs-core';
import { evaluate, type Classifier, type LabeledData, type TrainingPlugin } from '@mia/core';

/** A training observer that measures accuracy on a validation slice after every epoch. */
export interface ValidationMonitor {
  /** The plugin to add to a training run (an observer: eval mode, no state changes). */
  readonly plugin: TrainingPlugin;
  /** Accuracy after each epoch seen so far, in order (1-based epoch = index + 1). */
  readonly curve: readonly number[];
  /**
   * With `keepBest`: puts the weights and state (batch-norm statistics) of the best epoch so far (the
   * earliest of equal accuracies) back into `model` and returns that 1-based epoch; undefined when no
   * epoch was seen or `model` is not the model that was watched (e.g. a defense returned another).
   */
  restoreBest(model: Classifier): number | undefined;
  /** Frees the kept copy (call once training is over; idempotent). */
  dispose(): void;
}

/** Options of {@link validationMonitor}. */
export interface ValidationMonitorOptions {
  readonly log?: (line: string) => void;
  /** Keep a copy of the weights at the best validation accuracy (`training.checkpoint: 'best-validation'`). @default false */
  readonly keepBest?: boolean;
}

/**
 * Watches a unit's training on its validation slice (docs/protocol.md A11): after every epoch the
 * model is evaluated in eval mode (BN running statistics untouched, no random state used), so the
 * trained model is the same as without the monitor. The runner stores the curve with the unit
 * (`trainingMetrics.target.validationCurve`): early-stopping controls read their epoch off it. With
 * `keepBest`, a copy of every variable is kept at each new best epoch, for {@link ValidationMonitor.restoreBest}.
 */
export function validationMonitor(validation: LabeledData, options: ValidationMonitorOptions = {}): ValidationMonitor {
  const curve: number[] = [];
  let best: { epoch: number; accuracy: number; model: Classifier; values: tf.Tensor[] } | undefined;
  const release = () => {
    best?.values.forEach((t) => t.dispose());
    best = undefined;
  };
  const variablesOf = (model: Classifier) => [...model.trainableVariables, ...model.stateVariables];
  return {
    curve,
    plugin: {
      name: 'validationMonitor',
      onEpochEnd(info) {
        const { accuracy } = evaluate(info.model, validation, { batchSize: 256 });
        curve.push(accuracy);
        options.log?.(`epoch ${info.epoch + 1}: validation accuracy ${(100 * accuracy).toFixed(1)} %`);
        if (options.keepBest === true && (best === undefined || accuracy > best.accuracy || best.model !== info.model)) {
          release();
          best = { epoch: curve.length, accuracy, model: info.model, values: variablesOf(info.model).map((v) => tf.clone(v)) };
        }
      },
    },
    restoreBest(model) {
      if (best === undefined || best.model !== model) return undefined;
      const variables = variablesOf(model);
      if (variables.length !== best.values.length) return undefined;
      variables.forEach((v, i) => v.assign(best!.values[i]!));
      return best.epoch;
    },
    dispose: release,
  };
}
