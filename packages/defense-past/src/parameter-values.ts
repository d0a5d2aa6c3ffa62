import type { Classifier } from '@mia/core';

/** Options of {@link parameterValues}. */
export interface ParameterValuesOptions {
  /**
   * `'all'`: every trainable variable (weights, biases, BN), as PAST's Gini (Fig. 2b);
   * `'weights'`: the conv/dense/BN weights PAST regularises. @default 'all'
   */
  readonly include?: 'all' | 'weights';
}

/**
 * A copy of a classifier's parameters as one flat Float32Array, in `trainableVariables` (or
 * `parameterGroups`) order. Creates no lasting tensor.
 * @see docs/protocol.md §5 "Gini index" (which parameters are flattened).
 */
export function parameterValues(classifier: Classifier, options: ParameterValuesOptions = {}): Float32Array {
  const variables = options.include === 'weights' ? classifier.parameterGroups.map((g) => g.weight) : classifier.trainableVariables;
  const out = new Float32Array(variables.reduce((a, v) => a + v.size, 0));
  let offset = 0;
  for (const v of variables) {
    out.set(v.dataSync() as Float32Array, offset);
    offset += v.size;
  }
  return out;
}
