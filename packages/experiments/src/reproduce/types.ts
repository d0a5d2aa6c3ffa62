import type { UnitLogits } from '../defenses/definition';
import type { TopLevelSpec } from 'vega-lite';
import type { ModelClassifier } from '@mia/models';
import type { ArtifactStore } from '../store/artifact-store';
import type { ExperimentConfig } from '../schema/run-schema';
import type { PreparedData } from '../data/prepare-data';
import type { ExperimentResults } from '../run/results';
import type { Regime } from '../run/testability';

/**
 * How big a reproduction runs: `smoke` (seconds, CI), `cpu` (real CIFAR-10 subsets and stand-ins,
 * each table within an hour on a 2-core machine) or `paper` (the papers' datasets, models, epochs).
 */
export type ReproductionScale = 'smoke' | 'cpu' | 'paper';

/** The scales, in increasing size. */
export const REPRODUCTION_SCALES: readonly ReproductionScale[] = ['smoke', 'cpu', 'paper'];

/** A run that could not happen here, with the reason a reader needs (e.g. "dataset not available: …"). */
export interface NotRun {
  readonly notRun: string;
}

/** A runner experiment's results, or why it did not run. */
export type RunOutcome = ExperimentResults | NotRun;

/** Whether an outcome is a {@link NotRun}. */
export const isNotRun = (outcome: unknown): outcome is NotRun =>
  typeof outcome === 'object' && outcome !== null && typeof (outcome as NotRun).notRun === 'string';

/** How a cell's numbers are printed: percentages (×100, one decimal), plain decimals, or integers. */
export type CellFormat = 'pct' | 'num' | 'int';

/** The paper's value of a table cell, beside ours (either may be missing). */
interface PaperValue {
  readonly paper?: number;
  readonly paperStd?: number;
}

/**
 * With several training seeds (a `runSeeds` aggregate, docs/protocol.md §5.2): `ours` is their mean,
 * `perSeed` each seed's value, in the order of `seeds` (the training seeds) — both or neither.
 */
type PerSeedValues = { readonly perSeed: readonly number[]; readonly seeds: readonly number[] } | { readonly perSeed?: never; readonly seeds?: never };

/** A measured cell: our value, ± std when repeated, and its standard error when known. */
export type MeasuredCell = PaperValue &
  PerSeedValues & {
    readonly ours: number;
    readonly std?: number;
    /** Standard error of `ours` (bootstrap over examples, binomial approximation, or over seeds; see `seSource`). */
    readonly se?: number;
    readonly seSource?: 'bootstrap' | 'binomial' | 'seeds' | 'parameters' | 'sample';
    /** Degrees of freedom of `se` when it rests on a few training seeds (Welch–Satterthwaite); absent: large-sample. */
    readonly df?: number;
    readonly notRun?: never;
  };

/** A cell without our value, and why (e.g. "not run: dataset not available"). */
export interface MissingCell extends PaperValue {
  readonly notRun: string;
  readonly ours?: never;
  readonly std?: never;
  readonly se?: never;
  readonly seSource?: never;
  readonly df?: never;
  readonly perSeed?: never;
  readonly seeds?: never;
}

/** One cell of a reproduced table: our value beside the paper's ({@link MeasuredCell}), or why ours is missing ({@link MissingCell}). */
export type TableCell = MeasuredCell | MissingCell;

/** A reproduced table: the paper's rows and columns, each cell ours beside the paper's. */
export interface ReproductionTable {
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: ReadonlyArray<{ readonly label: string; readonly cells: readonly TableCell[] }>;
  readonly format: CellFormat;
  /** A line under the table (what the numbers are, which direction is better). */
  readonly caption?: string;
}

/**
 * The verdict on one headline claim of a paper, evaluated on our numbers (docs/protocol.md §5):
 * decided beyond 2 SE ('holds' / 'does not hold'), 'within noise', 'not testable' (the models are
 * not in the paper's regime or collapsed), 'not evaluated' (a run, row or comparator missing) or
 * 'partial' (an "every column" claim decided on a strict subset of its columns).
 */
export type ClaimVerdict = 'holds' | 'does not hold' | 'within noise' | 'not testable' | 'not evaluated' | 'partial';

/** Every verdict, in the order reports count them. */
export const CLAIM_VERDICTS: readonly ClaimVerdict[] = ['holds', 'does not hold', 'within noise', 'not testable', 'not evaluated', 'partial'];

/** The direction a comparison claims: A above B, or A below B. */
export type Direction = 'greater' | 'less';

/** The verdicts that decide a comparison one way or the other, or say it is within noise. */
export type DecidedVerdict = 'holds' | 'does not hold' | 'within noise';

