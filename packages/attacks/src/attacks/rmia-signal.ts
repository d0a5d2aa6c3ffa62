import { InvalidArgumentError } from '@mia/core';
import type { ModelSignals } from '../signals/model-signals';

/** RMIA's `Pr(x|θ)`: the softmax `p_y` (PMm) or PMr's soft-margin Taylor softmax. */
export type RmiaSignal = 'softmax' | { readonly taylor: { readonly temperature?: number; readonly order?: number; readonly margin?: number } };

/**
 * `Pr(x|θ)` per example of one query. Softmax: `p_y`. Taylor (PMr, defaults T = 2, n = 4, m = 0.6):
 * `taylor(u) = Σ_{k<n} u^k/k!`, `s_j = taylor(z_j/T)` (j ≠ y), `s_y = taylor(z_y/T − m)`, `Pr = s_y/Σ_j s_j`.
 *
 * @see docs/protocol.md §3.9 "Signal".
 */
export function rmiaProbability(signals: ModelSignals, signal: RmiaSignal): Float64Array {
  if (signal === 'softmax') return signals.trueProbability;
  const { temperature = 2, order = 4, margin = 0.6 } = signal.taylor;
  const z = signals.logits;
  if (z === undefined) throw new InvalidArgumentError('rmiaProbability: the Taylor signal needs logits, got loss-only signals');
  const c = signals.numClasses;
  const taylor = (u: number): number => {
    let term = 1;
    let sum = 1;
    for (let k = 1; k < order; k++) {
      term *= u / k;
      sum += term;
    }
    return sum;
  };
  return Float64Array.from({ length: signals.size }, (_, i) => {
    let total = 0;
    let own = 0;
    for (let j = 0; j < c; j++) {
      const s = j === signals.labels[i] ? taylor(z[i * c + j]! / temperature - margin) : taylor(z[i * c + j]! / temperature);
      total += s;
      if (j === signals.labels[i]) own = s;
    }
    return own / total;
  });
}
