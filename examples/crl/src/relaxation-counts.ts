import type { ExperimentResults } from '@mia/experiments';
import { rowOf } from '@mia/experiments/reproduce';

/** Per-branch totals as the `crl` defense records them (`RelaxationSummary` of `@mia/defense-crl`). */
export interface RelaxationSummary {
  readonly batches: number;
  readonly rceAscent: number;
  readonly rceSoft: number;
  readonly rclAscent: number | null;
  readonly rclSoft: number | null;
}

/**
 * How often CRL's relaxed branches fired while training a defense's target model: the
 * `crlRelaxation.summary` the `crl` defense records (docs/protocol.md §4.3), read from the run's
 * result row; `undefined` when the row has none (not a CRL defense, or a model cached before the
 * counters existed).
 */
export function relaxationOf(results: ExperimentResults, label: string, role: 'target' | 'shadow' = 'target'): RelaxationSummary | undefined {
  const metrics = rowOf(results, label)?.trainingMetrics?.[role];
  const relaxation = metrics?.crlRelaxation as { summary?: RelaxationSummary } | undefined;
  return relaxation?.summary;
}

/** Whether any relaxed branch (ImpRelaxLoss or centre loss, ascent or soft) fired at least once. */
export const relaxationFired = (s: RelaxationSummary): boolean => s.rceAscent + s.rceSoft + (s.rclAscent ?? 0) + (s.rclSoft ?? 0) > 0;

/** One line per label, e.g. `CRL: ℓ_rce ≤ α_rce on 12 ascent + 30 soft of 400 batches; dist ≤ α_rcl on 0 + 0`. */
export function relaxationNote(results: ExperimentResults, labels: readonly string[]): string {
  const parts = labels.map((label) => {
    const s = relaxationOf(results, label);
    if (s === undefined) return `${label}: not recorded (model cached before the counters existed)`;
    const rcl = s.rclAscent === null ? '' : `; dist ≤ α_rcl on ${s.rclAscent} + ${s.rclSoft}`;
    return `${label}: ℓ_rce ≤ α_rce on ${s.rceAscent} ascent + ${s.rceSoft} soft of ${s.batches} batches${rcl}`;
  });
  return `How often the relaxed branches fired while training each target (batches with the loss at or below its threshold: gradient ascent in even epochs, soft targets in odd ones; docs/protocol.md §4.3): ${parts.join(' | ')}.`;
}
