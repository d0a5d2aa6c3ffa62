import { conv2dBias, CONV2D_BIAS } from '@mia/core';
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nativeKernelStats, resetNativeKernelStats } from '../kernel-stats';
import { loadNativeAddon } from '../load-native-addon';
import { expectFallbackThrows, expectMatchesCpu, randomTensor, setupNative } from '../test-utils/backends';
import { describeNative } from '../test-utils/native-available';

type Shape4 = [number, number, number, number];
type Pad = 'same' | 'valid' | number | [[number, number], [number, number], [number, number], [number, number]];
interface ConvCase {
  name: string;
  x: Shape4;
  f: Shape4;
  strides: number | [number, number];
  pad: Pad;
  dilations?: number;
  rounding?: 'floor' | 'round' | 'ceil';
}

const cases: ConvCase[] = [
  { name: '3×3 stride 1 same, odd size', x: [2, 7, 7, 3], f: [3, 3, 3, 4], strides: 1, pad: 'same' },
  { name: '2×2 stride 1 same (even filter: asymmetric padding), batch 1', x: [1, 8, 8, 2], f: [2, 2, 2, 3], strides: 1, pad: 'same' },
  { name: '3×3 stride 2 same on odd size (asymmetric padding)', x: [2, 9, 9, 3], f: [3, 3, 3, 5], strides: 2, pad: 'same' },
  { name: '4×4 stride 2 same on even size', x: [2, 8, 8, 4], f: [4, 4, 4, 2], strides: 2, pad: 'same' },
  { name: '1×1 stride 1 valid, batch 1', x: [1, 5, 6, 3], f: [1, 1, 3, 4], strides: 1, pad: 'valid' },
  { name: '1×1 stride 2 same (ResNet shortcut)', x: [2, 7, 7, 4], f: [1, 1, 4, 3], strides: 2, pad: 'same' },
  { name: '3×2 filter, strides 1×2, valid, rectangular input', x: [2, 6, 9, 2], f: [3, 2, 2, 3], strides: [1, 2], pad: 'valid' },
  { name: 'explicit PyTorch-style padding 1 (number), stride 2', x: [2, 8, 8, 3], f: [3, 3, 3, 2], strides: 2, pad: 1 },
  {
    name: 'explicit asymmetric padding, stride 2',
    x: [2, 6, 6, 3],
    f: [3, 3, 3, 2],
    strides: 2,
    pad: [
      [0, 0],
      [1, 2],
      [2, 1],
      [0, 0],
    ],
  },
  { name: 'filter as large as the input, valid', x: [3, 5, 5, 1], f: [5, 5, 1, 2], strides: 1, pad: 'valid' },
];

// Forward only: tfjs's convolution gradients support neither dilation nor dimRoundingMode.
const forwardOnly: ConvCase[] = [
  { name: 'dilation 2, valid', x: [1, 7, 8, 2], f: [3, 3, 2, 3], strides: 1, pad: 'valid', dilations: 2 },
  { name: 'dilation 2, same', x: [2, 6, 6, 3], f: [3, 3, 3, 2], strides: 1, pad: 'same', dilations: 2 },
  { name: 'padding 1 with ceil rounding (the last output row reads past the padding)', x: [1, 5, 5, 2], f: [2, 2, 2, 3], strides: 2, pad: 1, rounding: 'ceil' },
];

function conv(c: ConvCase, seed: number): tf.Tensor4D {
  return tf.conv2d(randomTensor(c.x, seed) as tf.Tensor4D, randomTensor(c.f, seed + 1) as tf.Tensor4D, c.strides, c.pad, 'NHWC', c.dilations ?? 1, c.rounding);
}

function attrs(c: ConvCase): Record<string, unknown> {
  return { strides: c.strides, pad: c.pad, dataFormat: 'NHWC', dimRoundingMode: undefined, dilations: 1 };
}

function outShape(c: ConvCase): Shape4 {
  const info = tf.backend_util.computeConv2DInfo(c.x, c.f, c.strides, 1, c.pad as 'same');
  return [c.x[0], info.outHeight, info.outWidth, c.f[3]];
}

