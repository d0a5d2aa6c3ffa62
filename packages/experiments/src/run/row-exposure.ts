import { auditScores, type AttackResult, type ModelSignals } from '@mia/attacks';
import { scoreHistogram, type ScoreHistogram } from './score-histogram';

/** How many of the most exposed records each row keeps in `results.json` (every record is in `exposure.csv`). */
export const EXPOSURE_TOP_RECORDS = 20;

/** One training record of the target and how exposed it is (a member of `target_train`). */
export interface ExposedRecord {
  /** Index of the record in the dataset (the pooled train + test set the partition indexes). */
  readonly index: number;
  /** Its true label. */
  readonly label: number;
  /** The exposure attack's membership score (higher = more likely member). */
  readonly score: number;
  /** 1 = the member with the highest score; tied scores share the best rank. */
  readonly rank: number;
  /** Fraction of non-members scoring at least as high: the FPR an attacker accepts to flag this record. */
  readonly fprToFlag: number;
  /** The target's cross-entropy loss on it. */
  readonly loss: number;
}

/** The per-record view of one row's target model, as `results.json` stores it. */
export interface RowExposure {
  /**
   * The attack whose scores rank the records: the highest TPR at the lowest reported FPR (0.1 %), then
   * the highest AUC, as `auditScores` of `@mia/attacks` chooses.
   */
  readonly attack: string;
  readonly numMembers: number;
  readonly numNonMembers: number;
  /** The {@link EXPOSURE_TOP_RECORDS} most exposed members, most exposed first (highest score; ties by position). */
  readonly top: readonly ExposedRecord[];
  /** The exposure attack's scores of the members and of the non-members on shared bins ({@link scoreHistogram}). */
  readonly scoreHistogram: ScoreHistogram;
}

/** Every evaluation record of one row with every attack's score: what `exposure.csv` holds (not in `results.json`). */
export interface RowRecords {
  /** The row's label. */
  readonly row: string;
  /** The attacks, in the order of `members.scores` and `nonMembers.scores`. */
  readonly attacks: readonly string[];
  readonly members: RecordColumns & { readonly rank: Int32Array; readonly fprToFlag: Float64Array };
  readonly nonMembers: RecordColumns;
}

/** Per-record columns of one set (members or non-members), index-aligned. */
export interface RecordColumns {
  /** Dataset index of each record. */
  readonly index: readonly number[];
  readonly label: Int32Array;
  readonly loss: Float64Array;
  /** One score array per attack (higher = more likely member). */
  readonly scores: readonly Float64Array[];
}

/** What {@link rowExposure} needs of one row: the target's signals, the attack results and which records they are. */
export interface RowExposureInput {
  readonly label: string;
  readonly members: ModelSignals;
  readonly nonMembers: ModelSignals;
  /** Dataset index of each member and non-member, in signal order. */
  readonly memberIndex: readonly number[];
  readonly nonMemberIndex: readonly number[];
  /** Attack results on the target; each `scores` holds the members' scores, then the non-members'. */
  readonly attacks: readonly AttackResult[];
}

/** Why an attack's scores cannot rank the records, or undefined when they can. */
function scoreProblem(a: AttackResult, size: number): string | undefined {
  if (!(a.scores instanceof Float64Array)) return 'no per-record scores';
  if (a.scores.length !== size) return `${a.scores.length} scores for ${size} records`;
  const nan = a.scores.findIndex((v) => Number.isNaN(v));
  return nan < 0 ? undefined : `a score that is not a number (record ${nan})`;
}

/**
 * The per-record exposure of one row's target: the members ranked by the strongest attack
 * (`auditScores` of `@mia/attacks`), the most exposed ones with their dataset index, label, score
 * and loss, the score distributions of members and non-members, and every record's scores for the
 * CSV. Attacks whose scores are missing, of the wrong length or NaN are left out, and `warning`
 * says which and why; with none left, only the warning comes back. No attack: nothing at all.
 */
export function rowExposure(input: RowExposureInput): { exposure?: RowExposure; records?: RowRecords; warning?: string } {
  const { members, nonMembers } = input;
  if (input.attacks.length === 0) return {};
  if (input.memberIndex.length !== members.size || input.nonMemberIndex.length !== nonMembers.size) {
    const got = `${input.memberIndex.length} + ${input.nonMemberIndex.length} dataset indices for ${members.size} + ${nonMembers.size} records`;
    return { warning: `no per-record exposure for ${input.label}: ${got}` };
  }
  const size = members.size + nonMembers.size;
  const problems = input.attacks.flatMap((a) => {
    const why = scoreProblem(a, size);
    return why === undefined ? [] : [`${a.name}: ${why}`];
  });
  const usable = input.attacks.filter((a) => scoreProblem(a, size) === undefined);
  const leftOut = problems.length === 0 ? undefined : problems.join('; ');
  if (usable.length === 0) return { warning: `no per-record exposure for ${input.label}: no attack has usable scores (${leftOut})` };
  const split = (a: AttackResult) => ({ memberScores: a.scores.subarray(0, members.size), nonMemberScores: a.scores.subarray(members.size) });
  // Only the audit's per-record exposure is used; the run's intervals come from its own bootstrap
  // (`row.se`), so the audit's is cut to one resample.
  const audit = auditScores(
    {
      attacks: usable.map((a) => ({ name: a.name, ...split(a) })),
      memberLabels: members.labels,
      nonMemberLabels: nonMembers.labels,
      memberLosses: members.loss,
      numClasses: members.numClasses,
    },
    { resamples: 1, topRecords: EXPOSURE_TOP_RECORDS },
  );
  const { exposure } = audit;
  const strongest = split(usable.find((a) => a.name === exposure.attack)!);
  const rank = Int32Array.from(exposure.records, (r) => r.rank);
  const fprToFlag = Float64Array.from(exposure.records, (r) => r.fprToFlag);
  return {
    exposure: {
      attack: exposure.attack,
      numMembers: members.size,
      numNonMembers: nonMembers.size,
      top: exposure.top.map((r) => ({
        index: input.memberIndex[r.index]!,
        label: r.label,
        score: r.score,
        rank: r.rank,
        fprToFlag: r.fprToFlag,
        loss: r.loss,
      })),
      scoreHistogram: scoreHistogram(strongest.memberScores, strongest.nonMemberScores),
    },
    records: {
      row: input.label,
      attacks: usable.map((a) => a.name),
      members: { index: input.memberIndex, label: members.labels, loss: members.loss, scores: usable.map((a) => split(a).memberScores), rank, fprToFlag },
      nonMembers: { index: input.nonMemberIndex, label: nonMembers.labels, loss: nonMembers.loss, scores: usable.map((a) => split(a).nonMemberScores) },
    },
    ...(leftOut === undefined ? {} : { warning: `per-record exposure of ${input.label} leaves out ${leftOut}` }),
  };
}
