/** Calls of one kernel: computed natively, or handed to the kernel registered before, with why. */
export interface KernelCallCounts {
  native: number;
  fallback: number;
  /** Fallback reason → calls. */
  reasons: Record<string, number>;
}

const counts = new Map<string, KernelCallCounts>();

function entry(name: string): KernelCallCounts {
  let c = counts.get(name);
  if (c === undefined) {
    c = { native: 0, fallback: 0, reasons: {} };
    counts.set(name, c);
  }
  return c;
}

/** @internal */
export function countNative(name: string): void {
  entry(name).native++;
}

/** @internal */
export function countFallback(name: string, reason: string): void {
  const c = entry(name);
  c.fallback++;
  c.reasons[reason] = (c.reasons[reason] ?? 0) + 1;
}

/**
 * Per kernel, how many calls ran natively and how many fell back to the wasm kernel (and why), since
 * the last {@link resetNativeKernelStats}: how to check that a model's training runs natively.
 * @example
 * ```ts
 * import { nativeKernelStats } from '@mia/backend-native';
 * for (const [name, c] of Object.entries(nativeKernelStats())) if (c.fallback > 0) console.log(name, c.reasons);
 * ```
 */
export function nativeKernelStats(): Record<string, KernelCallCounts> {
  return Object.fromEntries([...counts].map(([name, c]) => [name, { native: c.native, fallback: c.fallback, reasons: { ...c.reasons } }]));
}

/** Sets every counter of {@link nativeKernelStats} to zero. */
export function resetNativeKernelStats(): void {
  counts.clear();
}
