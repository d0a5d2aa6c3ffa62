import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { beforeAll, describe, expect, it } from 'vitest';
import { adam } from './adam';
import { cosine, multiStep, piecewise } from './lr-schedules';
import type { Optimizer } from './optimizer';
import { sgd } from './sgd';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

// A 2×3 weight, three steps with the given gradients; the LR changes from 0.1 to 0.05 before step 3.
const W0 = [0.1, -0.2, 0.3, 0.4, -0.5, 0.6];
const GRADS = [
  [0.5, -1.0, 0.25, 2.0, 0.0, -0.75],
  [0.1, 0.2, -0.3, -0.4, 0.5, 0.6],
  [-1.0, 1.5, 0.5, 0.0, -0.25, 0.125],
];
const LRS = [0.1, 0.1, 0.05];

function runThreeSteps(optimizer: Optimizer): number[] {
  const w = tf.variable(tf.tensor2d(W0, [2, 3]), true, `w_${Math.random()}`);
  for (let t = 0; t < 3; t++) {
    const g = tf.tensor2d(GRADS[t]!, [2, 3]);
    optimizer.applyGradients([w], { [w.name]: g }, LRS[t]!);
    g.dispose();
  }
  const out = Array.from(w.dataSync());
  w.dispose();
  optimizer.dispose();
  return out;
}

function expectClose(actual: number[], expected: number[]) {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((a, i) => expect(a).toBeCloseTo(expected[i]!, 6));
}

describe('sgd (PyTorch semantics)', () => {
  // Expected values: PyTorch's SGD algorithm (torch/optim/sgd.py) written out in float64:
  //   d = g + 5e-4·w; buf = d (step 1) else 0.9·buf + d; step = d + 0.9·buf (Nesterov) or buf;
  //   w ← w − lr·step. E.g. element 0, plain: step 1 d = 0.5 + 5e-5 = 0.50005, w = 0.1 − 0.050005
  //   = 0.049995; step 2 d = 0.1000249975, buf = 0.550070, w = −0.005012; step 3 (lr 0.05)
  //   d = −1.0000025, buf = −0.5049655, w = 0.02023498.
  it('momentum 0.9, weight decay 5e-4, LR change: matches the PyTorch update', () => {
    expectClose(runThreeSteps(sgd({ lr: 0.1, momentum: 0.9, weightDecay: 5e-4 })), [0.02023498, -0.07346895, 0.26081343, -0.0030621, -0.55989238, 0.67948985]);
  });

  it('Nesterov momentum matches the PyTorch update', () => {
    expectClose(
      runThreeSteps(sgd({ lr: 0.1, momentum: 0.9, nesterov: true, weightDecay: 5e-4 })),
      [0.01821164, -0.08111967, 0.24469855, -0.12276065, -0.59133726, 0.68020197],
    );
  });

  it('differs from tf.train.momentum, whose buffer absorbs the learning rate', () => {
    const ours = runThreeSteps(sgd({ lr: 0.1, momentum: 0.9 }));
    const w = tf.variable(tf.tensor2d(W0, [2, 3]));
    for (let t = 0; t < 3; t++) {
      const opt = tf.train.momentum(LRS[t]!, 0.9);
      opt.applyGradients({ [w.name]: tf.tensor2d(GRADS[t]!, [2, 3]) } as never);
      opt.dispose();
    }
    // A fresh tfjs optimizer per LR loses the buffer entirely, so the results disagree.
    expect(Array.from(w.dataSync())[0]).not.toBeCloseTo(ours[0]!, 4);
    w.dispose();
  });

  it('without momentum is w ← w − lr·(g + wd·w)', () => {
    const out = runThreeSteps(sgd({ lr: 0.1 }));
    // element 0: 0.1 − 0.1·0.5 − 0.1·0.1 − 0.05·(−1.0) = 0.09
    expect(out[0]).toBeCloseTo(0.09, 7);
  });

  it('rejects invalid options', () => {
    expect(() => sgd({ lr: -1 })).toThrow(/sgd: lr must be a number in \[0, Infinity\], got -1/);
    expect(() => sgd({ lr: 0.1, nesterov: true })).toThrow(/sgd: nesterov must be used with momentum > 0 and dampening 0/);
  });

  it('state round-trips and leaks nothing', () => {
    const before = tf.memory().numTensors;
    const opt = sgd({ lr: 0.1, momentum: 0.9 });
    const init = tf.tensor1d([1, 2]);
    const w = tf.variable(init);
    init.dispose();
    const g = tf.tensor1d([0.5, 0.5]);
    opt.applyGradients([w], { [w.name]: g }, 0.1);
    const state = opt.getState();
    expect(Array.from(state[0]!.tensor.dataSync())).toEqual([0.5, 0.5]);
    opt.setState(state);
    for (const s of state) s.tensor.dispose();
    opt.applyGradients([w], { [w.name]: g }, 0.1);
    expect(w.dataSync()[0]).toBeCloseTo(1 - 0.05 - 0.1 * 0.95, 6);
    opt.dispose();
    w.dispose();
    g.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });
});

describe('adam (PyTorch semantics)', () => {
  // Expected: torch/optim/adam.py in float64 with coupled weight decay 5e-4, β = (0.9, 0.999), ε = 1e-8.
  it('matches the PyTorch update over three steps with an LR change', () => {
    expectClose(runThreeSteps(adam({ lr: 0.1, weightDecay: 5e-4 })), [-0.065931, -0.06421368, 0.19245598, 0.2291333, -0.48578225, 0.70383685]);
  });
});

describe('LR schedules', () => {
  it('cosine(T) gives lr0·(1 + cos(π e/T))/2', () => {
    const s = cosine(10);
    expect(s(0, 0.1)).toBeCloseTo(0.1, 10);
    expect(s(1, 0.1)).toBeCloseTo(0.09755282581475769, 10);
    expect(s(5, 0.1)).toBeCloseTo(0.05, 10);
    expect(s(9, 0.1)).toBeCloseTo(0.0024471741852423235, 10);
  });

  it('multiStep multiplies by gamma at each milestone', () => {
    const s = multiStep([150, 225], 0.1);
    expect(s(149, 0.1)).toBeCloseTo(0.1, 12);
    expect(s(150, 0.1)).toBeCloseTo(0.01, 12);
    expect(s(224, 0.1)).toBeCloseTo(0.01, 12);
    expect(s(225, 0.1)).toBeCloseTo(0.001, 12);
  });

  it('piecewise: the last matching range wins (CRL cifar10_vgg config)', () => {
    const s = piecewise([
      { start: 0, end: 50, lr: 0.05 },
      { start: 50, end: 80, lr: 0.01 },
      { start: 80, end: 110, lr: 0.005 },
      { start: 100, end: 120, lr: 0.001 },
    ]);
    expect(s(0, 1)).toBe(0.05);
    expect(s(79, 1)).toBe(0.01);
    expect(s(99, 1)).toBe(0.005);
    expect(s(100, 1)).toBe(0.001);
    expect(() => piecewise([{ start: 5, end: 2, lr: 0.1 }])).toThrow(/piecewise: ranges\[0\] must be integer epochs/);
  });
});