describeNative('native convolution kernels vs the cpu backend', () => {
  beforeAll(setupNative);

  for (const layout of ['nhwc', 'blocked'] as const) {
    describe(`oneDNN layout ${layout}`, () => {
      beforeAll(() => loadNativeAddon().setConvLayout(layout));
      afterAll(() => loadNativeAddon().setConvLayout('nhwc'));

      for (const [i, c] of [...cases, ...forwardOnly].entries()) {
        it(`Conv2D: ${c.name}`, async () => {
          expect.hasAssertions();
          await expectMatchesCpu(() => conv(c, 10 * i), { native: ['Conv2D'] });
        });
      }

      for (const [i, c] of cases.entries()) {
        it(`Conv2DBackpropInput and Conv2DBackpropFilter through tf.grad: ${c.name}`, async () => {
          expect.hasAssertions();
          const fn = (): tf.Tensor[] => {
            const x = randomTensor(c.x, 100 + i);
            const f = randomTensor(c.f, 200 + i);
            const dy = randomTensor(outShape(c), 300 + i);
            // Σ dy·conv(x, f): its gradients are exactly the two backprop kernels applied to dy.
            return tf.grads((a: tf.Tensor, b: tf.Tensor) => tf.sum(tf.mul(tf.conv2d(a as tf.Tensor4D, b as tf.Tensor4D, c.strides, c.pad), dy)))([x, f]);
          };
          await expectMatchesCpu(fn, { native: ['Conv2D', 'Conv2DBackpropInput', 'Conv2DBackpropFilter'] });
        });

        it(`Conv2DBackpropInput and Conv2DBackpropFilter through runKernel: ${c.name}`, async () => {
          expect.hasAssertions();
          const dyShape = outShape(c);
          await expectMatchesCpu(
            () =>
              tf.engine().runKernel('Conv2DBackpropInput', { dy: randomTensor(dyShape, 400 + i), filter: randomTensor(c.f, 500 + i) }, {
                ...attrs(c),
                inputShape: c.x,
              } as never) as tf.Tensor,
            { native: ['Conv2DBackpropInput'] },
          );
          await expectMatchesCpu(
            () =>
              tf.engine().runKernel('Conv2DBackpropFilter', { x: randomTensor(c.x, 600 + i), dy: randomTensor(dyShape, 700 + i) }, {
                ...attrs(c),
                filterShape: c.f,
              } as never) as tf.Tensor,
            { native: ['Conv2DBackpropFilter'] },
          );
        });
      }

      it(`caches its primitives with the ${layout} layout`, () => {
        expect.hasAssertions();
        const keys = Object.keys(loadNativeAddon().info().primitives);
        // Cache keys start with the kind (f/d/w) and the layout (n = NHWC, b = blocked).
        for (const kind of ['f', 'd', 'w']) expect(keys.some((k) => k.startsWith(kind + layout[0]!))).toBe(true);
      });
    });
  }

  describe("the 'auto' algorithm: Winograd on 3×3 stride-1 layers of ≥ 64 channels (whole 4×4 tiles) where oneDNN has it", () => {
    const wide: ConvCase = { name: '3×3 stride 1 same, 64 → 80 channels', x: [2, 8, 8, 64], f: [3, 3, 64, 80], strides: 1, pad: 'same' };
    const addon = () => loadNativeAddon();
    afterAll(() => addon().setConvAlgorithm('auto'));
    const [n, h, w, ci] = wide.x;
    const co = wide.f[3];
    const dims = [n, h, w, ci, 3, 3, co, h, w, 1, 1, 1, 1, 1, 1, 1, 1];
    // Uniform in [-1, 1) from a linear congruential generator: unstructured values (a smooth pattern
    // makes outputs cancel, and any algorithm's relative error grows with the cancellation).
    const fill = (size: number, seed: number) => {
      let state = seed >>> 0;
      return Float32Array.from({ length: size }, () => {
        state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
        return state / 2 ** 31 - 1;
      });
    };
    // Cache keys: kind (f/d/w), layout (n/b), bias (B/-), ReLU (R/-), algorithm (a = auto, d = direct), threads, dims.
    const implOf = (kind: string, algorithm: string, d: number[]): string | undefined =>
      Object.entries(addon().info().primitives).find(([key]) => key[0] === kind && key[4] === algorithm && key.endsWith(`,${d.join(',')}`))?.[1];
    // The three passes through the addon with one algorithm: [y, dx, dw].
    const passes = (algorithm: 'auto' | 'direct'): Float32Array[] => {
      addon().setConvAlgorithm(algorithm);
      const x = fill(n * h * w * ci, 1);
      const f = fill(9 * ci * co, 2).map((v) => v / 24);
      const dy = fill(n * h * w * co, 3);
      const y = new Float32Array(n * h * w * co);
      const dx = new Float32Array(x.length);
      const dw = new Float32Array(f.length);
      addon().conv2dForward(x, f, null, y, dims, 'linear');
      addon().conv2dBackwardData(dy, f, dx, dims);
      addon().conv2dBackwardWeights(x, dy, dw, dims);
      return [y, dx, dw];
    };
    const normwise = (a: Float32Array, b: Float32Array): number => {
      let d = 0;
      let r = 0;
      for (let i = 0; i < a.length; i++) {
        d += (a[i]! - b[i]!) ** 2;
        r += b[i]! ** 2;
      }
      return Math.sqrt(d / r);
    };

    it('the three passes agree with the direct kernels to 1e-5 (normwise relative), and Winograd runs where oneDNN 2.x has AVX-512', () => {
      const direct = passes('direct');
      const auto = passes('auto');
      for (const [i, name] of ['forward', 'input gradient', 'filter gradient'].entries()) expect(normwise(auto[i]!, direct[i]!), name).toBeLessThan(1e-5);
      const info = addon().info();
      for (const kind of ['f', 'd', 'w']) {
        expect(implOf(kind, 'd', dims)).not.toMatch(/wino/);
        // Debian's oneDNN 2.x has jit_wino_4x3 for AVX-512; elsewhere 'auto' falls back to direct.
        if (info.isa.startsWith('avx512') && info.onednn.startsWith('2.')) expect(implOf(kind, 'a', dims)).toMatch(/wino/);
        else expect(implOf(kind, 'a', dims)).toBeDefined();
      }
      expect(info.convAlgorithm).toBe('auto');
    });

    it('a layer below 64 channels stays direct', () => {
      addon().setConvAlgorithm('auto');
      const narrow = [1, 5, 5, 32, 3, 3, 32, 5, 5, 1, 1, 1, 1, 1, 1, 1, 1];
      addon().conv2dForward(new Float32Array(800), new Float32Array(9 * 32 * 32), null, new Float32Array(800), narrow, 'linear');
      expect(implOf('f', 'a', narrow)).toMatch(/brgconv|jit|gemm|ref/);
      expect(implOf('f', 'a', narrow)).not.toMatch(/wino/);
    });

    it('through tfjs: forward, gradients and the fused bias + ReLU match the cpu backend', async () => {
      expect.hasAssertions();
      await expectMatchesCpu(
        () => {
          const x = randomTensor(wide.x, 900);
          const f = tf.mul(randomTensor(wide.f, 901), 0.1);
          const dy = randomTensor(outShape(wide), 902);
          return tf.grads((a: tf.Tensor, b: tf.Tensor) => tf.sum(tf.mul(tf.conv2d(a as tf.Tensor4D, b as tf.Tensor4D, 1, 'same'), dy)))([x, f]);
        },
        { native: ['Conv2D', 'Conv2DBackpropInput', 'Conv2DBackpropFilter'] },
      );
      await expectMatchesCpu(
        () =>
          tf.fused.conv2d({
            x: randomTensor(wide.x, 903) as tf.Tensor4D,
            filter: tf.mul(randomTensor(wide.f, 904), 0.1) as tf.Tensor4D,
            strides: 1,
            pad: 'same',
            bias: randomTensor([80], 905),
            activation: 'relu',
          }),
        { native: ['FusedConv2D'] },
      );
    });

    it('an output whose sides are not multiples of 4 (partial Winograd tiles) stays direct', () => {
      addon().setConvAlgorithm('auto');
      for (const side of [2, 6]) {
        const small = [2, side, side, 64, 3, 3, 64, side, side, 1, 1, 1, 1, 1, 1, 1, 1];
        const size = 2 * side * side * 64;
        addon().conv2dForward(new Float32Array(size), new Float32Array(9 * 64 * 64), null, new Float32Array(size), small, 'linear');
        expect(implOf('f', 'a', small)).toBeDefined();
        expect(implOf('f', 'a', small)).not.toMatch(/wino/);
      }
    });

    it('setConvAlgorithm rejects another name, naming the argument and the value', () => {
      expect(() => addon().setConvAlgorithm('winograd' as 'auto')).toThrow(/^setConvAlgorithm: algorithm: expected 'auto' or 'direct', got 'winograd'/);
    });
  });

  const fusedCase = cases[2]!;
  const fused =
    (activation: tf.fused.Activation | undefined, withBias: boolean, extra: () => Partial<Parameters<typeof tf.fused.conv2d>[0]> = () => ({})) =>
    (): tf.Tensor =>
      tf.fused.conv2d({
        x: randomTensor(fusedCase.x, 800) as tf.Tensor4D,
        filter: randomTensor(fusedCase.f, 801) as tf.Tensor4D,
        strides: fusedCase.strides,
        pad: fusedCase.pad as 'same',
        bias: withBias ? randomTensor([fusedCase.f[3]], 802) : undefined,
        activation,
        ...extra(),
      });

  for (const activation of ['linear', 'relu', 'relu6', 'elu', 'sigmoid'] as const) {
    it(`FusedConv2D: bias + ${activation}`, async () => {
      expect.hasAssertions();
      await expectMatchesCpu(fused(activation, true), { native: ['FusedConv2D'] });
    });
  }

  it('FusedConv2D: relu without bias, and leakyrelu with its alpha', async () => {
    expect.hasAssertions();
    await expectMatchesCpu(fused('relu', false), { native: ['FusedConv2D'] });
    await expectMatchesCpu(
      fused('leakyrelu', true, () => ({ leakyreluAlpha: 0.3 })),
      { native: ['FusedConv2D'] },
    );
  });

  it('FusedConv2D: 1×1 stride 2 with bias + relu, batch 1', async () => {
    expect.hasAssertions();
    await expectMatchesCpu(
      () =>
        tf.fused.conv2d({
          x: randomTensor([1, 7, 7, 4], 810) as tf.Tensor4D,
          filter: randomTensor([1, 1, 4, 3], 811) as tf.Tensor4D,
          strides: 2,
          pad: 'same',
          bias: randomTensor([3], 812),
          activation: 'relu',
        }),
      { native: ['FusedConv2D'] },
    );
  });

  it('FusedConv2D: prelu falls back and is right', async () => {
    expect.hasAssertions();
    await expectMatchesCpu(
      fused('prelu', true, () => ({ preluActivationWeights: randomTensor([fusedCase.f[3]], 803) })),
      { fallback: { FusedConv2D: /prelu/ } },
    );
  });

  it('FusedConv2D: a bias that is not a channel vector goes to the wasm kernel (which rejects it as without native kernels)', async () => {
    expect.hasAssertions();
    await expectFallbackThrows(
      () =>
        tf.fused.conv2d({
          x: randomTensor(fusedCase.x, 820) as tf.Tensor4D,
          filter: randomTensor(fusedCase.f, 821) as tf.Tensor4D,
          strides: 2,
          pad: 'same',
          bias: tf.scalar(0.5),
        }),
      'FusedConv2D',
      /bias shape \[\]/,
      /rank-1 bias/,
    );
  });

  it('NCHW convolutions are handed to the wasm kernels: Conv2DBackpropInput computes them right', async () => {
    expect.hasAssertions();
    const dy = [2, 3, 4, 5];
    const f = [3, 3, 2, 3];
    await expectMatchesCpu(
      () =>
        tf.engine().runKernel('Conv2DBackpropInput', { dy: randomTensor(dy, 900), filter: randomTensor(f, 901) }, {
          strides: 1,
          pad: 'same',
          dataFormat: 'NCHW',
          inputShape: [2, 2, 4, 5],
        } as never) as tf.Tensor,
      { fallback: { Conv2DBackpropInput: /dataFormat NCHW/ } },
    );
  });

  it('NCHW Conv2D and Conv2DBackpropFilter are handed to the wasm kernels, which reject them (never computed as NHWC)', async () => {
    expect.hasAssertions();
    await expectFallbackThrows(
      () => tf.conv2d(randomTensor([1, 2, 5, 5], 910) as tf.Tensor4D, randomTensor([3, 3, 2, 2], 911) as tf.Tensor4D, 1, 'same', 'NCHW'),
      'Conv2D',
      /dataFormat NCHW/,
      /does not support dataFormat/,
    );
    await expectFallbackThrows(
      () =>
        tf.engine().runKernel('Conv2DBackpropFilter', { x: randomTensor([1, 2, 4, 4], 912), dy: randomTensor([1, 3, 4, 4], 913) }, {
          strides: 1,
          pad: 'same',
          dataFormat: 'NCHW',
          filterShape: [3, 3, 2, 3],
        } as never) as tf.Tensor,
      'Conv2DBackpropFilter',
      /dataFormat NCHW/,
      /does not support dataFormat NCHW/,
    );
  });
});

