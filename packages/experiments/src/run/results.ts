import type { ExperimentConfig } from '../schema/run-schema';
import type { HEADLINE_METRICS, HeadlineMetric } from './headline-metrics';
import type { PairedSeTable } from './paired-se';
import type { RowSe } from './row-uncertainty';
import type { RowExposure, RowRecords } from './row-exposure';
import type { ScoreHistogram } from './score-histogram';
import type { AuditFinding, BlindBaselineReport } from '@mia/attacks';

export type { RowSe } from './row-uncertainty';
export type { PairedSeTable } from './paired-se';
export type { ExposedRecord, RecordColumns, RowExposure, RowRecords } from './row-exposure';
export type { ScoreHistogram } from './score-histogram';

/** One training seed's numbers of a row of a `runSeeds` aggregate (docs/protocol.md §5.2): its {@link HEADLINE_METRICS}. */
export interface SeedValues extends Readonly<Record<HeadlineMetric, number>> {
  readonly trainingSeed: number;
  /** Top-1 accuracy on the target's members. */
  readonly trainAccuracy: number;
  /** Top-1 accuracy on the target's evaluation non-members. */
  readonly testAccuracy: number;
  /** Mean non-member loss minus mean member loss. */
  readonly lossGap: number;
  /** The highest advantage (TPR − FPR) of the row's attacks. */
  readonly maxAdvantage: number;
  /** P1, the privacy–utility score of the CCL paper (docs/protocol.md §5). */
  readonly p1: number;
  /** Per attack (by name): its advantage and AUC with this seed. */
  readonly attacks: Readonly<Record<string, { readonly advantage: number; readonly auc: number }>>;
}

/** One attack's numbers on one defended target (docs/protocol.md §3.0, §5). */
export interface AttackRow {
  readonly attack: string;
  /** Balanced accuracy of the attack's decision rule (threshold fitted on shadow data, or argmax for NN attacks). */
  readonly accuracy: number;
  /**
   * Advantage of the attack's decision rule on the target sets: 2 · balanced accuracy − 1 = TPR − FPR at
   * the threshold fitted on shadow data (docs/protocol.md §3.0). Negative when that threshold transfers badly.
   */
  readonly advantage: number;
  readonly auc: number;
  /**
   * TPR at FPR ≤ 1%, 0.1% and 0% with the achieved FPR; at 0.1 % (absent in older results) a 95 %
   * percentile bootstrap interval of the TPR (`tprLow`, `tprHigh`; members and non-members resampled
   * separately, 200 resamples, the threshold re-chosen on each, docs/protocol.md §5 "TPR @ x% FPR").
   */
  readonly tprAtFpr: ReadonlyArray<{
    readonly fpr: number;
    readonly tpr: number;
    readonly achievedFpr: number;
    readonly tprLow?: number;
    readonly tprHigh?: number;
  }>;
  /** ROC vertices, thinned for plotting. */
  readonly roc: { readonly fpr: readonly number[]; readonly tpr: readonly number[] };
  /**
   * The lower bound on ε that this attack's scores prove at 95 % confidence, at the row's δ
   * ({@link EmpiricalEpsilonRow}); absent in older results.
   */
  readonly epsilonLowerBound?: number;
}

/**
 * What a differentially private training's accountant guarantees (recorded by the defense as the
 * target's `privacy` training metric, e.g. by `dp-sgd`): (ε, δ) and how it was computed.
 */
export interface RowPrivacy {
  /** The mechanism, e.g. `'dp-sgd'`. */
  readonly mechanism: string;
  /** The accountant's ε; `null` when there is no guarantee (noise multiplier 0). */
  readonly epsilon: number | null;
  readonly delta: number;
  /** The RDP order that gave ε. */
  readonly order?: number;
  readonly steps?: number;
  readonly sampleRate?: number;
  readonly noiseMultiplier?: number;
  readonly clipNorm?: number;
  /** `'poisson'` (what the accountant assumes) or `'shuffle'`. */
  readonly sampling?: string;
  /** False when the training did not sample as the accountant assumes: ε is then not a proven bound. */
  readonly covered?: boolean;
  /** The ε asked for, when σ was computed from it. */
  readonly targetEpsilon?: number;
  /** The one-run canary audit of this ε (the defense's `audit` param), when it was asked for. */
  readonly audit?: RowDpAudit;
}

