import type { LrSchedule } from './optimizer';
import { check, checkNumberInRange, checkPositiveInteger } from './validate';

/**
 * `CosineAnnealingLR(T_max)` stepped per epoch: `lr_e = lr0·(1 + cos(π·e/T_max))/2`
 * (η_min = 0), with `e` the 0-based epoch (docs/protocol.md §0, §2.1).
 */
export function cosine(tMax: number, minLr = 0): LrSchedule {
  checkPositiveInteger('cosine', 'tMax', tMax);
  checkNumberInRange('cosine', 'minLr', minLr, 0);
  return (epoch, lr0) => minLr + ((lr0 - minLr) * (1 + Math.cos((Math.PI * epoch) / tMax))) / 2;
}

/**
 * `MultiStepLR(milestones, γ)`: the LR is multiplied by γ at each milestone epoch, so
 * `lr_e = lr0·γ^{#milestones ≤ e}` (docs/protocol.md §0, §2.2).
 */
export function multiStep(milestones: readonly number[], gamma = 0.1): LrSchedule {
  check(
    milestones.every((m) => Number.isInteger(m) && m > 0),
    'multiStep',
    'milestones',
    'positive integers',
    milestones,
  );
  checkNumberInRange('multiStep', 'gamma', gamma, 0);
  const sorted = [...milestones].sort((a, b) => a - b);
  return (epoch, lr0) => lr0 * gamma ** sorted.filter((m) => m <= epoch).length;
}

/** One range of a {@link piecewise} schedule: epochs `[start, end)` use `lr`. */
export interface PiecewiseRange {
  readonly start: number;
  readonly end: number;
  readonly lr: number;
}

/**
 * Piecewise-constant LR as in the CRL configs (docs/protocol.md §2.6): each range `[start, end)` sets
 * an absolute LR; when ranges overlap the **last** matching range wins (the `cifar10_vgg` config
 * relies on this); outside every range the base LR is used.
 */
export function piecewise(ranges: readonly PiecewiseRange[]): LrSchedule {
  check(ranges.length > 0, 'piecewise', 'ranges', 'a non-empty array', ranges);
  for (const [i, r] of ranges.entries()) {
    check(
      Number.isInteger(r.start) && Number.isInteger(r.end) && r.start >= 0 && r.end > r.start,
      'piecewise',
      `ranges[${i}]`,
      'integer epochs with 0 ≤ start < end',
      r,
    );
    checkNumberInRange('piecewise', `ranges[${i}].lr`, r.lr, 0);
  }
  return (epoch, lr0) => {
    let lr = lr0;
    for (const r of ranges) if (epoch >= r.start && epoch < r.end) lr = r.lr;
    return lr;
  };
}

/** A constant schedule (`lr_e = lr0`). */
export const constantLr: LrSchedule = (_epoch, lr0) => lr0;
