import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadNativeAddon, packageRoot } from './load-native-addon';
import type { NativeAddon } from './native-addon';
import { onNative, randomTensor, randomValues, setupNative } from './test-utils/backends';
import { describeNative, nativeSkipReason } from './test-utils/native-available';
import { nativeBackendInfo, nativePrecision, useNativeTraining } from './use-native-training';

// Error bounds. bf16 keeps 8 significant bits: rounding an input to it has a relative error of at
// most u = 2^-8 ≈ 3.9e-3. A product of two rounded inputs then carries about √2 of that, and for
// sums of independent, zero-mean terms (the uniform(-1, 1) data below) the normwise relative error
// of the sum stays at that level, ≈ 0.5–0.8 u ≈ 2–3e-3 (measured: 2.1e-3 for every kernel here).
// BF16_MAX = 1e-2 leaves a margin of 3–5× over that; fp32 kernels give ≈ 1e-7. BF16_MIN = 2e-4 is
// 10× below the bf16 error and 1000× above fp32's: an error below it means the inputs were not
// rounded to bf16, i.e. the kernel silently stayed in fp32.
const BF16_MAX = 1e-2;
const BF16_MIN = 2e-4;

/** ‖actual − expected‖₂ / ‖expected‖₂. */
function normwiseError(actual: Float32Array, expected: Float32Array): number {
  let d = 0;
  let s = 0;
  for (let i = 0; i < expected.length; i++) {
    d += (actual[i]! - expected[i]!) ** 2;
    s += expected[i]! ** 2;
  }
  return Math.sqrt(d / s);
}

const bitEqual = (a: Float32Array, b: Float32Array): boolean => a.length === b.length && Buffer.from(a.buffer).equals(Buffer.from(b.buffer));

interface ConvCase {
  name: string;
  /** [n, h, w, ci, k, co, stride] with "same" padding (k odd). */
  shape: [number, number, number, number, number, number, number];
}

const convCases: ConvCase[] = [
  { name: '3×3 stride 1, 64 channels on 8×8 (a Winograd layer)', shape: [2, 8, 8, 64, 3, 64, 1] },
  { name: '3×3 stride 1, 32 channels on 32×32, batch 32 (a weight gradient of 2^28 multiply-adds)', shape: [32, 32, 32, 32, 3, 32, 1] },
  { name: '3×3 stride 2, 16 → 32 channels', shape: [2, 9, 9, 16, 3, 32, 2] },
  { name: '1×1 stride 2 (shortcut)', shape: [2, 8, 8, 32, 1, 64, 2] },
  { name: '3×3 stride 1, 3 input channels (a first layer)', shape: [4, 8, 8, 3, 3, 16, 1] },
];

/** The addon's dims for a "same"-padded convolution case, and its tensor sizes. */
function convGeometry(c: ConvCase): { dims: number[]; x: number; w: number; y: number } {
  const [n, h, w, ci, k, co, s] = c.shape;
  const oh = Math.ceil(h / s);
  const ow = Math.ceil(w / s);
  const padH = Math.max(0, (oh - 1) * s + k - h);
  const padW = Math.max(0, (ow - 1) * s + k - w);
  const dims = [n, h, w, ci, k, k, co, oh, ow, s, s, padH >> 1, padW >> 1, padH - (padH >> 1), padW - (padW >> 1), 1, 1];
  return { dims, x: n * h * w * ci, w: k * k * ci * co, y: n * oh * ow * co };
}

type Pass = 'forward' | 'backward data' | 'backward weights';

/**
 * What a pass computes in under bf16 precision (conv.cc's bf16Direct and winogradCandidate): `fp32`
 * for the weight gradient of layers under 2^28 multiply-adds or with < 16 input channels; `winograd`
 * (fp32) on Winograd layers where bf16 runs without AMX, when oneDNN has Winograd here; else `bf16`.
 */
function expectedKernel(c: ConvCase, pass: Pass, info: { isa: string }, fp32Impl: string): 'fp32' | 'winograd' | 'bf16' {
  const [n, h, w, ci, k, co, s] = c.shape;
  const macs = n * Math.ceil(h / s) * Math.ceil(w / s) * co * ci * k * k;
  const fp32Pass = pass === 'backward weights' && (ci < 16 || macs < 2 ** 28);
  const winogradLayer = /wino/.test(fp32Impl);
  if (winogradLayer && (fp32Pass || !/amx/.test(info.isa))) return 'winograd';
  return fp32Pass ? 'fp32' : 'bf16';
}

