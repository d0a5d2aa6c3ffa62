import { activeBackend, activePrecision } from '../train/backend-choice';
import { deriveSeed } from '@mia/core';
import { concatSignals } from '@mia/attacks';
import { DirectoryArtifactStore, type ArtifactStore } from '../store/artifact-store';
import { attackNeedsShadow, createAttacks, findAttack } from '../attacks/registry';
import { attackCacheOptions, runCachedAttackSuite } from '../attacks/cached-attack-suite';
import { attackConfigOf, trainingSeedOf, type AttackEntry, type ExperimentConfig } from '../schema/run-schema';
import type { AttackQuerySet } from '../attacks/definition';
import { sizeWarnings } from '../config/sizes';
import { defaultModelStore } from '../store/model-store';
import { prepareData, type PreparedData } from '../data/prepare-data';
import { checkTrainingAugmentation } from '../defenses/training-augmentation';
import { checkAugmentationAttacks, unitQuerySignals } from '../attacks/query-signals';
import type { DefenseRow, ExperimentResults } from './results';
import { brokenDpWarning, divergenceWarning, examplesPerClassWarning, learningRateKnobs } from './warnings';
import { trainUnit, type TrainUnitSpec } from '../train/train-unit';
import { checkedRunConfig } from '../config/run-config';
import { trainUnitsInWorkers, workerIsolation, type WorkerIsolation } from '../train/worker-pool';
import { packageVersions } from '../store/versions';
import { defenseRow, rowBootstrapInput } from './defense-row';
import { pairedRowSe, type PairedRowInput } from './paired-se';
import { roleIndices, shadowRoles } from '../train/unit-roles';
import { missingUnits, runUnits } from '../train/run-units';
import { referencesSummary, runReferences } from './run-references';
import { targetPopulationSignals } from '../attacks/population-signals';
import type { AttackReferences } from '../attacks/definition';
import type { UnitSignals } from '../train/unit-scope';
import { rowExposure, type RowRecords } from './row-exposure';

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
   * Trains the units missing from `store` elsewhere (e.g. on a job queue, see `src/queue/`) instead
   * of in worker threads; when it resolves, every unit must be readable from `store`.
   */
  readonly trainUnits?: (request: TrainUnitsRequest) => Promise<void>;
  /** Pool members as threads or child processes (`trainUnitsInWorkers`). @default `$MIA_WORKER_ISOLATION`, else threads */
  readonly workerIsolation?: WorkerIsolation;
  /** Where {@link trainUnits} trains, for the log line before training. @default 'on the queue' */
  readonly trainUnitsWhere?: string;
  /** Loads the dataset and partition (tests inject one). @default {@link prepareData} */
  readonly loadData?: typeof prepareData;
}

/** What {@link RunExperimentOptions.trainUnits} gets: the grid-expanded config, its data, the missing units and the store. */
export interface TrainUnitsRequest {
  readonly config: ExperimentConfig;
  readonly data: PreparedData;
  readonly units: readonly TrainUnitSpec[];
  readonly store: ArtifactStore;
}

/**
 * Runs one experiment: for every defense, trains the target and, when an attack of the run calibrates
 * on one (`needs.shadow`), an adaptive shadow (same defense, docs/protocol.md §3.7), or loads them from
 * the content-addressed cache; trains (or loads) the reference models once; computes their signals, runs the
 * attack suite, and measures utility, loss gap, loss variance and P1 (docs/protocol.md §5) and each
 * attacked target's per-record exposure (`row.exposure`; every record in `perRecord`). The whole
 * config is validated first (every defense's params against its schema), before any data loads.
 * @throws InvalidArgumentError naming every bad config entry by its path; a user defense registered
 *   without a module when units train in workers or on a queue.
 */
