import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import '@mia/core'; // registers tfjs-core's gradients
import { beforeAll, describe, expect, it } from 'vitest';
import { recordingTape } from './per-example-tape';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const variable = (shape: number[], seed: number) => {
  const init = tf.randomNormal(shape, 0, 0.5, 'float32', seed);
  const v = tf.variable(init, true);
  init.dispose();
  return v;
};

describe('recordingTape (its custom gradients)', () => {
  // Gradient check of the tape's two custom gradients: the identity tap after a layer must pass the
  // gradient through unchanged and capture ∂L/∂(layer output); the layer applied to the root input
  // must capture the same and return zeros for the root (nobody reads it).
  const w1 = variable([3, 3, 2, 4], 1);
  const b1 = variable([4], 2);
  const gamma = variable([4], 3);
  const beta = variable([4], 4);
  const w2 = variable([16, 3], 5);
  const forward = (x: tf.Tensor, tape: ReturnType<typeof recordingTape>['tape']) => {
    const h = tf.relu(
      tape.conv2d(x as tf.Tensor4D, w1, b1, {
        strides: 2,
        pad: [
          [0, 0],
          [1, 1],
          [1, 1],
          [0, 0],
        ],
      }),
    );
    const a = tape.affine(tf.tanh(h), gamma, beta);
    return tape.dense(tf.reshape(a, [x.shape[0]!, 16]) as tf.Tensor2D, w2);
  };
  const plainLoss = (x: tf.Tensor) =>
    tf.tidy(() => {
      const h = tf.relu(
        tf.add(
          tf.conv2d(x as tf.Tensor4D, w1 as tf.Tensor4D, 2, [
            [0, 0],
            [1, 1],
            [1, 1],
            [0, 0],
          ]),
          b1,
        ),
      );
      const a = tf.add(tf.mul(tf.tanh(h), gamma), beta);
      return tf.sum(tf.square(tf.matMul(tf.reshape(a, [x.shape[0]!, 16]) as tf.Tensor2D, w2 as tf.Tensor2D))) as tf.Scalar;
    });

  it('passes input gradients through unchanged (non-root input) and records each layer’s output gradient', () => {
    const x = tf.randomNormal([3, 4, 4, 2], 0, 1, 'float32', 6);
    const { tape, entries } = recordingTape();
    const dx = tf.grad((xIn: tf.Tensor) => tf.sum(tf.square(forward(xIn, tape))) as tf.Scalar)(x);
    const want = tf.grad(plainLoss)(x);
    expect(Array.from(dx.dataSync()).every((v, i) => Math.abs(v - want.dataSync()[i]!) < 1e-5)).toBe(true);
    expect(entries.map((e) => e.kind)).toEqual(['conv2d', 'affine', 'dense']);
    // The dense layer's output gradient of L = Σ out² is 2·out.
    const again = recordingTape();
    const out = tf.tidy(() => tf.mul(2, forward(x, again.tape)));
    expect(Array.from(entries[2]!.outputGradient!.dataSync())).toEqual(Array.from(out.dataSync()));
    tf.dispose([x, dx, want, out, ...entries.flatMap((e) => [e.input, e.outputGradient!]), ...again.entries.map((e) => e.input)]);
  });

  it('a layer on the root input records its output gradient and returns zeros for the root; nothing leaks', () => {
    const x = tf.randomNormal([3, 4, 4, 2], 0, 1, 'float32', 7);
    const before = tf.memory().numTensors;
    const { tape, entries } = recordingTape(x);
    const dx = tf.grad((xIn: tf.Tensor) => tf.sum(tf.square(forward(xIn, tape))) as tf.Scalar)(x);
    expect(Array.from(dx.dataSync()).every((v) => v === 0)).toBe(true);
    const reference = recordingTape();
    const dxRef = tf.grad((xIn: tf.Tensor) => tf.sum(tf.square(forward(xIn, reference.tape))) as tf.Scalar)(x);
    entries.forEach((e, i) => expect(Array.from(e.outputGradient!.dataSync())).toEqual(Array.from(reference.entries[i]!.outputGradient!.dataSync())));
    tf.dispose([dx, dxRef, ...[...entries, ...reference.entries].flatMap((e) => [e.input, e.outputGradient!])]);
    expect(tf.memory().numTensors).toBe(before);
    x.dispose();
  });
});