/**
 * Why a comparison was not decided, set where that is found (docs/protocol.md §5.1): 'not-run' (its
 * run or row did not happen here), 'not-evaluated' (a comparator, row or value is missing),
 * 'not-testable' (out of the paper's regime, collapsed, or no standard error) or 'shown-not-decided'
 * (its only SE is over one model's parameters or points: pseudo-replication). reproduction.json does
 * not store it: there a not-run reason reads "not run…" and a shown one "shown, not decided…"
 * (`reproductionFromStored` reads it back).
 */
export type UndecidedKind = 'not-run' | 'not-evaluated' | 'not-testable' | 'shown-not-decided';

/** The fields of `T`, each absent: for the members of a union that do not have them. */
type Absent<T> = { readonly [K in keyof T]?: never };

/** The two values a comparison compares and the claim it tests (the claim is `A − B > offset` or `< offset`). */
export interface ComparedValues {
  /** Names of the two compared things (A, B). */
  readonly labels?: readonly [string, string];
  readonly a: number;
  readonly b: number;
  /** A − B. */
  readonly delta: number;
  readonly direction: Direction;
  readonly offset: number;
  /** How `a`, `b`, `delta` and `se` print. */
  readonly format: CellFormat;
  /** 'non-inferiority' when the claim was decided as a one-sided non-inferiority test with `offset` as its margin; absent: superiority. */
  readonly test?: 'non-inferiority';
}

/** What every decided comparison rests on (docs/protocol.md §5.1: no decision without a margin). */
interface Margin {
  readonly verdict: DecidedVerdict;
  /** The human-readable rendering of the fields below. */
  readonly evidence: string;
  /** A − B (for a trend: Kendall's τ). */
  readonly delta: number;
  /** Standard error of `delta`. */
  readonly se: number;
  /** Where `se` comes from (e.g. "independent: sqrt(seA² + seB²), bootstrap", "paired bootstrap"). */
  readonly seSource: string;
  readonly direction: Direction;
  readonly offset: number;
  /** (Δ − offset)/SE signed so that positive favours the claim. */
  readonly z: number;
  /** Set when a multiplicity rule changed the verdict (what the rule did). */
  readonly multiplicity?: string;
  readonly reason?: never;
  readonly kind?: never;
}

/** A comparison of two values decided on a margin of critical × SE (`compareEstimates`). */
export interface ComparisonDecision extends Margin, ComparedValues {
  /** Degrees of freedom of `se` when finite (an SE resting on a few training seeds, Welch–Satterthwaite); absent: large-sample. */
  readonly df?: number;
  /** The critical value the margin was held against, in SEs (2 for a large-sample comparison; a Student-t quantile with `df`). Absent in results decided under verdict rules 3, where it was 2. */
  readonly critical?: number;
  readonly p?: never;
}

/** A trend decided by a test (Kendall's τ as `delta`, its SE under no trend, and the p-value; `trendDecision`). */
export interface TrendDecision extends Margin, Absent<Omit<ComparedValues, 'delta' | 'direction' | 'offset'>> {
  readonly p: number;
  readonly df?: never;
  readonly critical?: never;
}

/** A decided comparison: 'holds', 'does not hold' or 'within noise', always with Δ, its SE and z. */
export type DecidedDecision = ComparisonDecision | TrendDecision;

/** What every undecided comparison has: why it was not decided, and no margin. */
interface Undecided {
  /** The human-readable rendering (for 'not testable': "not testable at this scale: <reason>"). */
  readonly evidence: string;
  /** Why the comparison was not decided (not run, not testable: why). */
  readonly reason: string;
  readonly se?: never;
  readonly seSource?: never;
  readonly z?: never;
  readonly df?: never;
  readonly critical?: never;
  readonly p?: never;
  readonly multiplicity?: never;
}

/** A comparison not evaluated: its run did not happen ('not-run') or a comparator, row or value is missing. */
export interface NotEvaluatedDecision extends Undecided, Absent<ComparedValues> {
  readonly verdict: 'not evaluated';
  readonly kind: 'not-run' | 'not-evaluated';
}

/** A comparison not testable at this scale before any values were compared (out of the paper's regime, collapsed, too few points). */
export interface NotTestableDecision extends Undecided, Absent<ComparedValues> {
  readonly verdict: 'not testable';
  readonly kind: 'not-testable' | 'shown-not-decided';
}

/** Two values compared but not decided (`compareEstimates`): no standard error ('not-testable'), or one over a single model ('shown-not-decided'). */
export interface UndecidedComparison extends Undecided, ComparedValues {
  readonly verdict: 'not testable';
  readonly kind: 'not-testable' | 'shown-not-decided';
}

/** A comparison that was not decided, with why ({@link UndecidedKind}) and no margin. */
export type UndecidedDecision = NotEvaluatedDecision | NotTestableDecision | UndecidedComparison;