export async function runExperiment(input: ExperimentConfig, options: RunExperimentOptions = {}): Promise<ExperimentResults> {
  const started = Date.now();
  const workers = options.workers ?? input.workers;
  const config = await checkedRunConfig(input, { remote: workers > 0 || options.trainUnits !== undefined });
  const store = options.store ?? defaultModelStore();
  const data = await (options.loadData ?? prepareData)(config, { dataDir: options.dataDir });
  checkAugmentationAttacks(config, data.dataset.inputShape);
  checkTrainingAugmentation(config, data.dataset.inputShape);
  const warnings: string[] = [];
  const warn = (warning: string | undefined) => {
    if (warning === undefined) return;
    warnings.push(warning);
    options.onLog?.(`warning: ${warning}`);
  };
  for (const warning of sizeWarnings(config)) warn(warning);
  warn(examplesPerClassWarning(data));
  // `config.shadowModels` shadows per defense, pooled, when an attack calibrates on them; none without
  // attacks (a reproduction that attacks the targets itself) or with only attacks that do not (LiRA, RMIA).
  const shadowsOf = shadowRoles(config, attackNeedsShadow);
  const trainedByWorkers = new Set<string>();
  if (workers > 0 || options.trainUnits !== undefined) {
    if (options.trainUnits === undefined && !(store instanceof DirectoryArtifactStore))
      throw new Error('runExperiment: worker threads need a DirectoryArtifactStore (a shared directory)');
    // Targets (and shadows) of every defense, and the run's reference models: all independent units.
    const missing: TrainUnitSpec[] = await missingUnits(config, data, store, attackNeedsShadow);
    const total = runUnits(config, attackNeedsShadow).length;
    const threads = Math.min(workers, missing.length);
    const processes = workerIsolation(options.workerIsolation) === 'process';
    const members = processes ? (threads === 1 ? 'worker process' : 'worker processes') : threads === 1 ? 'worker thread' : 'worker threads';
    const where = options.trainUnits !== undefined ? (options.trainUnitsWhere ?? 'on the queue') : `on ${threads} ${members}`;
    options.onLog?.(
      `models     ${total - missing.length} of ${total} in the cache; ${missing.length === 0 ? 'nothing to train' : `training ${missing.length} ${where}`}`,
    );
    for (const u of missing) trainedByWorkers.add(`${u.defenseIndex}:${u.role}`);
    if (options.trainUnits !== undefined) await options.trainUnits({ config, data, units: missing, store });
    else
      await trainUnitsInWorkers(config, missing, {
        workers,
        storeRoot: (store as DirectoryArtifactStore).root,
        dataDir: options.dataDir,
        onLog: options.onLog,
        signal: options.signal,
        ...(options.workerIsolation === undefined ? {} : { isolation: options.workerIsolation }),
      });
  }
  const rows: DefenseRow[] = [];
  // Every row is evaluated on the same examples (the target partition roles), so rows pair (§5.2).
  const paired: PairedRowInput[] = [];
  const perRecord: RowRecords[] = [];
  const targetIndex = roleIndices(config.seed, data.partition.roles, 'target');
  // The reference models: trained (or read, or imported) once per run, shared by every defense's attacks.
  const references = await runReferences(config, data, store, options, trainedByWorkers);
  const needsPopulation = config.attacks.some((a) => findAttack(attackConfigOf(a).name)?.needs.population === true);
  // Units the worker pool (or the queue) trained in this run come back from the cache: they were
  // logged as trained there, so their "cache hit" line is dropped and their row says trained.
  const unitOptions = (unit: string) =>
    trainedByWorkers.has(unit)
      ? {
          ...options,
          onLog: (line: string) => {
            if (!line.startsWith('cache hit')) options.onLog?.(line);
          },
        }
      : options;
  for (const defense of config.defenses) {
    const index = config.defenses.indexOf(defense);
    const target = await trainUnit(config, data, defense, 'target', store, unitOptions(`${index}:target`));
    const shadows: UnitSignals[] = [];
    for (const role of shadowsOf) shadows.push(await trainUnit(config, data, defense, role, store, unitOptions(`${index}:${role}`)));
    if (trainedByWorkers.has(`${index}:target`)) target.cache = 'miss';
    shadows.forEach((u, k) => {
      if (trainedByWorkers.has(`${index}:${shadowsOf[k]}`)) u.cache = 'miss';
    });
    const learningRates = learningRateKnobs(defense, config.training);
    warn(divergenceWarning(`${defense.label ?? defense.name} target`, target.members, learningRates));
    shadows.forEach((u, k) => warn(divergenceWarning(`${defense.label ?? defense.name} ${shadowsOf[k]}`, u.members, learningRates)));
    const shadow = shadows.length === 0 ? undefined : poolShadows(shadows);
    // The attack models train with the training seed: their randomness is part of a seed's spread (§5.2).
    const attackSeed = deriveSeed(trainingSeedOf(config), 'attack');
    const attackOptions = { seed: attackSeed, nnEpochs: config.scale === 'smoke' ? 5 : undefined };
    let attackReferences: AttackReferences | undefined = references;
    if (references !== undefined && needsPopulation)
      attackReferences = {
        ...references,
        targetPopulation: await targetPopulationSignals(config, data, defense, references.population, store, options.onLog),
      };
    const create = { seed: attackSeed, scale: config.scale, ...(attackReferences === undefined ? {} : { references: attackReferences }) };
    const attacks = createAttacks(
      config.attacks.filter((a) => queriesOf(a) === undefined),
      create,
    );
    // Trained attacks (NN) are cached like the models: a rerun on cached units does not retrain them.
    const cacheAttacks = attackCacheOptions(config, data, defense, store, attackOptions, options.onLog, options.signal);
    // Without shadow models every attack is shadow-free (needs.shadow false): the suite runs without them.
    const suite =
      attacks.length === 0
        ? undefined
        : await runCachedAttackSuite(
            {
              target: { members: target.members, nonMembers: target.nonMembers },
              ...(shadow === undefined ? {} : { shadow: { members: shadow.members, nonMembers: shadow.nonMembers } }),
              attacks,
            },
            cacheAttacks,
          ).finally(() => {
            for (const a of attacks) a.dispose?.();
          });
    const results = [...(suite?.attacks ?? [])];
    // Augmentation attacks (docs/protocol.md §3.3): their own suite on signals with the attack's queries.
    for (const entry of shadow === undefined ? [] : config.attacks.filter((a) => queriesOf(a) !== undefined)) {
      const queries = queriesOf(entry)!;
      const tq = await unitQuerySignals(config, data, defense, 'target', queries, store, options.onLog);
      const per = [];
      for (const role of shadowsOf) per.push(await unitQuerySignals(config, data, defense, role, queries, store, options.onLog));
      const sq = { members: poolQueries(per.map((q) => q.members)), nonMembers: poolQueries(per.map((q) => q.nonMembers)) };
      const augmentation = createAttacks([entry], create);
      const augmented = await runCachedAttackSuite(
        {
          target: { members: { ...target.members, queries: tq.members }, nonMembers: { ...target.nonMembers, queries: tq.nonMembers } },
          shadow: { members: { ...shadow!.members, queries: sq.members }, nonMembers: { ...shadow!.nonMembers, queries: sq.nonMembers } },
          attacks: augmentation,
        },
        { ...cacheAttacks, attackOptions: { seed: attackSeed } },
      ).finally(() => {
        for (const a of augmentation) a.dispose?.();
      });
      results.push(...augmented.attacks);
    }
    const exposed = rowExposure({
      label: defense.label ?? defense.name,
      members: target.members,
      nonMembers: target.nonMembers,
      memberIndex: targetIndex.memberIdx,
      nonMemberIndex: targetIndex.nonMemberIdx,
      attacks: results,
    });
    warn(exposed.warning);
    if (exposed.records !== undefined) perRecord.push(exposed.records);
    const row = { ...defenseRow(config, defense, target, shadow, results), ...(exposed.exposure === undefined ? {} : { exposure: exposed.exposure }) };
    rows.push(row);
    warn(brokenDpWarning(row));
    paired.push({ label: row.label, input: rowBootstrapInput(target, results) });
    const best = row.attacks.length === 0 ? undefined : row.attacks.reduce((a, b) => (b.advantage > a.advantage ? b : a));
    const testAccuracy = row.testAccuracy;
    const maxAdvantage = row.maxAdvantage;
    options.onLog?.(
      best === undefined
        ? `evaluated  ${defense.label ?? defense.name}: test acc ${(100 * testAccuracy).toFixed(1)}% (no attacks in this run)`
        : `attacked   ${defense.label ?? defense.name}: test acc ${(100 * testAccuracy).toFixed(1)}%, max advantage ${(100 * maxAdvantage).toFixed(1)}% (${best.attack})`,
    );
  }
  const notes: string[] = [];
  if (data.dataset.source === 'stand-in')
    notes.push(`${data.dataset.name} is a synthetic stand-in (${data.dataset.description}); numbers are not comparable to the paper's real-data values.`);
  if (config.scale !== 'paper')
    notes.push(`Reduced scale '${config.scale}': fewer examples, epochs and/or a smaller model than the paper; compare trends, not values.`);
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
    startedAt: new Date(started).toISOString(),
    seconds: (Date.now() - started) / 1000,
    rows,
    notes,
    warnings,
    ...pairedSeOf(config, paired),
    ...(references === undefined ? {} : { references: referencesSummary(config, references) }),
    perRecord,
  };
}

