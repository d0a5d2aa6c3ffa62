import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkPositiveInteger, describeValue, type Classifier, type LabeledData } from '@mia/core';

/** Anything with a `predict(x)` returning one 2-D tensor: a `tf.LayersModel` or a `tf.GraphModel` (structural, no tfjs-layers import). */
export interface PredictingModel {
  /** Runs the model on a batch. */
  predict(x: tf.Tensor, ...rest: never[]): unknown;
}

/** A predict function `x [b, ...] → [b, C]` logits or probabilities. It must not dispose `x`. */
export type PredictFunction = (x: tf.Tensor) => tf.Tensor;

/** What {@link auditModel} audits: a `tf.LayersModel`, a `tf.GraphModel`, a {@link Classifier} or a predict function. */
export type AuditableModel = PredictingModel | Classifier | PredictFunction;

/** Examples with their labels: a {@link LabeledData}, or `{x, y}` with `x` a tensor `[n, ...]` and `y` its integer labels (array or tensor). */
export type AuditData = LabeledData | { readonly x: tf.Tensor; readonly y: ArrayLike<number> | tf.Tensor };

/** The examples of {@link AuditData} as a batch source (internal). */
export interface AuditSource {
  readonly size: number;
  readonly labels: Int32Array;
  /** The shape of one example. */
  readonly inputShape: readonly number[];
  gather(start: number, end: number): tf.Tensor;
}

/** Structural tensor check, so a tensor of another tfjs copy (e.g. the `@tensorflow/tfjs` union package's) is accepted too (internal). */
function isTensor(value: unknown): value is tf.Tensor {
  const t = value as Partial<tf.Tensor> | null;
  return typeof t === 'object' && t !== null && Array.isArray(t.shape) && typeof t.dataSync === 'function' && typeof t.dispose === 'function';
}

function isLabeledData(data: AuditData): data is LabeledData {
  return typeof (data as LabeledData).gather === 'function';
}

/** Validates {@link AuditData} and returns a batch source (internal). */
export function auditSource(fn: string, name: string, data: AuditData): AuditSource {
  if (typeof data !== 'object' || data === null) throw new InvalidArgumentError(`${fn}: ${name} must be a LabeledData or {x, y}, got ${describeValue(data)}`);
  if (isLabeledData(data)) {
    return {
      size: data.size,
      labels: data.y,
      inputShape: data.inputShape,
      gather: (start, end) => data.gather(Int32Array.from({ length: end - start }, (_, i) => start + i)),
    };
  }
  const { x, y } = data;
  if (!isTensor(x) || x.rank < 2) {
    throw new InvalidArgumentError(
      `${fn}: ${name}.x must be a tensor [n, ...] of rank ≥ 2, got ${isTensor(x) ? `shape [${x.shape.join(', ')}]` : describeValue(x)}`,
    );
  }
  const values = isTensor(y) ? y.dataSync() : y;
  if (values === null || typeof values !== 'object' || typeof values.length !== 'number') {
    throw new InvalidArgumentError(`${fn}: ${name}.y must be an array or tensor of integer labels, got ${describeValue(y)}`);
  }
  const n = x.shape[0]!;
  if (values.length !== n) throw new InvalidArgumentError(`${fn}: ${name}.y must have one label per example (${n}), got ${values.length}`);
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (!Number.isInteger(v) || v < 0) throw new InvalidArgumentError(`${fn}: ${name}.y[${i}] must be a non-negative integer label, got ${describeValue(v)}`);
    labels[i] = v;
  }
  const rest = x.shape.slice(1).map(() => -1);
  return { size: n, labels, inputShape: x.shape.slice(1), gather: (start, end) => tf.slice(x, [start, ...rest.map(() => 0)], [end - start, ...rest]) };
}

/** The model as a predict function (internal). */
export function predictFunction(fn: string, model: AuditableModel): PredictFunction {
  if (typeof model === 'function') return model;
  if (typeof model === 'object' && model !== null) {
    if (typeof (model as Classifier).forward === 'function') {
      const classifier = model as Classifier;
      return (x) => classifier.forward(x, { training: false }).logits;
    }
    if (typeof (model as PredictingModel).predict === 'function') {
      const predicting = model as PredictingModel;
      return (x) => {
        const out = predicting.predict(x);
        if (!isTensor(out)) {
          throw new InvalidArgumentError(
            `${fn}: model.predict must return one tensor [batch, numClasses], got ${describeValue(out)} (a multi-output model: pass a predict function)`,
          );
        }
        return out;
      };
    }
  }
  throw new InvalidArgumentError(`${fn}: model must be a tf.LayersModel, a tf.GraphModel, a Classifier or a predict function, got ${describeValue(model)}`);
}

/**
 * Row-major model outputs `[n, C]` of a source, batched, leaving no tensor behind (internal);
 * `onBatch` sees each batch's input values and the output width (read once for the outputs and the audit's records).
 */
export function modelOutputs(
  fn: string,
  predict: PredictFunction,
  source: AuditSource,
  batchSize: number,
  onBatch?: (values: Float32Array, start: number, numClasses: number) => void,
): { values: Float32Array; numClasses: number } {
  checkPositiveInteger(fn, 'batchSize', batchSize);
  let values: Float32Array | undefined;
  let numClasses = 0;
  for (let start = 0; start < source.size; start += batchSize) {
    const end = Math.min(start + batchSize, source.size);
    const out = tf.tidy(() => {
      const x = source.gather(start, end);
      const y = predict(x);
      if (onBatch !== undefined && y.rank === 2 && y.shape[1]! >= 2) onBatch(x.dataSync() as Float32Array, start, y.shape[1]!);
      return y;
    });
    try {
      if (out.rank !== 2 || out.shape[0] !== end - start || out.shape[1]! < 2) {
        throw new InvalidArgumentError(
          `${fn}: the model must output [batch, numClasses ≥ 2] (logits or probabilities), got shape [${out.shape.join(', ')}] for a batch of ${end - start}`,
        );
      }
      if (values === undefined) {
        numClasses = out.shape[1]!;
        values = new Float32Array(source.size * numClasses);
      } else if (out.shape[1] !== numClasses) {
        throw new InvalidArgumentError(`${fn}: the model output ${out.shape[1]} classes for one batch and ${numClasses} for another`);
      }
      values.set(out.dataSync() as Float32Array, start * numClasses);
    } finally {
      out.dispose();
    }
  }
  if (values === undefined) throw new InvalidArgumentError(`${fn}: the data must hold at least one example, got 0`);
  return { values, numClasses };
}

/** Whether row-major outputs look like probabilities: every value in [0, 1] and every row sums to 1 within 1e-3 (internal). */
export function looksLikeProbabilities(values: Float32Array, numClasses: number): boolean {
  for (let row = 0; row < values.length; row += numClasses) {
    let sum = 0;
    for (let j = 0; j < numClasses; j++) {
      const v = values[row + j]!;
      if (!(v >= 0 && v <= 1)) return false;
      sum += v;
    }
    if (Math.abs(sum - 1) > 1e-3) return false;
  }
  return true;
}