/**
 * A comparison's verdict, the numbers behind it and their rendering (docs/protocol.md §5.1): a
 * decided one ('holds', 'does not hold', 'within noise') always carries Δ, its SE and z
 * ({@link DecidedDecision}); an undecided one a `reason` and its {@link UndecidedKind}.
 */
export type Decision = DecidedDecision | UndecidedDecision;

/** The decision of one column (dataset, architecture, attack, setting) of a claim. */
export type ColumnDecision = Decision & { readonly column: string };

/**
 * A paper's claim stated as a checkable inequality, with the verdict and the numbers behind it: a
 * single comparison keeps its `decision`, an "every column" claim its `columns` (one decision per
 * dataset, architecture, attack or setting), and `evidence` is rendered from them
 * (docs/protocol.md §5.1). Results decided before verdict rules 3 have `evidence` only.
 */
export interface Claim {
  readonly statement: string;
  readonly verdict: ClaimVerdict;
  /** The numbers the verdict rests on, or (for "not evaluated") why it could not be evaluated. */
  readonly evidence: string;
  /** The one comparison a single-comparison claim rests on (values, Δ, SE and its source, margin). */
  readonly decision?: Decision;
  /** The per-column decisions of a claim over several columns, after the multiplicity rule. */
  readonly columns?: readonly ColumnDecision[];
  /** How the columns combine into the verdict (e.g. every column must hold; Holm over the failures). */
  readonly rule?: string;
}

/** A figure of a reproduction (a Vega-Lite spec with inline data, rendered to SVG in the HTML report). */
export interface ReproductionFigure {
  readonly id: string;
  readonly title: string;
  readonly spec: TopLevelSpec;
}

/** What a reproduction's `run` returns. */
export interface ReproductionOutput {
  readonly tables: readonly ReproductionTable[];
  readonly claims: readonly Claim[];
  readonly figures?: readonly ReproductionFigure[];
  /** Deviations, stand-ins and reduced scales the reader must know about. */
  readonly notes?: readonly string[];
}

/** A trained model of a run, loaded back from the cache, with the run's data. */
export interface LoadedUnit {
  readonly model: ModelClassifier;
  readonly data: PreparedData;
  /** Indices (into `data.dataset`) of the model's members, non-members and inference set. */
  readonly members: readonly number[];
  readonly nonMembers: readonly number[];
  readonly inference?: readonly number[];
  /**
   * The logits the unit released on its members and non-members, row-major `[n, C]`: the model's
   * own, or perturbed ones for an output-perturbation defense (MemGuard, `DefenseDefinition.perturbLogits`).
   */
  readonly released: UnitLogits;
}

/** One run of a group of training seeds (`seedRuns`): its run id, its config and its training seed. */
export interface SeedRun {
  readonly id: string;
  readonly config: ExperimentConfig;
  readonly trainingSeed: number;
}

/** Options of `ReproductionContext.runSeeds` (and of the `runSeeds` helper behind it). */
export interface RunSeedsOptions {
  /**
   * Called as each seed's run finishes (with its id, config and training seed, and its outcome), and
   * awaited before the aggregate is returned: work on one seed's models (e.g. attacking them) starts
   * while the other seeds still train.
   */
  readonly onRun?: (run: SeedRun, outcome: RunOutcome) => Promise<void>;
}

/** What a reproduction gets to do its work. */
export interface ReproductionContext {
  readonly scale: ReproductionScale;
  readonly dataDir?: string;
  readonly store: ArtifactStore;
  readonly signal?: AbortSignal;
  log(line: string): void;
  /**
   * Runs one experiment config through the runner (models cached by content), writes its full report
   * under `<out>/runs/<id>/`, and returns the results — or a {@link NotRun} when its dataset is not
   * available here (never a silent drop).
   */
  run(id: string, config: ExperimentConfig): Promise<RunOutcome>;
  /**
   * Runs a config with k training seeds s0 … s0 + k − 1 (s0 = `config.trainingSeed ?? config.seed`;
   * the partition, so the evaluation examples, stays the config's), each through {@link run} (cached;
   * run ids `id` for s0, then `id-seed-<s>`), and returns their aggregate (`aggregateSeeds`): rows
   * with the mean over seeds, SEs combining the seed spread with the bootstrap, each seed's numbers
   * in `row.seeds`, and paired SEs over seeds (docs/protocol.md §5.2). k = 1 returns {@link run}'s
   * result unchanged (bootstrap SEs only: one training seed); a {@link NotRun} of any seed is returned as is.
   * `options.onRun` is called with each seed's run as it finishes (`RunSeedsOptions`).
   * @throws InvalidArgumentError when k is not a positive integer.
   */
  runSeeds(id: string, config: ExperimentConfig, k: number, options?: RunSeedsOptions): Promise<RunOutcome>;
  /**
   * True when runs started together train side by side (the units go to worker threads or a queue),
   * so a reproduction gains by starting independent runs at once; false or absent when they would
   * train one after the other on this thread anyway (start them in order then).
   */
  readonly parallelRuns?: boolean;
  /**
   * Loads the target (or shadow) model of one defense of a config that {@link run} has run
   * (by label, or by name when unlabelled). The caller disposes `model`.
   */
  loadModel(config: ExperimentConfig, defenseLabel: string, role?: 'target' | 'shadow'): Promise<LoadedUnit>;
}