describeNative("@mia/core's conv2dBias: one native kernel, the gradients of conv2d + add", () => {
  beforeAll(setupNative);

  // conv2dBias takes one stride for both axes and no numeric padding.
  const biasCases = cases.filter((c) => typeof c.strides === 'number' && typeof c.pad !== 'number');

  for (const [i, c] of biasCases.entries()) {
    it(`forward and the gradients in x, filter and bias: ${c.name}`, async () => {
      expect.hasAssertions();
      const fn = (): tf.Tensor[] => {
        const x = randomTensor(c.x, 900 + i);
        const f = randomTensor(c.f, 910 + i);
        const b = randomTensor([c.f[3]], 920 + i);
        const dy = randomTensor(outShape(c), 930 + i);
        const y = (a: tf.Tensor, w: tf.Tensor, bias: tf.Tensor): tf.Tensor =>
          conv2dBias(a as tf.Tensor4D, w as tf.Tensor4D, bias, c.strides as number, c.pad as 'same');
        // On cpu (no CONV2D_BIAS kernel) this is tf.conv2d then tf.add, differentiated by tfjs.
        return [y(x, f, b), ...tf.grads((a: tf.Tensor, w: tf.Tensor, bias: tf.Tensor) => tf.sum(tf.mul(y(a, w, bias), dy)))([x, f, b])];
      };
      await expectMatchesCpu(fn, { native: [CONV2D_BIAS, 'Conv2DBackpropInput', 'Conv2DBackpropFilter'] });
    });
  }

  it('computes no input gradient when the input is data (a first layer): only filter and bias', async () => {
    expect.hasAssertions();
    const c = biasCases[0]!;
    const fn = (): tf.Tensor[] => {
      const x = randomTensor(c.x, 950);
      const dy = randomTensor(outShape(c), 951);
      return tf.grads((w: tf.Tensor, bias: tf.Tensor) => tf.sum(tf.mul(conv2dBias(x as tf.Tensor4D, w as tf.Tensor4D, bias, 1, 'same'), dy)))([
        randomTensor(c.f, 952),
        randomTensor([c.f[3]], 953),
      ]);
    };
    await expectMatchesCpu(fn, { native: [CONV2D_BIAS, 'Conv2DBackpropFilter'] });
    resetNativeKernelStats();
    tf.dispose(tf.tidy(fn));
    expect(nativeKernelStats()['Conv2DBackpropInput']).toBeUndefined();
    expect(nativeKernelStats()['Conv2DBackpropFilter']?.native).toBe(1);
  });

  it('rejects shapes that do not fit, naming the argument', () => {
    tf.tidy(() => {
      const x = tf.zeros([1, 4, 4, 3]) as tf.Tensor4D;
      const f = tf.zeros([3, 3, 3, 2]) as tf.Tensor4D;
      expect(() => conv2dBias(x, f, tf.zeros([3]), 1, 'same')).toThrow(/^conv2dBias: bias must have shape \[2\], got \[3\]/);
      expect(() => conv2dBias(x, tf.zeros([3, 3, 4, 2]) as tf.Tensor4D, tf.zeros([2]), 1, 'same')).toThrow(
        /filter must have shape \[kh, kw, 3, outChannels\], got \[3,3,4,2\]/,
      );
      expect(() => conv2dBias(x, f, tf.zeros([2]), 0, 'same')).toThrow(/strides must be a positive integer, got 0/);
    });
  });
});
