import * as tf from '@tensorflow/tfjs-core';
import { isEvenEpoch } from './epoch-parity';

/**
 * How often CRL's relaxed branches fired in one epoch. A branch "fires" on a batch when its loss
 * is at or below its threshold: in an even epoch that turns the loss into gradient **ascent**
 * (`|ℓ − α|` with ℓ < α), in an odd epoch it switches to the **soft** targets / confidence-weighted
 * centre pull. Above the threshold both losses are the plain ones.
 * @see docs/protocol.md §4.3 (CRL Algorithm 1 lines 7–18).
 */
export interface RelaxationEpochCounts {
  /** 0-based epoch. */
  readonly epoch: number;
  /** `'ascent'` in the relaxation's even epochs, `'soft'` in its odd ones (parity per `parityOffset`). */
  readonly branch: 'ascent' | 'soft';
  /** Loss evaluations of the epoch (batches, or micro-batches with gradient accumulation). */
  readonly batches: number;
  /** Batches with the batch CE `ℓ_rce ≤ α_rce` (the ImpRelaxLoss branch fired). */
  readonly rce: number;
  /** Batches with the centre distance `dist ≤ α_rcl`, or `null` without centres (`impRelaxLoss`). */
  readonly rcl: number | null;
  /** Mean batch CE of the normalised logits over the epoch (compare with α_rce). */
  readonly meanRce: number;
  /** Mean centre distance over the epoch (compare with α_rcl), or `null` without centres. */
  readonly meanRcl: number | null;
}

/** Totals of {@link RelaxationEpochCounts} over a run, per branch. */
export interface RelaxationSummary {
  readonly batches: number;
  readonly rceAscent: number;
  readonly rceSoft: number;
  readonly rclAscent: number | null;
  readonly rclSoft: number | null;
}

/** Accumulates the branch masks on the device and reads them once per epoch. @internal */
export interface RelaxationCounter {
  /** Adds one batch's `ℓ_rce` (and `dist`) against the thresholds; call inside the loss's tidy. */
  observe(rce: tf.Scalar, rcl: tf.Scalar | undefined): void;
  /** Reads and resets the epoch's counts (one device read). */
  endEpoch(epoch: number): RelaxationEpochCounts;
  dispose(): void;
}

/**
 * A device-side counter of the relaxed branches: `[rce fired, rcl fired, Σℓ_rce, Σdist]` in one
 * variable, so counting needs no synchronisation per batch.
 * @internal
 */
export function createRelaxationCounter(alpha: number, alphaCenter: number, useCenters: boolean, parityOffset: number): RelaxationCounter {
  const init = tf.zeros([4]);
  const acc = tf.variable(init, false);
  init.dispose();
  let batches = 0;
  return {
    observe(rce, rcl) {
      batches++;
      tf.tidy(() => {
        // 1 when value ≤ threshold: the complement of `select`'s `step(value − threshold)`.
        const fired = (v: tf.Scalar, a: number) => tf.sub(1, tf.step(tf.sub(v, a)));
        const zero = tf.scalar(0);
        const add = tf.stack([fired(rce, alpha), rcl === undefined ? zero : fired(rcl, alphaCenter), rce, rcl ?? zero]);
        acc.assign(tf.add(acc, add));
      });
    },
    endEpoch(epoch) {
      const [rce, rcl, sumRce, sumRcl] = acc.dataSync();
      const n = batches;
      tf.tidy(() => acc.assign(tf.zerosLike(acc)));
      batches = 0;
      const branch = isEvenEpoch('relaxationCounter', epoch, parityOffset) ? 'ascent' : 'soft';
      return {
        epoch,
        branch,
        batches: n,
        rce: Math.round(rce!),
        rcl: useCenters ? Math.round(rcl!) : null,
        meanRce: n === 0 ? Number.NaN : sumRce! / n,
        meanRcl: useCenters ? (n === 0 ? Number.NaN : sumRcl! / n) : null,
      };
    },
    dispose() {
      acc.dispose();
    },
  };
}

/**
 * Sums per-epoch counts into per-branch totals.
 * @param epochs - the plugin's {@link RelaxationEpochCounts}, one per epoch.
 * @see docs/protocol.md §4.3
 */
export function summarizeRelaxation(epochs: readonly RelaxationEpochCounts[]): RelaxationSummary {
  const sum = (branch: 'ascent' | 'soft', key: 'rce' | 'rcl') => epochs.filter((e) => e.branch === branch).reduce((s, e) => s + (e[key] ?? 0), 0);
  const centers = epochs.length > 0 && epochs[0]!.rcl !== null;
  return {
    batches: epochs.reduce((s, e) => s + e.batches, 0),
    rceAscent: sum('ascent', 'rce'),
    rceSoft: sum('soft', 'rce'),
    rclAscent: centers ? sum('ascent', 'rcl') : null,
    rclSoft: centers ? sum('soft', 'rcl') : null,
  };
}

/** One log line for an epoch's counts, e.g. `crl epoch 3 (soft): ℓ_rce ≤ α_rce in 12/40 batches (mean 0.91), dist ≤ α_rcl in 0/40 (mean 5.2)`. */
export function formatRelaxationEpoch(c: RelaxationEpochCounts): string {
  const rcl = c.rcl === null ? '' : `, dist ≤ α_rcl in ${c.rcl}/${c.batches} (mean ${c.meanRcl!.toFixed(3)})`;
  return `crl epoch ${c.epoch + 1} (${c.branch}): ℓ_rce ≤ α_rce in ${c.rce}/${c.batches} batches (mean ${c.meanRce.toFixed(3)})${rcl}`;
}