/**
 * One run a reproduction asks `ctx.run` for: its run id and config. `group` names the group of
 * training seeds it belongs to (`plannedSeedRuns`: the first seed's id), for a group whose first
 * seed did not run (dataset not available) stops there.
 */
export interface PlannedRun {
  readonly id: string;
  readonly config: ExperimentConfig;
  readonly group?: string;
}

/** What {@link Reproduction.plan} may depend on: the scale, and where the datasets are. */
export type PlanContext = Pick<ReproductionContext, 'scale' | 'dataDir'>;

/**
 * One table or figure of a paper, runnable as `mia reproduce <name> --scale smoke|cpu|paper`.
 * @see docs/protocol.md §7 (per-protocol presets)
 */
export interface Reproduction {
  /** `<paper>-<table>`, e.g. `ccl-table1`. */
  readonly name: string;
  readonly paper: string;
  readonly title: string;
  /** Where in the paper, e.g. "CCL (arXiv:2402.05453), Table 1". */
  readonly source: string;
  readonly description?: string;
  run(ctx: ReproductionContext): Promise<ReproductionOutput>;
  /**
   * Every run {@link run} asks `ctx.run` for at a scale, known before anything trains: id and config,
   * each training seed's run included (`plannedSeedRuns`). With it, `mia reproduce --redecide`
   * compares every stored run's config with the plan before the reproduction starts, so a changed
   * config is found even in a run it reaches only after loading trained models; `runReproduction`
   * validates every planned config before training and refuses a `ctx.run` the plan does not list
   * (the plan cannot drift from the run). Required for a reproduction that calls `ctx.loadModel`.
   */
  plan?(ctx: PlanContext): readonly PlannedRun[] | Promise<readonly PlannedRun[]>;
  /**
   * The regimes its claims are gated on, one per column (dataset, architecture) with the number of
   * classes there: each regime states the paper's own values (`Regime.paper`), and a test feeds every
   * reproduction's gates a model at those values and expects a pass (docs/protocol.md §5.1: every
   * gate can pass), and one clearly out of regime and expects "not testable".
   */
  readonly regimes?: ReadonlyArray<{ readonly column: string; readonly regime: Regime; readonly classes: number }>;
}

/**
 * The verdict rules this version decides claims with (`ReproductionResult.verdictRules`; docs/protocol.md
 * §5.1): 4 = Student-t critical values with Welch–Satterthwaite degrees of freedom for SEs over training
 * seeds, non-inferiority claims as one-sided tests, gates met at the threshold (not 2 SE above it), no
 * decision on an SE over one model's parameters, saturation decided per model from every attack,
 * convergence and comparator-effect rules.
 */
export const CURRENT_VERDICT_RULES = 4;

/** Everything a reproduction measured (written as `reproduction.json`). */
export interface ReproductionResult extends ReproductionOutput {
  readonly format: 'mia-reproduction-1';
  readonly name: string;
  readonly paper: string;
  readonly title: string;
  readonly source: string;
  readonly description: string;
  readonly scale: ReproductionScale;
  readonly backend: string;
  /** Precision of the convolutions and matrix products the models trained with (absent in older results: fp32). */
  readonly precision?: 'fp32' | 'bf16';
  readonly versions: Record<string, string>;
  readonly startedAt: string;
  readonly seconds: number;
  /** Per run id: its dataset, scale and time, or why it did not run. */
  readonly runs: Record<string, { readonly dataset: string; readonly source: 'real' | 'stand-in'; readonly seconds: number } | NotRun>;
  readonly notes: readonly string[];
  /**
   * Version of the verdict rules the claims were decided with (docs/protocol.md §5.1): 4 = the
   * rules of {@link CURRENT_VERDICT_RULES}; 3 = structured
   * per-column decisions, the combination rule with Holm's step-down, the regime gate with its own
   * noise; 2 = margins and testability gate, decisions kept as evidence text only. Absent in results
   * computed before the testability gate.
   */
  readonly verdictRules?: 2 | 3 | 4;
  /** When the claims were last decided, if later than the measurement (`mia reproduce --redecide`). */
  readonly decidedAt?: string;
}
