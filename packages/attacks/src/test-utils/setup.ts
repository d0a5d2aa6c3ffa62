import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import type { ModelSignals } from '../signals/model-signals';
import { signalsFromLosses } from '../signals/signals-from-losses';

/** Selects the cpu backend (tests only). */
export async function useCpu(): Promise<void> {
  await tf.setBackend('cpu');
  await tf.ready();
}

/** Loss-only signals whose φ equals `phi` (ℓ = softplus(−φ)). */
export function signalsFromPhi(phi: ArrayLike<number>, labels?: ArrayLike<number>, numClasses = 2): ModelSignals {
  const losses = Array.from(phi, (p) => Math.max(-p, 0) + Math.log1p(Math.exp(-Math.abs(p))));
  return signalsFromLosses(losses, labels ?? new Array(losses.length).fill(0), numClasses);
}
