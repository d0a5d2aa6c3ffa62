import type * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, type Classifier, type ParameterKind } from '@mia/core';

/** Which parameters PAST regularises. */
export interface RegularizedVariablesOptions {
  /** Module kinds whose weights get sensitivity and penalty. @default ['conv', 'dense', 'batchnorm'] */
  readonly kinds?: readonly ParameterKind[];
  /** Also regularise biases / BN shifts, each normalised over its own tensor (docs/protocol.md A14). @default false */
  readonly includeBiases?: boolean;
}

/** One regularised tensor and the module it belongs to. */
export interface RegularizedVariable {
  /** Module name, with `.bias` appended for biases. */
  readonly name: string;
  readonly kind: ParameterKind;
  readonly variable: tf.Variable;
}

/**
 * The variables PAST regularises: the `.weight` of every conv, dense and batch-norm module (the
 * authors' code; biases and BN β get nothing unless `includeBiases`).
 *
 * @throws InvalidArgumentError when the classifier has no matching parameter group.
 * @see docs/protocol.md §4.1 ("Modules"), §6 item 2, §7 A14.
 */
export function regularizedVariables(fn: string, classifier: Classifier, options: RegularizedVariablesOptions = {}): RegularizedVariable[] {
  const kinds = options.kinds ?? ['conv', 'dense', 'batchnorm'];
  const out: RegularizedVariable[] = [];
  for (const group of classifier.parameterGroups) {
    if (!kinds.includes(group.kind)) continue;
    out.push({ name: group.name, kind: group.kind, variable: group.weight });
    if (options.includeBiases === true && group.bias !== undefined) {
      out.push({ name: `${group.name}.bias`, kind: group.kind, variable: group.bias });
    }
  }
  if (out.length === 0) {
    throw new InvalidArgumentError(
      `${fn}: classifier.parameterGroups must contain a module of kind ${kinds.join('/')}, got ${classifier.parameterGroups.length} groups (${classifier.parameterGroups.map((g) => g.kind).join(', ') || 'none'})`,
    );
  }
  return out;
}
