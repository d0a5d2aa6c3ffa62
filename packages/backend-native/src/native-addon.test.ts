import { beforeAll, expect, it } from 'vitest';
import { loadNativeAddon } from './load-native-addon';
import type { NativeAddon } from './native-addon';
import { callOf, calls, convDims, expectRejected, f32, invoke, type Call } from './test-utils/addon-calls';
import { describeNative } from './test-utils/native-available';

describeNative('the addon rejects bad input with an error naming the function and the argument', () => {
  let addon: NativeAddon;
  beforeAll(() => {
    addon = loadNativeAddon();
  });

  it('accepts every valid call of the table (so each rejection below is caused by the one bad argument)', () => {
    expect.hasAssertions();
    for (const call of calls)
      expect(
        () =>
          invoke(
            addon,
            call.fn,
            call.args().map(([, v]) => v),
          ),
        call.fn,
      ).not.toThrow();
  });

  it('views: wrong dtype (Float64Array, Int32Array, a number, a plain array) → TypeError; one element short → RangeError', () => {
    expect.hasAssertions();
    for (const call of calls) {
      call.args().forEach(([, value], at) => {
        if (!(value instanceof Float32Array)) return;
        expectRejected(addon, call, at, new Float64Array(value.length), TypeError, /expected a Float32Array, got Float64Array/);
        expectRejected(addon, call, at, new Int32Array(value.length), TypeError, /got Int32Array/);
        expectRejected(addon, call, at, 3, TypeError, /got number 3/);
        expectRejected(addon, call, at, Array.from(value), TypeError, /got an array/);
        // batchNorm's statistics may hold 1 or `channels` values, and say so.
        const short = new RegExp(`at least ${value.length} elements, got ${value.length - 1}|expected 1 or ${value.length} values, got ${value.length - 1}`);
        expectRejected(addon, call, at, value.subarray(0, value.length - 1), RangeError, short);
      });
    }
  });

  it('a view whose buffer was detached (as when the wasm heap grows) → RangeError', () => {
    expect.hasAssertions();
    const x = new Float32Array(6);
    structuredClone(x.buffer, { transfer: [x.buffer] });
    expect(x.length).toBe(0);
    expectRejected(addon, callOf('unary'), 1, x, RangeError, /at least 6 elements, got 0/);
  });

  it('sizes: NaN, ±Infinity, negative, fractional and huge values → RangeError; a string → TypeError', () => {
    expect.hasAssertions();
    for (const call of calls) {
      call.args().forEach(([name, value], at) => {
        if (typeof value !== 'number' || name === 'alpha' || name === 'eps') return;
        for (const bad of [NaN, Infinity, -Infinity, -1, 1.5, 2 ** 31]) expectRejected(addon, call, at, bad, RangeError);
        expectRejected(addon, call, at, '2', TypeError, /expected a number, got a string/);
      });
    }
    // Dims that are valid one by one but whose product is absurd.
    const bn = callOf('batchNorm');
    expectRejected(addon, bn, 6, 2 ** 31 - 1, RangeError, /at least 6442450941 elements, got 6/, 'x');
    expectRejected(addon, callOf('reduce'), 3, 2 ** 30, RangeError, /at least 8589934592 elements, got 24/, 'x');
    expectRejected(addon, callOf('batchNormTrain'), 6, 2 ** 31 - 1, RangeError, /at least/, 'x');
  });

  it('dims arrays: NaN, Infinity, negative or huge entries, wrong counts, zero sizes, not an array → RangeError / TypeError', () => {
    expect.hasAssertions();
    for (const call of calls) {
      call.args().forEach(([name, value], at) => {
        if (!Array.isArray(value) || name === 'inputs') return;
        const dims = value as number[];
        for (const bad of [NaN, Infinity, -1, 2 ** 31, 0.5])
          expectRejected(addon, call, at, [bad, ...dims.slice(1)], RangeError, new RegExp(`^${call.fn}: ${name}\\[0\\]: expected a finite integer`));
        expectRejected(addon, call, at, [...dims, 1, 1, 1, 1, 1, 1, 1, 1, 1], RangeError, /values, got/);
        if (name === 'dims') {
          expectRejected(addon, call, at, dims.slice(0, -1), RangeError, new RegExp(`expected ${dims.length} values, got ${dims.length - 1}`));
          expectRejected(addon, call, at, [0, ...dims.slice(1)], RangeError, /must be ≥ 1, got 0/);
        }
        expectRejected(addon, call, at, 7, TypeError, /expected an array of integers, got number 7/);
        expectRejected(addon, call, at, ['1', ...dims.slice(1)], TypeError, /\[0\]: expected a number, got a string/);
      });
    }
  });

  it('binary: shapes whose element count overflows or exceeds 2^40 → RangeError (never a wrapped size)', () => {
    expect.hasAssertions();
    const binary = callOf('binary');
    // 65536^4 = 2^64 wraps to 0 in int64 arithmetic (which used to make this call return silently).
    const huge = [65536, 65536, 65536, 65536];
    expect(() => addon.binary('add', f32(6), huge, f32(1), [1], f32(6), huge)).toThrow(RangeError);
    expect(() => addon.binary('add', f32(6), huge, f32(1), [1], f32(6), huge)).toThrow(/^binary: aShape: more than 2\^40 elements/);
    expectRejected(addon, binary, 2, [65536, 65536, 65536, 65536], RangeError, /more than 2\^40 elements/);
    expectRejected(addon, binary, 6, [2 ** 31 - 1, 2 ** 31 - 1, 2 ** 31 - 1], RangeError, /more than 2\^40 elements/);
    expectRejected(addon, binary, 6, [3, 3], RangeError, /shapes \[2,3\] and \[3\] do not broadcast to outShape \[3,3\]/, 'shapes');
  });

  it('convolutions: an output size that does not follow from input, filter, stride and padding → RangeError', () => {
    expect.hasAssertions();
    for (const call of calls.filter((c) => c.fn.startsWith('conv2d'))) {
      const at = call.args().findIndex(([n]) => n === 'dims');
      const dims = [...convDims];
      dims[7] = 5; // oh
      expectRejected(addon, call, at, dims, RangeError, /output height 5 does not follow from input 4, filter 3/);
      const wide = [...convDims];
      wide[4] = 9; // a 9×3 filter on 4 + 2 padded rows
      wide[7] = 1;
      expectRejected(addon, call, at, wide, RangeError, /does not follow/);
      const dilated = [...convDims];
      dilated[15] = 0;
      expectRejected(addon, call, at, dilated, RangeError, /dilations must be ≥ 1/);
    }
    const pool = callOf('pool2d');
    expectRejected(addon, pool, 3, [1, 4, 4, 2, 2, 2, 2, 2, 0, 0, 0, 2], RangeError, /output size must be ≥ 1/);
  });

  it('unknown op, mode, activation and layout names → RangeError naming the argument and the value', () => {
    expect.hasAssertions();
    const unknown: [Call['fn'], string, string][] = [
      ['binary', 'op', 'pow'],
      ['unary', 'op', 'gelu'],
      ['reduce', 'op', 'prod'],
      ['pool2d', 'mode', 'min'],
      ['biasActivation', 'activation', 'gelu'],
      ['conv2dForward', 'activation', 'tanh'],
      ['denseForward', 'activation', 'sigmoid'],
      ['denseGradBias', 'activation', 'elu'],
      ['softmaxCrossEntropy', 'reduction', 'sum'],
    ];
    for (const [fn, name, value] of unknown) {
      const call = callOf(fn);
      const at = call.args().findIndex(([n]) => n === name);
      expectRejected(addon, call, at, value, RangeError, new RegExp(`'${value}'`));
      expectRejected(addon, call, at, 1, TypeError, /expected a string/);
    }
    expect(() => addon.setConvLayout('tiled' as 'nhwc')).toThrow(/^setConvLayout: layout: expected 'nhwc' or 'blocked', got 'tiled'/);
    expect(() => addon.setNumThreads(0)).toThrow(RangeError);
    expect(() => addon.setNumThreads(0)).toThrow(/^setNumThreads: threads: expected an integer in \[1, 1024\], got 0/);
  });

  it('missing arguments and other bad shapes of the arguments → TypeError / RangeError naming them', () => {
    expect.hasAssertions();
    for (const call of calls) {
      const args = call.args().map(([, v]) => v);
      const last = call.args().at(-1)![0];
      expect(() => invoke(addon, call.fn, args.slice(0, -1)), call.fn).toThrow(new RegExp(`^${call.fn}: ${last} is missing`));
    }
    expect(() => addon.addN([], new Float32Array(6), 6)).toThrow(/^addN: inputs: expected a non-empty array/);
    expect(() => addon.addN([new Float32Array(6), new Float32Array(5)], new Float32Array(6), 6)).toThrow(
      /^addN: inputs\[1\]: expected a Float32Array of at least 6 elements/,
    );
    expect(() => addon.addN([new Float32Array(6), new Float64Array(6) as unknown as Float32Array], new Float32Array(6), 6)).toThrow(TypeError);
    expect(() => addon.gemm(false, false, 2, 3, 4, f32(8), f32(12), f32(12), 2, 7, 0)).toThrow(/^gemm: strideA: expected 0 or m·k = 8, got 7/);
    expect(() => addon.gemm(0 as unknown as boolean, false, 2, 3, 4, f32(8), f32(12), f32(6), 1, 0, 0)).toThrow(/^gemm: transposeA: expected a boolean/);
    expect(() => addon.batchNorm(f32(6), f32(2), f32(3), null, null, f32(6), 2, 3, 1e-3)).toThrow(/^batchNorm: mean: expected 1 or 3 values, got 2/);
    expect(() => addon.batchNorm(f32(6), f32(3), f32(3), null, null, f32(6), 2, 3, NaN)).toThrow(/^batchNorm: eps: expected a finite number/);
  });

  it('keepFreedMemory: glibc accepts raising and restoring its thresholds; a non-boolean → TypeError', () => {
    expect(addon.keepFreedMemory(true)).toBe(true);
    expect(addon.keepFreedMemory(false)).toBe(true);
    expect(() => (addon.keepFreedMemory as (v: unknown) => boolean)('yes')).toThrow(/keepFreedMemory: keep must be a boolean/);
    expect(() => (addon.keepFreedMemory as () => boolean)()).toThrow(TypeError);
    addon.keepFreedMemory(true);
  });

  it('keeps working after the bad calls: a correct call gives the right values', () => {
    expect.hasAssertions();
    // [[1, 2], [3, 4]] · [[5, 6], [7, 8]] = [[19, 22], [43, 50]] (hand calculation).
    const c = new Float32Array(4);
    addon.gemm(false, false, 2, 2, 2, Float32Array.of(1, 2, 3, 4), Float32Array.of(5, 6, 7, 8), c, 1, 0, 0);
    expect(Array.from(c)).toEqual([19, 22, 43, 50]);
    const out = new Float32Array(6);
    addon.binary('sub', Float32Array.of(1, 2, 3, 4, 5, 6), [2, 3], Float32Array.of(1, 1, 1), [3], out, [2, 3]);
    expect(Array.from(out)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describeNative('the addon computes through views', () => {
  let addon: NativeAddon;
  beforeAll(() => {
    addon = loadNativeAddon();
  });

  it('writes through views at an offset into a larger buffer (as on the wasm heap), and only inside them', () => {
    expect.hasAssertions();
    const heap = new Float32Array(32).fill(7);
    const x = heap.subarray(4, 10);
    x.set([-1, 2, -3, 4, -5, 6]);
    addon.unary('relu', x, heap.subarray(16, 22), 6, 0);
    expect(Array.from(heap.subarray(16, 22))).toEqual([0, 2, 0, 4, 0, 6]);
    expect(Array.from(heap.subarray(10, 16))).toEqual([7, 7, 7, 7, 7, 7]);
    expect(Array.from(heap.subarray(22))).toEqual([7, 7, 7, 7, 7, 7, 7, 7, 7, 7]);
  });
});