/** One convolution pass in the addon's current precision, on fixed seeded inputs. */
function convPass(addon: NativeAddon, c: ConvCase, pass: Pass, seed: number): Float32Array {
  const g = convGeometry(c);
  if (pass === 'forward') {
    const y = new Float32Array(g.y);
    addon.conv2dForward(randomValues(g.x, seed), randomValues(g.w, seed + 1), null, y, g.dims, 'linear');
    return y;
  }
  if (pass === 'backward data') {
    const dx = new Float32Array(g.x);
    addon.conv2dBackwardData(randomValues(g.y, seed + 2), randomValues(g.w, seed + 1), dx, g.dims);
    return dx;
  }
  const dw = new Float32Array(g.w);
  addon.conv2dBackwardWeights(randomValues(g.x, seed), randomValues(g.y, seed + 2), dw, g.dims);
  return dw;
}

/** oneDNN's implementation of a cached primitive of `kind` (f, d, w) and precision for these dims. */
function implOf(addon: NativeAddon, kind: string, bf16: boolean, dims: number[]): string | undefined {
  const pattern = new RegExp(`^${kind}n--a${bf16 ? 'h' : ''}\\d+,${dims.join(',')}$`);
  return Object.entries(addon.info().primitives).find(([key]) => pattern.test(key))?.[1];
}

interface MatMulCase {
  name: string;
  m: number;
  n: number;
  k: number;
  batch: number;
  /** Which side is one matrix broadcast over the batch. */
  broadcast?: 'a' | 'b';
}

const matMulCases: MatMulCase[] = [
  { name: 'a dense layer (128 × 600 · 600 × 256)', m: 128, n: 256, k: 600, batch: 1 },
  { name: 'odd sizes', m: 37, n: 53, k: 71, batch: 1 },
  { name: 'batch 3', m: 20, n: 30, k: 40, batch: 3 },
  { name: 'batch 3, b broadcast', m: 20, n: 30, k: 40, batch: 3, broadcast: 'b' },
  { name: 'batch 3, a broadcast', m: 20, n: 30, k: 40, batch: 3, broadcast: 'a' },
];

/** One matrix product through the addon's gemm in its current precision, on fixed seeded inputs. */
function matMul(addon: NativeAddon, c: MatMulCase, ta: boolean, tb: boolean, seed: number): Float32Array {
  const out = new Float32Array(c.batch * c.m * c.n);
  const a = randomValues((c.broadcast === 'a' ? 1 : c.batch) * c.m * c.k, seed);
  const b = randomValues((c.broadcast === 'b' ? 1 : c.batch) * c.k * c.n, seed + 1);
  addon.gemm(ta, tb, c.m, c.n, c.k, a, b, out, c.batch, c.broadcast === 'a' ? 0 : c.m * c.k, c.broadcast === 'b' ? 0 : c.k * c.n);
  return out;
}

