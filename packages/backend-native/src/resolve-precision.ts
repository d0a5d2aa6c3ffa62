import { BackendError } from '@mia/core';

/** The precision of the native convolutions and matrix products. */
export type NativePrecision = 'fp32' | 'bf16';

/** What `useNativeTraining({ precision })` and `MIA_PRECISION` accept: a precision, or `auto` (bf16 where the CPU has it). */
export type PrecisionChoice = NativePrecision | 'auto';

/** A requested precision and where the request came from. */
export interface PrecisionRequest {
  choice: PrecisionChoice;
  /** `options.precision`, `MIA_PRECISION`, or `default` when neither is set. */
  source: 'options.precision' | 'MIA_PRECISION' | 'default';
}

/** The precision in use and why, in one line (`nativeBackendInfo().precisionReason`). */
export interface ResolvedPrecision {
  precision: NativePrecision;
  reason: string;
}

/** What the CPU offers, as the addon's `info()` reports it. */
export interface PrecisionCpu {
  /** Whether oneDNN runs bf16 dot products in hardware here. */
  bf16: boolean;
  /** oneDNN's ISA name (`avx512_core_bf16`, `avx2`, …). */
  isa: string;
}

const CHOICES: readonly PrecisionChoice[] = ['fp32', 'bf16', 'auto'];

/**
 * The precision asked for: `option` when given, else the environment variable `MIA_PRECISION`, else
 * `fp32` (the default).
 * @param option - `options.precision` of `useNativeTraining`.
 * @param env - the environment (default `process.env`).
 * @throws BackendError when `option` or `MIA_PRECISION` is not `fp32`, `bf16` or `auto`.
 */
export function requestedPrecision(option: unknown, env: NodeJS.ProcessEnv = process.env): PrecisionRequest {
  if (option !== undefined) {
    if (!CHOICES.includes(option as PrecisionChoice))
      throw new BackendError(`useNativeTraining: options.precision must be 'fp32', 'bf16' or 'auto', got ${JSON.stringify(option)}`);
    return { choice: option as PrecisionChoice, source: 'options.precision' };
  }
  const fromEnv = env['MIA_PRECISION'];
  if (fromEnv === undefined || fromEnv === '') return { choice: 'fp32', source: 'default' };
  if (!CHOICES.includes(fromEnv as PrecisionChoice))
    throw new BackendError(`useNativeTraining: MIA_PRECISION must be 'fp32', 'bf16' or 'auto', got ${JSON.stringify(fromEnv)}`);
  return { choice: fromEnv as PrecisionChoice, source: 'MIA_PRECISION' };
}

/**
 * The precision to use on this CPU for a request: `auto` is bf16 where oneDNN runs bf16 dot products
 * in hardware (AVX-512 BF16, AMX) and fp32 elsewhere; `bf16` where the CPU lacks them is an error (oneDNN
 * would emulate them, slower than fp32).
 * @param request - from {@link requestedPrecision}.
 * @param cpu - the addon's `info()` (`bf16`, `isa`).
 * @returns the precision and a one-line reason, e.g. `auto (MIA_PRECISION): the CPU has bf16 dot products (oneDNN ISA avx512_core_bf16)`.
 * @throws BackendError when `bf16` is asked for on a CPU without bf16 dot products.
 */
export function resolvePrecision(request: PrecisionRequest, cpu: PrecisionCpu): ResolvedPrecision {
  const { choice, source } = request;
  if (choice === 'bf16' && !cpu.bf16) {
    throw new BackendError(
      `useNativeTraining: precision 'bf16' (asked for by ${source}) needs a CPU with bf16 dot products (AVX-512 BF16 or AMX), and oneDNN reports ISA ${cpu.isa} here; use 'auto' (bf16 where the CPU has it) or 'fp32'`,
    );
  }
  const has = `the CPU has bf16 dot products (oneDNN ISA ${cpu.isa})`;
  if (choice === 'auto') {
    return cpu.bf16
      ? { precision: 'bf16', reason: `auto (${source}): ${has}` }
      : { precision: 'fp32', reason: `auto (${source}): the CPU lacks bf16 dot products (oneDNN ISA ${cpu.isa})` };
  }
  if (choice === 'bf16') return { precision: 'bf16', reason: `asked for by ${source}; ${has}` };
  return { precision: 'fp32', reason: source === 'default' ? 'the default' : `asked for by ${source}` };
}