/** The query set an attack entry's attack needs (the augmentation attacks'), or undefined. */
const queriesOf = (entry: AttackEntry): AttackQuerySet | undefined => findAttack(attackConfigOf(entry).name)?.needs.queries;

/** The run's paired bootstrap table (docs/protocol.md §5.2), seeded from the config seed; none with one row. */
function pairedSeOf(config: ExperimentConfig, rows: readonly PairedRowInput[]): Pick<ExperimentResults, 'pairedSe'> {
  const pairedSe = pairedRowSe(rows, { seed: deriveSeed(config.seed, 'paired-bootstrap') });
  return pairedSe === undefined ? {} : { pairedSe };
}

/**
 * The shadows of one defense as one calibration set (docs/protocol.md §3.2, the CRL paper's k = 5):
 * members and non-members concatenated in role order; trained in this run if any of them was; their
 * training time summed; the first shadow's recorded metrics.
 */
function poolShadows(shadows: readonly UnitSignals[]): UnitSignals {
  if (shadows.length === 1) return shadows[0]!;
  const pooled: UnitSignals = {
    members: concatSignals(shadows.map((s) => s.members)),
    nonMembers: concatSignals(shadows.map((s) => s.nonMembers)),
    cache: shadows.some((s) => s.cache === 'miss') ? 'miss' : 'hit',
    seconds: shadows.reduce((t, s) => t + s.seconds, 0),
  };
  if (shadows[0]!.metrics !== undefined) pooled.metrics = shadows[0]!.metrics;
  return pooled;
}

/** Per-query signals of several shadows joined query by query (each shadow answers the same queries). */
function poolQueries<T extends Parameters<typeof concatSignals>[0][number]>(perShadow: readonly (readonly T[])[]): T[] {
  return perShadow[0]!.map((_, q) => concatSignals(perShadow.map((s) => s[q]!)) as T);
}