/**
 * A one-run audit of a DP row's accountant ε (Steinke, Nasr & Jagielski 2023; Mahloujifar, Melis &
 * Chaudhuri 2024): m canaries, each included with probability ½, scored after training; guesses fixed
 * in advance ("in" for the highest scores, "out" for the lowest); the lower bounds on ε they prove.
 */
export interface RowDpAudit {
  readonly canaries: number;
  /** What the canaries are, e.g. white-box gradient canaries on dedicated coordinates. */
  readonly canaryKind: string;
  /** True when the deciding lower bound exceeds the accountant's ε: the DP claim is refuted at `confidence`. */
  readonly broken: boolean;
  /** The bound that decides: `'gdp'` (Gaussian-DP) or `'one-run'` (Steinke et al.'s (ε, δ) bound). */
  readonly decidedBy: 'gdp' | 'one-run';
  /** The deciding bound's ε (null: unbounded). */
  readonly empiricalEpsilon: number | null;
  readonly confidence: number;
  /** False when even all-correct guesses could not prove more than the accountant's ε (more canaries needed). */
  readonly canRefute: boolean;
  readonly guesses: { readonly planned: number; readonly made: number; readonly correct: number; readonly included: number };
  readonly oneRun: { readonly epsilon: number | null; readonly maxEpsilon: number | null };
  readonly gdp: { readonly mu: number | null; readonly epsilon: number | null; readonly maxMu: number | null; readonly maxEpsilon: number | null };
  /** The verdict with its numbers and choices, in one paragraph. */
  readonly message: string;
}

/**
 * The lower bound on ε that the row's best attack (highest advantage) proves at 95 % confidence
 * (Clopper–Pearson bounds on its TPR and FPR, the best threshold of its ROC; Jagielski et al. 2020,
 * Nasr et al. 2021; `empiricalEpsilonLowerBound` of `@mia/metrics`).
 */
export interface EmpiricalEpsilonRow {
  readonly epsilon: number;
  /** The attack that gave it. */
  readonly attack: string;
  /** δ of the bound: the accountant's δ for a DP row, else 0. */
  readonly delta: number;
  readonly confidence: number;
  /** Clopper–Pearson lower bound of the TPR and upper bound of the FPR at the threshold reaching it. */
  readonly tprLow: number;
  readonly fprHigh: number;
  /**
   * For a DP row: true when the bound exceeds the accountant's ε, i.e. the training does not have
   * the privacy its accountant claims (a broken implementation, or an accountant that does not
   * cover the training); absent for other rows.
   */
  readonly exceedsAccountant?: boolean;
}

/** Results for one defense (one row of a paper table). */
export interface DefenseRow {
  readonly defense: string;
  readonly label: string;
  readonly params: Record<string, unknown>;
  readonly trainAccuracy: number;
  readonly testAccuracy: number;
  /** Top-1 accuracy of the target on the partition's validation slice (docs/protocol.md A11), when the run has one. */
  readonly validationAccuracy?: number;
  /** mean non-member loss − mean member loss (target model). */
  readonly lossGap: number;
  /** Population variance of the members' per-example loss (CCL's "loss variance"). */
  readonly lossVariance: number;
  readonly attacks: readonly AttackRow[];
  /** Max advantage over the attacks run (docs/protocol.md A31); 0 in a run without attacks. */
  readonly maxAdvantage: number;
  /** P1 score of test accuracy and max advantage (docs/protocol.md §5). */
  readonly p1: number;
  /** Loss histograms of members and non-members (for the report's plots). */
  readonly lossHistogram: ScoreHistogram;
  /**
   * The target's most exposed training records and its member / non-member score distributions under
   * its strongest attack; absent in older results, without attacks, and when no attack had usable scores.
   */
  readonly exposure?: RowExposure;
  /** Whether the target and shadow models came from the cache (`'none'`: no shadow model, as in a run without attacks or whose attacks do not use one, e.g. only `lira` and `rmia`). */
  readonly cache: { readonly target: 'hit' | 'miss'; readonly shadow: 'hit' | 'miss' | 'none' };
  readonly trainSeconds: number;
  /**
   * What the defense recorded while training each model (e.g. CRL's relaxation counts), when it
   * recorded anything; with a validation slice the target's also has `validationCurve` (accuracy
   * on the slice after every epoch of its own training), and with `training.checkpoint:
   * 'best-validation'` `checkpoint` and `checkpointEpoch` (the 1-based epoch it kept).
   */
  readonly trainingMetrics?:
    { readonly target: Readonly<Record<string, unknown>> | undefined; readonly shadow: Readonly<Record<string, unknown>> | undefined } | undefined;
  /** The accountant's (ε, δ) of a differentially private row (e.g. `dp-sgd`), from its target's training. */
  readonly privacy?: RowPrivacy;
  /** The ε lower bound its best attack proves, beside `privacy` for DP rows; absent without attacks. */
  readonly empiricalEpsilon?: EmpiricalEpsilonRow;
  /**
   * Bootstrap standard errors of the row's numbers over the evaluation examples (docs/protocol.md §5);
   * absent in results written before they were computed (the verdicts then use binomial approximations).
   */
  readonly se?: RowSe;
  /**
   * A row of a `runSeeds` aggregate (several training seeds, docs/protocol.md §5.2): each seed's
   * numbers; the row's numbers are then their means and `se` combines the seed spread with the bootstrap.
   */
  readonly seeds?: readonly SeedValues[];
}