describeNative('bf16 precision: options and what the CPU supports', () => {
  const child = fileURLToPath(new URL('./test-utils/precision-child.ts', import.meta.url));
  const run = async (choice: string, env: NodeJS.ProcessEnv = {}): Promise<Record<string, unknown>> => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--conditions=@mia/source', '--import', 'tsx', child, choice], {
      env: { ...process.env, MIA_PRECISION: '', ...env },
      timeout: 60_000,
    });
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
  };

  it('on a CPU without bf16 dot products (oneDNN capped at AVX-512 without BF16): bf16 is a BackendError, auto is fp32, saying why', async () => {
    expect.hasAssertions();
    const capped = { DNNL_MAX_CPU_ISA: 'AVX512_CORE' };
    const bf16 = await run('bf16', capped);
    expect(bf16['name']).toBe('BackendError');
    expect(bf16['error']).toMatch(
      /^useNativeTraining: precision 'bf16' \(asked for by options\.precision\) needs a CPU with bf16 dot products.*reports ISA (avx512_core|avx2)/,
    );
    const fromEnv = await run('env', { ...capped, MIA_PRECISION: 'bf16' });
    expect(fromEnv['error']).toMatch(/precision 'bf16' \(asked for by MIA_PRECISION\)/);
    const auto = await run('auto', capped);
    expect(auto).toMatchObject({ precision: 'fp32', info: 'fp32', bf16: false });
    expect(auto['reason']).toMatch(/^auto \(options\.precision\): the CPU lacks bf16 dot products \(oneDNN ISA (avx512_core|avx2)\)$/);
  }, 120_000);

  it('by default and with fp32, the precision is fp32 on every CPU; with auto, bf16 exactly where the CPU has it', async () => {
    expect.hasAssertions();
    const cpuHasBf16 = loadNativeAddon().info().bf16;
    expect(await run('env')).toMatchObject({ precision: 'fp32', reason: 'the default', info: 'fp32' });
    expect(await run('fp32')).toMatchObject({ precision: 'fp32', reason: 'asked for by options.precision', info: 'fp32' });
    const auto = await run('env', { MIA_PRECISION: 'auto' });
    expect(auto).toMatchObject({ precision: cpuHasBf16 ? 'bf16' : 'fp32', info: cpuHasBf16 ? 'bf16' : 'fp32' });
    expect(auto['reason']).toMatch(cpuHasBf16 ? /^auto \(MIA_PRECISION\): the CPU has bf16 dot products/ : /the CPU lacks bf16 dot products/);
  }, 120_000);

  it('the addon rejects an unknown precision name with a RangeError naming the argument and the value', () => {
    expect.hasAssertions();
    const addon = loadNativeAddon();
    expect(() => addon.setPrecision('fp16' as 'fp32')).toThrow(RangeError);
    expect(() => addon.setPrecision('fp16' as 'fp32')).toThrow(/^setPrecision: precision: expected 'fp32' or 'bf16', got 'fp16'/);
    expect(() => (addon.setPrecision as (p: unknown) => void)(16)).toThrow(/^setPrecision: precision: expected a string/);
    expect(addon.info().precision).toBe('fp32');
  });
});

/** Why the bf16 numeric checks cannot run here (the CPU lacks bf16 dot products), or undefined. */
const bf16Skip = ((): string | undefined => {
  if (nativeSkipReason !== undefined) return undefined; // describeNative skips (or fails) the suite and says why
  const info = loadNativeAddon().info();
  return info.bf16 ? undefined : `this CPU has no bf16 dot products (oneDNN ISA ${info.isa})`;
})();
if (bf16Skip !== undefined && process.env['MIA_REQUIRE_BF16'] !== '1')
  process.stderr.write(`@mia/backend-native: the bf16 kernel checks are skipped: ${bf16Skip}; MIA_REQUIRE_BF16=1 makes this a failure\n`);

/**
 * `it` for the checks that need bf16 dot products: skipped with the reason in the name where the CPU
 * lacks them, or, with `MIA_REQUIRE_BF16=1`, replaced by a test that fails with the reason.
 */
function bf16It(name: string, body: () => void | Promise<void>): void {
  if (bf16Skip === undefined) it(name, body);
  else if (process.env['MIA_REQUIRE_BF16'] === '1')
    it(name, () => {
      throw new Error(`MIA_REQUIRE_BF16=1 but ${bf16Skip}`);
    });
  else it.skip(`${name} [skipped: ${bf16Skip}]`, body);
}

