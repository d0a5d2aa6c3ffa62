import { BackendError } from '@mia/core';
import { describe, expect, it } from 'vitest';
import { requestedPrecision, resolvePrecision } from './resolve-precision';
import { useNativeTraining } from './use-native-training';

const withBf16 = { bf16: true, isa: 'avx512_core_bf16' };
const withoutBf16 = { bf16: false, isa: 'avx512_core' };

describe('requestedPrecision', () => {
  it('takes the option first, then MIA_PRECISION, then fp32', () => {
    expect.hasAssertions();
    expect(requestedPrecision('bf16', { MIA_PRECISION: 'fp32' })).toEqual({ choice: 'bf16', source: 'options.precision' });
    expect(requestedPrecision(undefined, { MIA_PRECISION: 'auto' })).toEqual({ choice: 'auto', source: 'MIA_PRECISION' });
    expect(requestedPrecision(undefined, { MIA_PRECISION: '' })).toEqual({ choice: 'fp32', source: 'default' });
    expect(requestedPrecision(undefined, {})).toEqual({ choice: 'fp32', source: 'default' });
  });

  it('rejects an option or a MIA_PRECISION other than fp32, bf16 and auto, naming it and the value', () => {
    expect.hasAssertions();
    for (const bad of ['fp16', 'BF16', 'float32', 1, null]) {
      expect(() => requestedPrecision(bad, {})).toThrow(BackendError);
      expect(() => requestedPrecision(bad, {})).toThrow(`useNativeTraining: options.precision must be 'fp32', 'bf16' or 'auto', got ${JSON.stringify(bad)}`);
    }
    for (const bad of ['fp16', 'bfloat16', ' ']) {
      expect(() => requestedPrecision(undefined, { MIA_PRECISION: bad })).toThrow(BackendError);
      expect(() => requestedPrecision(undefined, { MIA_PRECISION: bad })).toThrow(
        `useNativeTraining: MIA_PRECISION must be 'fp32', 'bf16' or 'auto', got ${JSON.stringify(bad)}`,
      );
    }
  });
});

describe('resolvePrecision', () => {
  it('auto is bf16 where the CPU has bf16 dot products and fp32 elsewhere, saying why', () => {
    expect.hasAssertions();
    expect(resolvePrecision({ choice: 'auto', source: 'MIA_PRECISION' }, withBf16)).toEqual({
      precision: 'bf16',
      reason: 'auto (MIA_PRECISION): the CPU has bf16 dot products (oneDNN ISA avx512_core_bf16)',
    });
    expect(resolvePrecision({ choice: 'auto', source: 'options.precision' }, withoutBf16)).toEqual({
      precision: 'fp32',
      reason: 'auto (options.precision): the CPU lacks bf16 dot products (oneDNN ISA avx512_core)',
    });
  });

  it('fp32 is fp32 on every CPU; bf16 is bf16 where the CPU has it', () => {
    expect.hasAssertions();
    expect(resolvePrecision({ choice: 'fp32', source: 'default' }, withBf16)).toEqual({ precision: 'fp32', reason: 'the default' });
    expect(resolvePrecision({ choice: 'fp32', source: 'MIA_PRECISION' }, withoutBf16)).toEqual({ precision: 'fp32', reason: 'asked for by MIA_PRECISION' });
    expect(resolvePrecision({ choice: 'bf16', source: 'options.precision' }, withBf16)).toEqual({
      precision: 'bf16',
      reason: 'asked for by options.precision; the CPU has bf16 dot products (oneDNN ISA avx512_core_bf16)',
    });
  });

  it('bf16 on a CPU without bf16 dot products is a BackendError naming the request and the ISA', () => {
    expect.hasAssertions();
    const request = { choice: 'bf16', source: 'MIA_PRECISION' } as const;
    expect(() => resolvePrecision(request, { bf16: false, isa: 'avx2' })).toThrow(BackendError);
    expect(() => resolvePrecision(request, { bf16: false, isa: 'avx2' })).toThrow(
      /^useNativeTraining: precision 'bf16' \(asked for by MIA_PRECISION\) needs a CPU with bf16 dot products \(AVX-512 BF16 or AMX\), and oneDNN reports ISA avx2 here/,
    );
  });

  it('useNativeTraining rejects a bad precision option or MIA_PRECISION before touching the addon', async () => {
    expect.hasAssertions();
    await expect(useNativeTraining({ precision: 'fp16' as 'fp32' })).rejects.toThrow(/options\.precision must be 'fp32', 'bf16' or 'auto', got "fp16"/);
    const saved = process.env['MIA_PRECISION'];
    process.env['MIA_PRECISION'] = 'half';
    try {
      await expect(useNativeTraining()).rejects.toThrow(/MIA_PRECISION must be 'fp32', 'bf16' or 'auto', got "half"/);
    } finally {
      if (saved === undefined) delete process.env['MIA_PRECISION'];
      else process.env['MIA_PRECISION'] = saved;
    }
  });
});