/** A run's reference models (its `references`, docs/protocol.md §1.7, §3.8, §3.9). */
export interface ReferencesSummary {
  /** Number of reference models. */
  readonly count: number;
  /** How their training sets were drawn (trained by the run). */
  readonly scheme?: 'carlini' | 'paired';
  /** The directory they were imported from (trained elsewhere). */
  readonly imported?: string;
  /** Examples they are scored on as the audit set (the target's members and non-members). */
  readonly auditExamples: number;
  /** Population examples (RMIA's z) no model of the audit trains on. */
  readonly populationExamples: number;
  /** Training time of each model in seconds, as recorded when it was trained (0 when imported). */
  readonly seconds: readonly number[];
  /** How many of them this run trained (the others came from the cache). */
  readonly trainedInThisRun: number;
}

/** Whether a run's audit can be trusted (`results.json`'s `doctor`, docs/guides/audit-doctor.md). */
export interface RunDoctor {
  /** The model-free classifier of membership on the target's evaluation records, with each row's best attack against it (rows with per-record scores). */
  readonly baseline?: BlindBaselineReport;
  /** What makes the run's numbers untrustworthy, each with its cause and what to do (empty: nothing found). */
  readonly findings: readonly AuditFinding[];
  /** What the reader should know but does not invalidate the run. */
  readonly notes: readonly string[];
}

/** Everything a run measured, with what is needed to reproduce it (written as `results.json`). */
export interface ExperimentResults {
  readonly format: 'mia-results-1';
  readonly config: ExperimentConfig;
  readonly dataset: {
    readonly name: string;
    readonly source: 'real' | 'stand-in';
    readonly description: string;
    readonly size: number;
    /** Number of classes (absent in older results). */
    readonly classes?: number;
  };
  readonly partition: { readonly preset: string; readonly sizes: Record<string, number>; readonly digest: string };
  readonly backend: string;
  /** Precision of the convolutions and matrix products the models trained with (absent in older results: fp32). */
  readonly precision?: 'fp32' | 'bf16';
  readonly versions: Record<string, string>;
  readonly startedAt: string;
  readonly seconds: number;
  readonly rows: readonly DefenseRow[];
  /** Notes the report must show (stand-in data, reduced scale, deviations). */
  readonly notes: readonly string[];
  /** What makes this run's numbers doubtful: a diverged model, too few examples per class (absent in older results). */
  readonly warnings?: readonly string[];
  /** The command that ran it, for the report's "Reproduce" section (e.g. `pnpm mia run my.yaml`). */
  readonly command?: string;
  /**
   * SEs of the differences between any two rows, paired over the same evaluation examples
   * (docs/protocol.md §5.2; read with `pairedDifferenceSe`); absent in older results and with one row.
   */
  readonly pairedSe?: PairedSeTable;
  /** The training seeds of a `runSeeds` aggregate, in order (absent for a single run). */
  readonly trainingSeeds?: readonly number[];
  /** The run's reference models, when its config has `references`. */
  readonly references?: ReferencesSummary;
  /**
   * Every evaluation record's scores, per row with an exposure: in memory only. `writeReport` writes
   * them to `exposure.csv` and leaves them out of `results.json`, so re-rendering a run keeps its CSV.
   */
  readonly perRecord?: readonly RowRecords[];
  /**
   * Whether the run's audit can be trusted (docs/guides/audit-doctor.md): a blind baseline (a
   * classifier of the evaluation records' features and labels, never a model) against each row's
   * best attack, and the validity findings with their cause and what to do; absent in older results.
   */
  readonly doctor?: RunDoctor;
}
