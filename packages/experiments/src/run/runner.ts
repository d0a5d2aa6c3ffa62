import { deriveSeed } from '@mia/core';
import type { ArtifactStore } from '../store/artifact-store';
import { defaultModelStore } from '../store/model-store';
import type { ExperimentConfig } from '../schema/run-schema';
import { prepareData, type PreparedData } from '../data/prepare-data';
import { checkTrainingAugmentation } from '../defenses/training-augmentation';
import { activeBackend, activePrecision } from '../train/backend-choice';
import { planRun, type RunPlan } from '../plan/plan-run';
import { attackNeedsShadow } from '../attacks/registry';
import { checkAugmentationAttacks } from '../attacks/query-signals';
import { choosePlacement, placeUnits, type UnitPlacement } from '../place/placement';
import type { WorkerIsolation } from '../place/worker-pool';
import { checkedRunConfig } from '../config/run-config';
import { sizeWarnings } from '../config/sizes';
import { packageVersions } from '../store/versions';
import { evaluateDefense, type DefenseEvaluation } from './evaluate-defense';
import { pairedRowSe, type PairedRowInput } from './paired-se';
import type { ExperimentResults, RunDoctor } from './results';
import { referencesSummary, runReferences } from './run-references';
import { examplesPerClassWarning } from './warnings';
import { diagnoseRun } from './audit-doctor';
import { findingLine } from '@mia/attacks';
import type { RunReferences } from '../references/reference-signals';

export type { TrainUnitsRequest, UnitPlacement } from '../place/placement';

/** Options of {@link runExperiment}. */
export interface RunExperimentOptions {
  /** Where trained models and their signals are cached. @default `$MIA_CACHE_DIR/models` or `~/.cache/mia/models` */
  readonly store?: ArtifactStore;
  readonly dataDir?: string;
  readonly signal?: AbortSignal;
  /** One line per step (cache hits, training, attacks). */
  readonly onLog?: (line: string) => void;
  /** Worker threads for the trainings (overrides `config.workers`); 0 trains in this thread. */
  readonly workers?: number;
  /**
   * Trains the units missing from `store` elsewhere (e.g. on a job queue, `queueTrainer` of
   * `@mia/experiments/queue`) instead of in this thread or worker threads; when its `train` resolves,
   * every unit must be readable from `store`.
   */
  readonly placement?: UnitPlacement;
  /** Pool members as threads or child processes (`trainUnitsInWorkers`). @default `$MIA_WORKER_ISOLATION`, else threads */
  readonly workerIsolation?: WorkerIsolation;
  /** Loads the dataset and partition (tests inject one). @default {@link prepareData} */
  readonly loadData?: typeof prepareData;
}

/**
 * Runs one experiment (docs/protocol.md §3, §5): checks the whole config (every defense's params
 * against its schema) before any data loads, plans the run ({@link planRun}: each defense's target,
 * its shadows when an attack calibrates on them, adaptive as in §3.7, and the reference models),
 * trains the units the cache lacks where the options place them (this thread, worker threads or
 * processes, a queue), then evaluates every defense: attacks, utility, loss gap, loss variance, P1
 * and each attacked target's per-record exposure (`row.exposure`; every record in `perRecord`); last,
 * whether the audit is valid (`doctor`: a blind baseline against each row's best attack and the
 * validity findings, docs/guides/audit-doctor.md), which changes no number of the run.
 * @throws InvalidArgumentError naming every bad config entry by its path; a user defense registered
 *   without a module when units train in workers or on a queue.
 */
