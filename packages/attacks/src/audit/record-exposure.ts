import { lowerBound } from '@mia/metrics';
import type { AuditAttackResult } from './audit-attack-metrics';

/** How exposed one member (training record) is to the strongest attack. */
export interface RecordExposure {
  /** Position of the record in `members` (0-based). */
  readonly index: number;
  /** Its true label. */
  readonly label: number;
  /** The attack's score (higher = more likely member). */
  readonly score: number;
  /** 1 = the highest-scoring member; tied scores share the best rank. */
  readonly rank: number;
  /** Fraction of non-members scoring ≥ this record: the FPR an attacker accepts to flag it (lower = more exposed). */
  readonly fprToFlag: number;
  /** The target's cross-entropy loss on the record. */
  readonly loss: number;
}

/** Per-record exposure of the members to one attack. */
export interface ExposureReport {
  /** The attack the scores come from. */
  readonly attack: string;
  /** Every member, in the order given. */
  readonly records: readonly RecordExposure[];
  /** The `topN` most exposed members, most exposed first (highest score; ties by index). */
  readonly top: readonly RecordExposure[];
}

/**
 * The attack whose per-record scores {@link recordExposure} uses: the highest TPR at the smallest
 * reported FPR, then the highest AUC, then the first given (internal).
 */
export function strongestAttack(attacks: readonly AuditAttackResult[]): AuditAttackResult {
  const lowFpr = (a: AuditAttackResult) => {
    const sorted = [...a.tprAtFpr].filter((t) => t.fpr > 0).sort((x, y) => x.fpr - y.fpr);
    return sorted[0]?.tpr.estimate ?? 0;
  };
  return attacks.reduce((best, a) => {
    const [x, y] = [lowFpr(a), lowFpr(best)];
    return x > y || (x === y && a.auc.estimate > best.auc.estimate) ? a : best;
  });
}

/** Score, rank, FPR-to-flag and loss of every member under `attack`, and the `topN` most exposed (internal). */
export function recordExposure(attack: AuditAttackResult, labels: Int32Array, losses: Float64Array, topN: number): ExposureReport {
  const scores = attack.memberScores;
  const nonMembers = Float64Array.from(attack.nonMemberScores).sort();
  const order = Array.from(scores, (_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b);
  const rank = new Int32Array(scores.length);
  order.forEach((i, position) => {
    const previous = order[position - 1];
    rank[i] = previous !== undefined && scores[previous] === scores[i] ? rank[previous]! : position + 1;
  });
  const records = Array.from(scores, (score, index) => ({
    index,
    label: labels[index]!,
    score,
    rank: rank[index]!,
    fprToFlag: (nonMembers.length - lowerBound(nonMembers, score)) / nonMembers.length,
    loss: losses[index]!,
  }));
  return { attack: attack.name, records, top: order.slice(0, topN).map((i) => records[i]!) };
}
