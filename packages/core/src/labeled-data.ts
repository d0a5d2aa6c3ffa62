import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, InvalidDatasetError, ShapeMismatchError, describeValue } from './errors';
import { checkPositiveInteger } from './validate';

/**
 * A labelled dataset that batches are gathered from. Examples may live anywhere (a tensor, a
 * `Uint8Array` of images converted per batch, a file); `gather` materialises a batch.
 */
export interface LabeledData {
  /** Number of examples. */
  readonly size: number;
  /** Number of classes C; every label is in `[0, C)`. */
  readonly numClasses: number;
  /** Shape of one example, without the batch dimension. */
  readonly inputShape: readonly number[];
  /** Integer labels, length `size`. */
  readonly y: Int32Array;
  /** The float32 examples at `indices`, shape `[indices.length, ...inputShape]`. The caller disposes it. */
  gather(indices: ArrayLike<number>): tf.Tensor;
}

/** Input of {@link labeledData}. */
export interface LabeledDataInit {
  /** All examples as one tensor `[n, ...]`; kept (not copied, not disposed) by the dataset. */
  readonly x: tf.Tensor;
  /** Labels in `[0, numClasses)`, length n. */
  readonly y: ArrayLike<number>;
  readonly numClasses: number;
}

/**
 * Validates labels: integers in `[0, numClasses)`, one per example.
 * @throws InvalidDatasetError naming the first bad label and its index.
 */
export function checkLabels(fn: string, y: ArrayLike<number>, numClasses: number, size?: number): Int32Array {
  checkPositiveInteger(fn, 'numClasses', numClasses);
  if (size !== undefined && y.length !== size) {
    throw new ShapeMismatchError(`${fn}: y must have one label per example (${size}), got ${y.length} labels`);
  }
  const out = y instanceof Int32Array ? y : Int32Array.from(y);
  for (let i = 0; i < y.length; i++) {
    const label = y[i]!;
    if (!Number.isInteger(label) || label < 0 || label >= numClasses) {
      throw new InvalidDatasetError(`${fn}: y[${i}] must be an integer label in [0, ${numClasses - 1}], got ${describeValue(label)}`);
    }
  }
  return out;
}

/**
 * Wraps an in-memory tensor and its labels as {@link LabeledData}.
 * @throws ShapeMismatchError when `x` and `y` disagree in length; InvalidDatasetError on a label out of range.
 */
export function labeledData(init: LabeledDataInit): LabeledData {
  const { x, numClasses } = init;
  if (x.rank < 2) throw new InvalidArgumentError(`labeledData: x must have rank >= 2 ([n, ...]), got shape [${x.shape.join(', ')}]`);
  const size = x.shape[0]!;
  const y = checkLabels('labeledData', init.y, numClasses, size);
  const inputShape = x.shape.slice(1);
  return {
    size,
    numClasses,
    inputShape,
    y,
    gather(indices) {
      const idx = indices instanceof Int32Array ? indices : Int32Array.from(indices);
      return tf.tidy(() => tf.cast(tf.gather(x, tf.tensor1d(idx, 'int32')), 'float32'));
    },
  };
}

/** The examples of `data` at `indices` (a partition slice), sharing storage with `data`. */
export function subsetData(data: LabeledData, indices: ArrayLike<number>): LabeledData {
  const map = Int32Array.from(indices);
  for (let i = 0; i < map.length; i++) {
    const j = map[i]!;
    if (j < 0 || j >= data.size) {
      throw new InvalidArgumentError(`subsetData: indices[${i}] must be in [0, ${data.size - 1}], got ${j}`);
    }
  }
  const y = new Int32Array(map.length);
  for (let i = 0; i < map.length; i++) y[i] = data.y[map[i]!]!;
  return {
    size: map.length,
    numClasses: data.numClasses,
    inputShape: data.inputShape,
    y,
    gather(indices) {
      const outer = new Int32Array(indices.length);
      for (let i = 0; i < indices.length; i++) outer[i] = map[indices[i]!]!;
      return data.gather(outer);
    },
  };
}
