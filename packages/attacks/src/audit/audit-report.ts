import type { AuditAttackResult } from './audit-attack-metrics';
import type { ExposureReport } from './record-exposure';
import type { AuditValidity } from './audit-validity';
import { renderAuditCsv } from './render-audit-csv';
import { renderAuditHtml } from './render-audit-html';
import { renderAuditMarkdown } from './render-audit-markdown';

/** The numbers of an {@link AuditReport}, as plain data. */
export interface AuditReportData {
  /** Two-sided confidence level of every interval and of the ε bound. */
  readonly confidence: number;
  /** The δ of the empirical ε bounds. */
  readonly delta: number;
  /** Number of members audited. */
  readonly numMembers: number;
  /** Number of non-members audited. */
  readonly numNonMembers: number;
  /** Number of classes C of the model's output. */
  readonly numClasses: number;
  /** True label of each member, in the order given. */
  readonly memberLabels: Int32Array;
  /** True label of each non-member, in the order given. */
  readonly nonMemberLabels: Int32Array;
  /** Per attack: AUC, advantage, TPR@FPR with intervals, ε lower bound, per class, every score. */
  readonly attacks: readonly AuditAttackResult[];
  /** Per-record exposure of the members to the strongest attack. */
  readonly exposure: ExposureReport;
  /** Caveats a reader must see (optimistic best thresholds, small sets). */
  readonly notes: readonly string[];
  /**
   * Whether the audit can be trusted: the blind baseline and the validity findings (absent in a
   * report built by hand without them). An audit with findings has numbers that cannot be trusted.
   */
  readonly validity?: AuditValidity;
}

/** The JSON form of an {@link AuditReport} (`format: 'mia-audit-1'`): typed arrays become arrays, ±Infinity and NaN become null. */
export type AuditReportJson = Omit<AuditReportData, 'attacks' | 'memberLabels' | 'nonMemberLabels'> & {
  readonly format: 'mia-audit-1';
  /** {@inheritDoc AuditReportData.memberLabels} */
  readonly memberLabels: number[];
  /** {@inheritDoc AuditReportData.nonMemberLabels} */
  readonly nonMemberLabels: number[];
  readonly attacks: ReadonlyArray<Omit<AuditAttackResult, 'memberScores' | 'nonMemberScores'> & { memberScores: number[]; nonMemberScores: number[] }>;
};

/**
 * The result of {@link auditModel}: how much a model leaks about its training records, per attack
 * and per record, with confidence intervals. Conventions: scores are "higher = more likely member";
 * TPR, FPR and advantage (`TPR − FPR`) are fractions; best-threshold numbers choose the threshold on
 * the audited data (optimistic for a real attacker, conservative for an auditor).
 */
export class AuditReport implements AuditReportData {
  /** {@inheritDoc AuditReportData.confidence} */
  readonly confidence: number;
  /** {@inheritDoc AuditReportData.delta} */
  readonly delta: number;
  /** {@inheritDoc AuditReportData.numMembers} */
  readonly numMembers: number;
  /** {@inheritDoc AuditReportData.numNonMembers} */
  readonly numNonMembers: number;
  /** {@inheritDoc AuditReportData.numClasses} */
  readonly numClasses: number;
  /** {@inheritDoc AuditReportData.memberLabels} */
  readonly memberLabels: Int32Array;
  /** {@inheritDoc AuditReportData.nonMemberLabels} */
  readonly nonMemberLabels: Int32Array;
  /** {@inheritDoc AuditReportData.attacks} */
  readonly attacks: readonly AuditAttackResult[];
  /** {@inheritDoc AuditReportData.exposure} */
  readonly exposure: ExposureReport;
  /** {@inheritDoc AuditReportData.notes} */
  readonly notes: readonly string[];
  /** {@inheritDoc AuditReportData.validity} */
  readonly validity?: AuditValidity;

  /** Wraps the numbers of an audit (built by {@link auditModel} and {@link auditScores}). */
  constructor(data: AuditReportData) {
    this.confidence = data.confidence;
    this.delta = data.delta;
    this.numMembers = data.numMembers;
    this.numNonMembers = data.numNonMembers;
    this.numClasses = data.numClasses;
    this.memberLabels = data.memberLabels;
    this.nonMemberLabels = data.nonMemberLabels;
    this.attacks = data.attacks;
    this.exposure = data.exposure;
    this.notes = data.notes;
    if (data.validity !== undefined) this.validity = data.validity;
  }

  /** The attack with the highest advantage estimate. */
  get maxAdvantage(): AuditAttackResult {
    return this.attacks.reduce((best, a) => (a.advantage.estimate > best.advantage.estimate ? a : best));
  }

  /** The attack with the highest ε lower bound. */
  get maxEpsilon(): AuditAttackResult {
    return this.attacks.reduce((best, a) => (a.epsilon.epsilon > best.epsilon.epsilon ? a : best));
  }

  /** Plain JSON-ready data (`JSON.stringify(report)` uses it). */
  toJSON(): AuditReportJson {
    const { attacks, memberLabels, nonMemberLabels, ...rest } = this as AuditReportData;
    return {
      format: 'mia-audit-1',
      ...rest,
      memberLabels: Array.from(memberLabels),
      nonMemberLabels: Array.from(nonMemberLabels),
      attacks: attacks.map((a) => ({ ...a, memberScores: Array.from(a.memberScores), nonMemberScores: Array.from(a.nonMemberScores) })),
    };
  }

  /** A Markdown summary: per-attack table, ε bounds, per-class view of the strongest attack, the most exposed records. */
  toMarkdown(): string {
    return renderAuditMarkdown(this);
  }

  /**
   * Every record as CSV, members first: `set` (member / non-member), `index` (within its set),
   * `label`, one score column per attack (higher = more likely member), then for members the
   * exposure to the strongest attack: `rank` (1 = most exposed), `fpr_to_flag` and `loss`.
   */
  toCSV(): string {
    return renderAuditCsv(this);
  }

  /** One self-contained HTML page (inline CSS and SVG, no external asset or script). */
  toHTML(): string {
    return renderAuditHtml(this);
  }
}
