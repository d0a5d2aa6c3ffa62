import * as tf from '@tensorflow/tfjs-core';
import { checkPositiveInteger, crossEntropy, InvalidArgumentError, ShapeMismatchError, type Classifier, type LabeledData, type ParameterKind } from '@mia/core';
import { privacySensitivity } from './privacy-sensitivity';
import { regularizedVariables, type RegularizedVariablesOptions } from './regularized-variables';

/** Options of {@link computeSensitivity}. */
export interface ComputeSensitivityOptions extends RegularizedVariablesOptions {
  /** Examples per forward/backward pass (gradients are accumulated exactly). @default 256 */
  readonly batchSize?: number;
  /** Forward in training mode (BN batch statistics, dropout; running statistics are not updated). @default false */
  readonly training?: boolean;
}

/** Sensitivity of one regularised tensor. */
export interface SensitivityGroup {
  readonly name: string;
  readonly kind: ParameterKind;
  readonly shape: readonly number[];
  /** Per-parameter `|∂G/∂θ| = |∂L_m/∂θ − ∂L_n/∂θ|` (PAST Fig. 1b). */
  readonly gradientGap: Float32Array;
  /** Normalised γ = gradientGap / max(mean over the tensor, eps_f32) (PAST §3.2). */
  readonly gamma: Float32Array;
}

/** Result of {@link computeSensitivity}. */
export interface SensitivityResult {
  readonly groups: readonly SensitivityGroup[];
  /** Mean CE over the members, `L_m`. */
  readonly memberLoss: number;
  /** Mean CE over the non-members, `L_n`. */
  readonly nonMemberLoss: number;
  /** `G = |L_m − L_n|`. */
  readonly lossGap: number;
}

/** Mean CE of `data` and its exact gradient w.r.t. `variables`, accumulated over batches (kept tensors). */
function meanLossGradients(model: Classifier, data: LabeledData, variables: tf.Variable[], batchSize: number, training: boolean) {
  let loss = 0;
  let total: tf.Tensor[] = variables.map((v) => tf.zerosLike(v));
  for (let start = 0; start < data.size; start += batchSize) {
    const idx = Int32Array.from({ length: Math.min(batchSize, data.size - start) }, (_, i) => start + i);
    const weight = idx.length / data.size;
    const next = tf.tidy(() => {
      const x = data.gather(idx);
      const y = tf.tensor1d(
        Int32Array.from(idx, (i) => data.y[i]!),
        'int32',
      );
      const { value, grads } = tf.variableGrads(() => crossEntropy(model.forward(x, { training, updateStatistics: false }).logits, y), variables);
      loss += value.dataSync()[0]! * weight;
      return variables.map((v, k) => (grads[v.name] === undefined ? total[k]!.clone() : tf.add(total[k]!, tf.mul(grads[v.name]!, weight))));
    });
    for (const t of total) t.dispose();
    total = next;
  }
  return { loss, grads: total };
}

/**
 * The privacy sensitivity of every regularised parameter of a classifier on a member set `S_m`
 * and a non-member set `S_n` (PAST Fig. 1b, 9, 13): the gradient of the loss gap
 * `G = |mean_{S_m} CE − mean_{S_n} CE|` over the **whole** sets (exact, batched), per module, raw
 * (`|∇G|`) and normalised (γ). The paper uses 10 000 random examples of each.
 *
 * @param classifier - The model (not modified; BN statistics are not updated).
 * @param members - `S_m`.
 * @param nonMembers - `S_n`.
 * @param options - {@link ComputeSensitivityOptions}.
 * @returns Per-group Float32Arrays and the losses.
 * @throws InvalidArgumentError on an empty set or bad batch size; ShapeMismatchError when a set does not match the classifier.
 * @see docs/protocol.md §5 "Privacy sensitivity distribution", §4.1; PAST §3.1.
 */
export function computeSensitivity(
  classifier: Classifier,
  members: LabeledData,
  nonMembers: LabeledData,
  options: ComputeSensitivityOptions = {},
): SensitivityResult {
  const fn = 'computeSensitivity';
  const batchSize = options.batchSize ?? 256;
  checkPositiveInteger(fn, 'batchSize', batchSize);
  for (const [name, data] of [
    ['members', members],
    ['nonMembers', nonMembers],
  ] as const) {
    if (data.size === 0) throw new InvalidArgumentError(`${fn}: ${name} must contain at least 1 example, got 0`);
    if (data.numClasses !== classifier.numClasses || data.inputShape.join(',') !== classifier.inputShape.join(',')) {
      throw new ShapeMismatchError(
        `${fn}: ${name} must match the classifier (${classifier.numClasses} classes, input [${classifier.inputShape.join(', ')}]), got ${data.numClasses} classes, input [${data.inputShape.join(', ')}]`,
      );
    }
  }
  const vars = regularizedVariables(fn, classifier, options);
  const variables = vars.map((v) => v.variable);
  const training = options.training ?? false;
  const m = meanLossGradients(classifier, members, variables, batchSize, training);
  const n = meanLossGradients(classifier, nonMembers, variables, batchSize, training);
  const groups = vars.map((v, k): SensitivityGroup => {
    const [gap, gamma] = tf.tidy(() => [tf.abs(tf.sub(m.grads[k]!, n.grads[k]!)), privacySensitivity(m.grads[k]!, n.grads[k]!)]);
    const result = {
      name: v.name,
      kind: v.kind,
      shape: v.variable.shape,
      gradientGap: new Float32Array(gap!.dataSync()),
      gamma: new Float32Array(gamma!.dataSync()),
    };
    gap!.dispose();
    gamma!.dispose();
    return result;
  });
  for (const t of [...m.grads, ...n.grads]) t.dispose();
  return { groups, memberLoss: m.loss, nonMemberLoss: n.loss, lossGap: Math.abs(m.loss - n.loss) };
}
