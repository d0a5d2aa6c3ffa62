import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, ShapeMismatchError } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { convexConcaveLoss, convexConcaveLossPerExample } from './convex-concave-loss';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const value = (t: tf.Tensor): number => {
  const v = t.dataSync()[0]!;
  t.dispose();
  return v;
};

// Hand calculation (Python, double precision) for z = [2, 0, −1], y = 0:
// CE = log(e² + 1 + e⁻¹) − 2 = 0.16984601955628564, p = exp(−CE) = 0.8437947344813395.
describe('convexConcaveLoss known answers', () => {
  const logits = () => tf.tensor2d([[2, 0, -1]]);
  it('CCEL α=0.5: 0.5·CE − 0.5·exp(p) = −1.0776638269163175', () => {
    expect(value(convexConcaveLoss(logits(), tf.tensor1d([0], 'int32'), { alpha: 0.5 }))).toBeCloseTo(-1.0776638269163175, 5);
  });
  it('CCQL α=0.5: 0.5·CE − 0.5·(p + p²/2) = −0.5149717459471355', () => {
    expect(value(convexConcaveLoss(logits(), tf.tensor1d([0], 'int32'), { alpha: 0.5, concave: 'quadratic' }))).toBeCloseTo(-0.5149717459471355, 5);
  });
  it('focal (γ=2), paper sign: 0.5·(1−p)²·CE − 0.5·exp(p) = −1.1605147080394767', () => {
    expect(value(convexConcaveLoss(logits(), tf.tensor1d([0], 'int32'), { base: 'focal' }))).toBeCloseTo(-1.1605147080394767, 5);
  });
  it("focal (γ=2), the code's sign (FocalCCEL): 0.5·(1−p)²·CE + 0.5·exp(p) = 1.164658965349444", () => {
    expect(value(convexConcaveLoss(logits(), tf.tensor1d([0], 'int32'), { base: 'focal', focalConcaveSign: 'code' }))).toBeCloseTo(1.164658965349444, 5);
  });
  it('α = 1 is plain cross-entropy', () => {
    expect(value(convexConcaveLoss(logits(), tf.tensor1d([0], 'int32'), { alpha: 1 }))).toBeCloseTo(0.16984601955628564, 6);
  });
  // Second row z = [0, 1, 0.5], y = 2: CE = 1.1802696706417346; batch mean of CCEL with α = 0.3 is
  // −1.0871559765289074; β = 0.01 multiplies the whole mean (docs/protocol.md A17).
  it('β scales the whole batch mean', () => {
    const z = tf.tensor2d([
      [2, 0, -1],
      [0, 1, 0.5],
    ]);
    const y = tf.tensor1d([0, 2], 'int32');
    expect(value(convexConcaveLoss(z, y, { alpha: 0.3 }))).toBeCloseTo(-1.0871559765289074, 5);
    expect(value(convexConcaveLoss(z, y, { alpha: 0.3, scale: 0.01 }))).toBeCloseTo(-0.010871559765289075, 7);
    tf.dispose([z, y]);
  });
});

describe('convexConcaveLoss inputs', () => {
  it('accepts integer labels [n], [n, 1] and one-hot targets alike', () => {
    const z = tf.tensor2d([
      [2, 0, -1],
      [0, 1, 0.5],
    ]);
    const a = value(convexConcaveLoss(z, tf.tensor1d([0, 2], 'int32')));
    const b = value(convexConcaveLoss(z, tf.tensor2d([[0], [2]])));
    const c = value(
      convexConcaveLoss(
        z,
        tf.tensor2d([
          [1, 0, 0],
          [0, 0, 1],
        ]),
      ),
    );
    expect(b).toBeCloseTo(a, 6);
    expect(c).toBeCloseTo(a, 6);
    z.dispose();
  });
  it('fromLogits: false on softmax outputs equals fromLogits: true on logits', () => {
    const z = tf.tensor2d([
      [2, 0, -1],
      [0, 1, 0.5],
    ]);
    const y = tf.tensor1d([0, 2], 'int32');
    const probs = tf.softmax(z);
    const a = value(convexConcaveLoss(z, y, { concave: 'quadratic' }));
    const b = value(convexConcaveLoss(probs, y, { concave: 'quadratic', fromLogits: false }));
    expect(b).toBeCloseTo(a, 5);
    tf.dispose([z, y, probs]);
  });
  it('per-example values have the batch size and their mean is the loss (β = 1)', () => {
    const z = tf.tensor2d([
      [2, 0, -1],
      [0, 1, 0.5],
    ]);
    const y = tf.tensor1d([0, 2], 'int32');
    const per = convexConcaveLossPerExample(z, y, { alpha: 0.3 });
    expect(per.shape).toEqual([2]);
    const values = Array.from(per.dataSync());
    expect((values[0]! + values[1]!) / 2).toBeCloseTo(-1.0871559765289074, 5);
    tf.dispose([z, y, per]);
  });
  it('rejects bad options and shapes with clear errors', () => {
    const z = tf.tensor2d([[2, 0, -1]]);
    const y = tf.tensor1d([0], 'int32');
    expect(() => convexConcaveLoss(z, y, { alpha: 1.5 })).toThrow(/convexConcaveLoss: alpha must be a number in \[0, 1\], got 1.5/);
    expect(() => convexConcaveLoss(z, y, { scale: 0 })).toThrow(InvalidArgumentError);
    expect(() => convexConcaveLoss(z, y, { concave: 'cubic' as never })).toThrow(/concave must be/);
    expect(() => convexConcaveLoss(z, tf.tensor1d([0, 1], 'int32'))).toThrow(ShapeMismatchError);
    expect(() => convexConcaveLoss(z, tf.tensor2d([[1, 0]]))).toThrow(/one-hot \[1, 3\]/);
    expect(() => convexConcaveLoss(tf.tensor1d([1, 2]), y)).toThrow(ShapeMismatchError);
    tf.dispose([z, y]);
  });
  it('leaks no tensor, including in the gradient', () => {
    const z = tf.randomNormal([8, 5], 0, 2, 'float32', 1) as tf.Tensor2D;
    const y = tf.tensor1d([0, 1, 2, 3, 4, 0, 1, 2], 'int32');
    const before = tf.memory().numTensors;
    value(convexConcaveLoss(z, y, { base: 'focal' }));
    tf.grad((l: tf.Tensor) => convexConcaveLoss(l, y, { concave: 'quadratic' }))(z).dispose();
    convexConcaveLossPerExample(z, y).dispose();
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose([z, y]);
  });
});
