// How fast XNNPACK's own kernels run on this machine today: the ceiling for every wasm engine.
import * as tf from '@tensorflow/tfjs-core';

/** Best rates of this run (GFLOP/s) of stock XNNPACK kernels with cached (pre-packed) weights. */
export interface XnnpackRate {
  /** 128×600 · 600×1024 matrix product (the Purchase MLP's first layer). */
  gemm: number;
  /** 3×3 convolution 16×32×32×64 → 64, stride 1 (a ResNet-18 stage-1 layer). */
  conv: number;
}

/**
 * Measures XNNPACK's GEMM and convolution rates on the current (wasm) backend: the same operands
 * every repetition, so the packed weights are cached and nothing but the multiply-adds is timed;
 * fastest of 30 after 10 untimed. No training engine can do its multiply-adds faster than this rate,
 * so FLOPs ÷ rate is a lower bound on a step's time on this machine today.
 */
export function xnnpackRate(): XnnpackRate {
  const best = (f: () => tf.Tensor, flops: number): number => {
    let ms = Infinity;
    for (let i = 0; i < 40; i++) {
      const t0 = performance.now();
      const y = f();
      y.dataSync();
      if (i >= 10) ms = Math.min(ms, performance.now() - t0);
      y.dispose();
    }
    return flops / (ms / 1000) / 1e9;
  };
  const a = tf.randomNormal([128, 600]) as tf.Tensor2D;
  const b = tf.randomNormal([600, 1024]) as tf.Tensor2D;
  const x = tf.randomNormal([16, 32, 32, 64]) as tf.Tensor4D;
  const w = tf.randomNormal([3, 3, 64, 64]) as tf.Tensor4D;
  try {
    return {
      gemm: best(() => tf.matMul(a, b), 2 * 128 * 600 * 1024),
      conv: best(() => tf.conv2d(x, w, 1, 'same'), 2 * 16 * 32 * 32 * 64 * 9 * 64),
    };
  } finally {
    tf.dispose([a, b, x, w]);
  }
}