export async function runExperiment(input: ExperimentConfig, options: RunExperimentOptions = {}): Promise<ExperimentResults> {
  const started = Date.now();
  const workers = options.workers ?? input.workers;
  const config = await checkedRunConfig(input, { remote: workers > 0 || options.placement !== undefined });
  const store = options.store ?? defaultModelStore();
  const { onLog, signal, dataDir } = options;
  const placement = choosePlacement(store, { workers, placement: options.placement, isolation: options.workerIsolation, dataDir, onLog, signal });
  const data = await (options.loadData ?? prepareData)(config, { dataDir });
  checkAugmentationAttacks(config, data.dataset.inputShape);
  checkTrainingAugmentation(config, data.dataset.inputShape);
  const warnings: string[] = [];
  const warn = (warning: string | undefined) => {
    if (warning === undefined) return;
    warnings.push(warning);
    onLog?.(`warning: ${warning}`);
  };
  [...sizeWarnings(config), examplesPerClassWarning(data)].forEach(warn);
  const plan = planRun(config, data, attackNeedsShadow);
  const trainedHere = await placeUnits(plan, store, placement, onLog);
  // The reference models: read (or imported) once per run, shared by every defense's attacks.
  const references = await runReferences(plan, store, { onLog, signal }, trainedHere);
  const evaluations: DefenseEvaluation[] = [];
  for (const defense of plan.defenses) {
    const evaluation = await evaluateDefense(plan, defense, { store, references, trainedHere, onLog, signal });
    evaluation.warnings.forEach(warn);
    evaluations.push(evaluation);
  }
  const doctorStarted = performance.now();
  const doctor = diagnoseRun(
    plan,
    evaluations.map((e) => e.row),
    evaluations.flatMap((e) => (e.records === undefined ? [] : [e.records])),
    references,
  );
  const auc = doctor.baseline?.auc;
  if (auc !== undefined)
    onLog?.(
      `doctor     blind baseline AUC ${auc.estimate.toFixed(3)} [${auc.lower.toFixed(3)}, ${auc.upper.toFixed(3)}] (${((performance.now() - doctorStarted) / 1000).toFixed(2)} s with the checks)`,
    );
  for (const finding of doctor.findings) onLog?.(`doctor     ${findingLine(finding)}`);
  return runResults(plan, evaluations, references, { started, warnings, doctor });
}

/** The run's `results.json` from its plan and every defense's evaluation. */
function runResults(
  plan: RunPlan,
  evaluations: readonly DefenseEvaluation[],
  references: RunReferences | undefined,
  run: { readonly started: number; readonly warnings: readonly string[]; readonly doctor: RunDoctor },
): ExperimentResults {
  const { config, data } = plan;
  return {
    format: 'mia-results-1',
    config,
    dataset: {
      name: data.dataset.name,
      source: data.dataset.source,
      description: data.dataset.description,
      size: data.dataset.size,
      classes: data.dataset.numClasses,
    },
    partition: {
      preset: data.partition.preset,
      sizes: Object.fromEntries(Object.entries(data.partition.roles).map(([k, v]) => [k, v.length])),
      digest: data.digest,
    },
    backend: activeBackend(),
    precision: activePrecision(),
    versions: packageVersions(),
    startedAt: new Date(run.started).toISOString(),
    seconds: (Date.now() - run.started) / 1000,
    rows: evaluations.map((e) => e.row),
    notes: runNotes(config, data),
    warnings: [...run.warnings],
    ...pairedSeOf(
      config,
      evaluations.map((e) => e.paired),
    ),
    ...(references === undefined ? {} : { references: referencesSummary(config, references) }),
    perRecord: evaluations.flatMap((e) => (e.records === undefined ? [] : [e.records])),
    doctor: run.doctor,
  };
}

/** What a reader must know before comparing the numbers with a paper's: a stand-in dataset, a reduced scale. */
function runNotes(config: ExperimentConfig, data: PreparedData): string[] {
  const notes: string[] = [];
  if (data.dataset.source === 'stand-in')
    notes.push(`${data.dataset.name} is a synthetic stand-in (${data.dataset.description}); numbers are not comparable to the paper's real-data values.`);
  if (config.scale !== 'paper')
    notes.push(`Reduced scale '${config.scale}': fewer examples, epochs and/or a smaller model than the paper; compare trends, not values.`);
  return notes;
}

/** The run's paired bootstrap table (docs/protocol.md §5.2), seeded from the config seed; none with one row. */
function pairedSeOf(config: ExperimentConfig, rows: readonly PairedRowInput[]): Pick<ExperimentResults, 'pairedSe'> {
  const pairedSe = pairedRowSe(rows, { seed: deriveSeed(config.seed, 'paired-bootstrap') });
  return pairedSe === undefined ? {} : { pairedSe };
}
