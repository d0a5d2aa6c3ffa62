import { getGradient, registerGradient, type NamedAttrMap, type Tensor } from '@tensorflow/tfjs-core';

type GradResult = Record<string, () => Tensor>;
type GradFunc = (dy: Tensor | Tensor[], saved: Tensor[], attrs: NamedAttrMap) => GradResult;

/** A faster gradient for one kernel: returns undefined for the cases it leaves to tfjs-core's own (for backend packages). */
export type FastGradient = (dy: Tensor, saved: Tensor[], attrs: NamedAttrMap) => GradResult | undefined;

const marker = Symbol.for('@mia/backend-wasm.replacedGradient');
const originals = new Map<string, ReturnType<typeof getGradient>>();

/**
 * Registers `fast` as the gradient of `kernelName`, keeping tfjs-core's gradient (its saved inputs
 * and outputs, and its function for every case `fast` declines). Idempotent. Does nothing when no
 * gradient is registered for `kernelName` (there is nothing to keep; tfjs then cannot differentiate
 * the kernel on any backend anyway).
 */
export function replaceGradient(kernelName: string, fast: FastGradient): void {
  const current = getGradient(kernelName) as (ReturnType<typeof getGradient> & { [marker]?: true }) | undefined;
  if (current === undefined || current[marker] === true) return;
  originals.set(kernelName, current);
  const stock = current.gradFunc as unknown as GradFunc;
  const config = {
    kernelName,
    inputsToSave: current.inputsToSave,
    outputsToSave: current.outputsToSave,
    saveAllInputs: current.saveAllInputs,
    gradFunc: (dy: Tensor | Tensor[], saved: Tensor[], attrs: NamedAttrMap) =>
      (Array.isArray(dy) ? undefined : fast(dy, saved, attrs)) ?? stock(dy, saved, attrs),
    [marker]: true as const,
  };
  registerGradient(config as unknown as Parameters<typeof registerGradient>[0]);
}

/**
 * Restores tfjs-core's gradient of `kernelName` (no-op when it was not replaced).
 * @param kernelName - the tfjs kernel name.
 */
export function restoreGradient(kernelName: string): void {
  const original = originals.get(kernelName);
  if (original === undefined) return;
  registerGradient(original);
  originals.delete(kernelName);
}