describeNative('bf16 precision: convolutions and matrix products against fp32', () => {
  let addon: NativeAddon;
  beforeAll(async () => {
    await setupNative();
    addon = loadNativeAddon();
  });
  afterAll(() => addon.setPrecision('fp32'));

  describe('convolutions', () => {
    for (const [i, c] of convCases.entries()) {
      for (const pass of ['forward', 'backward data', 'backward weights'] as const) {
        bf16It(
          `${pass}, ${c.name}: bf16 within ${BF16_MAX} of fp32 and rounded (error ≥ ${BF16_MIN}) by a bf16 kernel, or bit-equal to fp32 where it stays fp32`,
          () => {
            expect.hasAssertions();
            const kind = pass === 'forward' ? 'f' : pass === 'backward data' ? 'd' : 'w';
            const dims = convGeometry(c).dims;
            addon.setPrecision('fp32');
            const fp32 = convPass(addon, c, pass, 10 * i);
            addon.setPrecision('bf16');
            const bf16 = convPass(addon, c, pass, 10 * i);
            const impl = implOf(addon, kind, true, dims);
            const expected = expectedKernel(c, pass, addon.info(), implOf(addon, kind, false, dims) ?? '');
            if (expected === 'bf16') {
              const error = normwiseError(bf16, fp32);
              expect(error).toBeLessThanOrEqual(BF16_MAX);
              expect(error).toBeGreaterThanOrEqual(BF16_MIN);
              expect(impl).toMatch(/bf16/);
            } else {
              expect(bitEqual(bf16, fp32)).toBe(true);
              expect(impl).not.toMatch(/bf16/);
              if (expected === 'winograd') expect(impl).toMatch(/wino/);
            }
          },
        );
      }
    }

    bf16It('every kind of pass runs in bf16 somewhere among the cases (forward, backward data, backward weights)', () => {
      expect.hasAssertions();
      const kinds = new Set(
        Object.entries(addon.info().primitives)
          .filter(([key, impl]) => /^[fdw]n--ah/.test(key) && /bf16/.test(impl))
          .map(([key]) => key[0]),
      );
      expect([...kinds].sort()).toEqual(['d', 'f', 'w']);
    });

    bf16It('fused bias and relu in bf16: within the bound of fp32', () => {
      expect.hasAssertions();
      const c = convCases[1]!;
      const g = convGeometry(c);
      const out = (): Float32Array => {
        const y = new Float32Array(g.y);
        addon.conv2dForward(randomValues(g.x, 1), randomValues(g.w, 2), randomValues(c.shape[5], 3), y, g.dims, 'relu');
        return y;
      };
      addon.setPrecision('fp32');
      const fp32 = out();
      addon.setPrecision('bf16');
      const bf16 = out();
      expect(fp32.some((v) => v === 0) && fp32.some((v) => v > 0)).toBe(true);
      const error = normwiseError(bf16, fp32);
      expect(error).toBeLessThanOrEqual(BF16_MAX);
      expect(error).toBeGreaterThanOrEqual(BF16_MIN);
    });
  });

  describe('matrix products', () => {
    for (const [i, c] of matMulCases.entries()) {
      for (const ta of [false, true]) {
        for (const tb of [false, true]) {
          bf16It(`${c.name}, transposeA ${ta}, transposeB ${tb}: within ${BF16_MAX} of fp32, rounded to bf16`, () => {
            expect.hasAssertions();
            addon.setPrecision('fp32');
            const fp32 = matMul(addon, c, ta, tb, 10 * i);
            addon.setPrecision('bf16');
            const bf16 = matMul(addon, c, ta, tb, 10 * i);
            const error = normwiseError(bf16, fp32);
            expect(error).toBeLessThanOrEqual(BF16_MAX);
            expect(error).toBeGreaterThanOrEqual(BF16_MIN);
            // Each batch entry on its own (a broadcast that reused the wrong matrix would show here).
            const size = c.m * c.n;
            for (let j = 0; j < c.batch; j++)
              expect(normwiseError(bf16.subarray(j * size, (j + 1) * size), fp32.subarray(j * size, (j + 1) * size))).toBeLessThanOrEqual(BF16_MAX);
          });
        }
      }
    }

    bf16It('values that bf16 holds exactly give the exact product (fp32 accumulation): [[1, 2], [3, 4]] · [[5, 6], [7, 8]]', () => {
      expect.hasAssertions();
      addon.setPrecision('bf16');
      // Hand calculation: [[19, 22], [43, 50]]; every input and partial sum is exact in bf16 and fp32.
      const c = new Float32Array(4);
      addon.gemm(false, false, 2, 2, 2, Float32Array.of(1, 2, 3, 4), Float32Array.of(5, 6, 7, 8), c, 1, 0, 0);
      expect(Array.from(c)).toEqual([19, 22, 43, 50]);
      // 1 + 2^-12 is not a bf16 number: rounded to 1, so 1·(1 + 2^-12) = 1 in bf16 and 1 + 2^-12 in fp32.
      const d = new Float32Array(1);
      addon.gemm(false, false, 1, 1, 1, Float32Array.of(1), Float32Array.of(1 + 2 ** -12), d, 1, 0, 0);
      expect(d[0]).toBe(1);
      addon.setPrecision('fp32');
      addon.gemm(false, false, 1, 1, 1, Float32Array.of(1), Float32Array.of(1 + 2 ** -12), d, 1, 0, 0);
      expect(d[0]).toBe(Math.fround(1 + 2 ** -12));
    });
  });

  bf16It('determinism: the same inputs twice give bit-equal outputs; fp32 after bf16 is bit-equal to fp32 before it', () => {
    expect.hasAssertions();
    const c = convCases[1]!; // every pass in bf16 (see the cases above)
    const m = matMulCases[2]!;
    const all = (): Float32Array[] => [
      ...(['forward', 'backward data', 'backward weights'] as const).map((pass) => convPass(addon, c, pass, 7)),
      matMul(addon, m, false, true, 7),
    ];
    addon.setPrecision('fp32');
    const fp32Before = all();
    addon.setPrecision('bf16');
    const first = all();
    const second = all();
    addon.setPrecision('fp32');
    const fp32After = all();
    first.forEach((out, i) => expect(bitEqual(out, second[i]!), `output ${i} bf16`).toBe(true));
    fp32Before.forEach((out, i) => expect(bitEqual(out, fp32After[i]!), `output ${i} fp32`).toBe(true));
    first.forEach((out, i) => expect(bitEqual(out, fp32Before[i]!), `output ${i} differs between bf16 and fp32`).toBe(false));
  });

  bf16It('the precision is per thread: a worker thread computes in fp32 while the main thread is in bf16', async () => {
    expect.hasAssertions();
    addon.setPrecision('bf16');
    // The worker loads the same addon (one copy per process) and reports its own thread's precision.
    const code = `const { parentPort, workerData } = require('node:worker_threads');
      const addon = workerData.explicit ? require(workerData.explicit) : require(workerData.gypBuild)(workerData.root);
      parentPort.postMessage(addon.info().precision);`;
    const workerData = {
      explicit: process.env['MIA_NATIVE_ADDON'] ?? '',
      gypBuild: createRequire(import.meta.url).resolve('node-gyp-build'),
      root: packageRoot(),
    };
    const inWorker = await new Promise<string>((resolve, reject) => {
      const worker = new Worker(code, { eval: true, workerData });
      worker.once('message', (m: string) => void worker.terminate().then(() => resolve(m)));
      worker.once('error', reject);
    });
    expect(inWorker).toBe('fp32');
    expect(addon.info().precision).toBe('bf16');
    addon.setPrecision('fp32');
  });

  bf16It('through tfjs (useNativeTraining precision bf16): conv2d and matMul with their gradients, close to fp32, no tensor left over', async () => {
    expect.hasAssertions();
    const step = (): tf.Tensor[] => {
      const x = randomTensor([2, 8, 8, 16], 1) as tf.Tensor4D;
      const f = randomTensor([3, 3, 16, 32], 2) as tf.Tensor4D;
      const w = randomTensor([32, 10], 3) as tf.Tensor2D;
      const loss = (x: tf.Tensor, f: tf.Tensor, w: tf.Tensor): tf.Scalar =>
        tf.sum(tf.square(tf.matMul(tf.reshape(tf.mean(tf.conv2d(x as tf.Tensor4D, f as tf.Tensor4D, 2, 'same'), [1, 2]), [2, 32]), w)));
      const { value, grads } = tf.valueAndGrads(loss)([x, f, w]);
      return [value, ...grads];
    };
    const counted = { native: ['Conv2D', 'Conv2DBackpropInput', 'Conv2DBackpropFilter', 'BatchMatMul'] };
    const fp32 = await onNative(step, counted);
    const info = await useNativeTraining({ threads: 2, precision: 'bf16' });
    expect(info.addon.precision).toBe('bf16');
    expect(nativePrecision()).toBe('bf16');
    expect(nativeBackendInfo().precisionReason).toMatch(/^asked for by options\.precision; the CPU has bf16 dot products/);
    const bf16 = await onNative(step, counted);
    await useNativeTraining({ threads: 2, precision: 'fp32' });
    expect(nativePrecision()).toBe('fp32');
    fp32.forEach((v, i) => {
      const error = normwiseError(bf16[i]!.values as Float32Array, v.values as Float32Array);
      expect(error, `output ${i}`).toBeLessThanOrEqual(BF16_MAX);
      expect(error, `output ${i}`).toBeGreaterThanOrEqual(BF16_MIN);
    });
  });
});
