import { check, checkPositiveInteger } from '@mia/core';
import { batchNormLayer } from './batch-norm-layer';
import { groupNormLayer } from './group-norm-layer';
import { sequential, type Layer } from './layer';
import { relu } from './pooling';
import type { ParameterStore } from './parameter-store';

/**
 * The normalisation after each convolution: `'batch'` (BatchNorm, the papers' models), `'group'`
 * (GroupNorm, for DP-SGD: per-example clipping needs each example's output to depend on that
 * example alone) or `'none'`.
 * @see docs/protocol.md §4.16
 */
export type NormKind = 'batch' | 'group' | 'none';

/** The norm options of the convolutional architectures that offer them. */
export interface NormOptions {
  /** Normalisation after each convolution. @default 'batch' */
  readonly norm?: NormKind;
  /**
   * With `norm: 'group'`: each GroupNorm over C channels takes the largest divisor of C not above
   * this many groups (32 groups for 32, 64, 128… channels, as Opacus' `replace_bn_with_gn` gives
   * `GroupNorm(min(32, C), C)`; 24 for 48 channels, where that would not divide). @default 32
   */
  readonly normGroups?: number;
}

/** Validated {@link NormOptions}. @internal */
export interface ResolvedNorm {
  readonly norm: NormKind;
  readonly normGroups: number;
}

/** Validates {@link NormOptions}. @internal */
export function resolveNorm(fn: string, options: NormOptions): ResolvedNorm {
  const norm = options.norm ?? 'batch';
  check(norm === 'batch' || norm === 'group' || norm === 'none', fn, 'norm', "'batch', 'group' or 'none'", norm);
  const normGroups = options.normGroups ?? 32;
  checkPositiveInteger(fn, 'normGroups', normGroups);
  return { norm, normGroups };
}

/** The config entries of a norm choice: none for the default BatchNorm (older checkpoints' configs stay as they were). @internal */
export function normConfig(n: ResolvedNorm): { norm?: NormKind; normGroups?: number } {
  return n.norm === 'batch' ? {} : n.norm === 'group' ? { norm: n.norm, normGroups: n.normGroups } : { norm: n.norm };
}

/** The largest divisor of `channels` that is at most `maxGroups`. @internal */
export function groupsFor(channels: number, maxGroups: number): number {
  for (let g = Math.min(channels, maxGroups); g > 1; g--) if (channels % g === 0) return g;
  return 1;
}

/**
 * The normalisation layer `n` names for `channels` channels (identity for `'none'`); with
 * `relu: true`, followed by a ReLU (fused into the batch norm's kernel where the backend has one).
 * @internal
 */
export function normLayer(store: ParameterStore, name: string, channels: number, n: ResolvedNorm, options: { relu?: boolean } = {}): Layer {
  if (n.norm === 'batch') return batchNormLayer(store, name, channels, options);
  if (options.relu === true) return sequential(normLayer(store, name, channels, n), relu);
  if (n.norm === 'group') return groupNormLayer(store, name, channels, groupsFor(channels, n.normGroups));
  return (x) => x;
}
