import { createHash } from 'node:crypto';
import { contentHash, getDefense, type ExperimentConfig, type ExperimentResults } from '@mia/experiments';
import { isNotRun, type NotRun, type ReproductionContext, type ReproductionScale } from '@mia/experiments/reproduce';
import { serializeClassifier } from '@mia/models';
import { DATASET_COLUMNS, columnConfig, coreDefenses, type DatasetColumn } from './configs';
import { evaluateModel, type ModelEvaluation } from './evaluate-model';
import { evaluationOptions } from './evaluation-options';

/** One dataset column: the runner's results and the SharpReg-protocol evaluation of each defense. */
export interface ColumnEvaluation {
  readonly config: ExperimentConfig;
  /** The runner's results; with several training seeds their `runSeeds` aggregate. */
  readonly results: ExperimentResults;
  /**
   * Defense label → evaluation of its target model; with several training seeds, the seeds merged by
   * {@link mergeSeedEvaluations} (per-split arrays seed after seed, accuracies averaged).
   */
  readonly evaluations: Readonly<Record<string, ModelEvaluation>>;
  /** The training seeds of the column's models (docs/protocol.md §5.2), in the order of the merged arrays. */
  readonly seeds: readonly number[];
  /** Defense label → each training seed's own evaluation, in the order of {@link seeds}. */
  readonly bySeed: Readonly<Record<string, readonly ModelEvaluation[]>>;
}

/**
 * One evaluation from the evaluations of k training seeds of the same defense (docs/protocol.md
 * §5.2): train and test accuracy averaged, and every per-split array the seeds' arrays one after the
 * other (k × splits values, seed-major), so a cell's mean is the mean over seeds and splits and
 * {@link attackAccuracyOf} can cut them back into seeds. One evaluation is returned as it is.
 * @throws Error when there is none, or the seeds' evaluations have different attacks or split counts.
 */
export function mergeSeedEvaluations(evaluations: readonly ModelEvaluation[]): ModelEvaluation {
  if (evaluations.length === 0) throw new Error('mergeSeedEvaluations: evaluations must hold at least one evaluation, got 0');
  const [first] = evaluations as [ModelEvaluation, ...ModelEvaluation[]];
  if (evaluations.length === 1) return first;
  const shape = (e: ModelEvaluation) => JSON.stringify([Object.keys(e.single), Object.keys(e.multi), e.bestSingle.length, e.bestMulti.length]);
  evaluations.forEach((e, i) => {
    if (shape(e) !== shape(first))
      throw new Error(`mergeSeedEvaluations: evaluations[${i}] has attacks/splits ${shape(e)}, expected ${shape(first)} as evaluations[0]`);
  });
  const avg = (pick: (e: ModelEvaluation) => number) => evaluations.reduce((a, e) => a + pick(e), 0) / evaluations.length;
  const concat = (pick: (e: ModelEvaluation) => readonly number[]) => evaluations.flatMap((e) => [...pick(e)]);
  const byAttack = (pick: (e: ModelEvaluation) => Record<string, number[]>) =>
    Object.fromEntries(Object.keys(pick(first)).map((a) => [a, concat((e) => pick(e)[a]!)]));
  return {
    trainAccuracy: avg((e) => e.trainAccuracy),
    testAccuracy: avg((e) => e.testAccuracy),
    single: byAttack((e) => e.single),
    multi: byAttack((e) => e.multi),
    bestSingle: concat((e) => e.bestSingle),
    bestMulti: concat((e) => e.bestMulti),
  };
}

// Evaluations of this process, by model content (tables 1–3 share them when run together).
const memo = new Map<string, Promise<ModelEvaluation>>();
const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function evaluateCached(ctx: ReproductionContext, config: ExperimentConfig, label: string): Promise<ModelEvaluation> {
  const loaded = await ctx.loadModel(config, label);
  try {
    const options = evaluationOptions(ctx.scale);
    const modelHash = createHash('sha256')
      .update(await serializeClassifier(loaded.model))
      .digest('hex');
    // An output-perturbation defense (MemGuard) releases other logits than its model's: attack those.
    const defense = config.defenses.find((d) => (d.label ?? d.name) === label)!;
    const perturbed = getDefense(defense.name).perturbLogits !== undefined;
    const releasedHash = perturbed
      ? createHash('sha256').update(new Uint8Array(loaded.released.members.buffer)).update(new Uint8Array(loaded.released.nonMembers.buffer)).digest('hex')
      : undefined;
    const key = contentHash({
      kind: 'sam-privacy-evaluation-3',
      modelHash,
      data: loaded.data.digest,
      options,
      ...(releasedHash === undefined ? {} : { releasedHash }),
    });
    let pending = memo.get(key);
    if (pending === undefined) {
      pending = (async () => {
        const stored = await ctx.store.read(key);
        const bytes = stored?.files.get('evaluation.json');
        if (bytes !== undefined) return JSON.parse(decoder.decode(bytes)) as ModelEvaluation;
        ctx.log(`[sam] attacking ${label} of ${config.name} (${options.splits} splits)`);
        const evaluation = await evaluateModel(
          loaded.model,
          loaded.data.dataset,
          loaded.members,
          loaded.nonMembers,
          options,
          0,
          perturbed ? loaded.released : undefined,
        );
        await ctx.store.write(
          key,
          { 'evaluation.json': encoder.encode(JSON.stringify(evaluation)) },
          { kind: 'sam-privacy-evaluation', config: config.name, label },
        );
        return evaluation;
      })();
      memo.set(key, pending);
    }
    return await pending;
  } finally {
    loaded.model.dispose();
  }
}

/**
 * Runs one config per dataset column through the runner with `seeds` training seeds
 * (`ctx.runSeeds`), then evaluates every defense's target of every seed with the SharpReg protocol
 * ({@link evaluateModel}) and merges the seeds ({@link mergeSeedEvaluations}); evaluations are cached
 * in the artifact store by model content, so tables that share models attack them once.
 *
 * With `ctx.parallelRuns` the columns' runs start together (their units share the reproduction's
 * workers, first come first served); either way each seed's models are attacked as soon as its run
 * finishes: the evaluation, which runs on this thread, overlaps the trainings still on the workers
 * instead of waiting for the last of them.
 * The result does not depend on that order (every split and attack is seeded, models are found by
 * content).
 *
 * @param defensesOf - the defenses of each column (default: SGD, SAM, SharpReg).
 * @param suffix - distinguishes configs (and run ids) with other defense lists.
 * @param seeds - training seeds per model (docs/protocol.md §5.2). @default 1
 * @returns per column, the evaluation or why it did not run.
 */
export async function evaluateColumns(
  ctx: ReproductionContext,
  defensesOf: (column: DatasetColumn, scale: ReproductionScale) => ExperimentConfig['defenses'] = coreDefenses,
  suffix = 'core',
  seeds = 1,
): Promise<Record<DatasetColumn, ColumnEvaluation | NotRun>> {
  const evaluateColumn = async (column: DatasetColumn): Promise<ColumnEvaluation | NotRun> => {
    const config = columnConfig(column, ctx.scale, defensesOf(column, ctx.scale), suffix);
    const labels = config.defenses.map((d) => d.label ?? d.name);
    const ofSeed = new Map<number, readonly ModelEvaluation[]>();
    const results = await ctx.runSeeds(`${column.toLowerCase().replace(/[^a-z0-9]+/g, '')}-${suffix}`, config, seeds, {
      async onRun(run, outcome) {
        if (isNotRun(outcome)) return;
        const evaluations: ModelEvaluation[] = [];
        for (const label of labels) evaluations.push(await evaluateCached(ctx, run.config, label));
        ofSeed.set(run.trainingSeed, evaluations);
      },
    });
    if (isNotRun(results)) return results;
    const trainingSeeds = results.trainingSeeds ?? [config.trainingSeed ?? config.seed];
    const evaluations: Record<string, ModelEvaluation> = {};
    const bySeed: Record<string, ModelEvaluation[]> = {};
    labels.forEach((label, i) => {
      const perSeed = trainingSeeds.map((trainingSeed) => {
        const evaluation = ofSeed.get(trainingSeed)?.[i];
        if (evaluation === undefined) throw new Error(`evaluateColumns: ${column}: training seed ${trainingSeed} ran but its ${label} model was not evaluated`);
        return evaluation;
      });
      bySeed[label] = perSeed;
      evaluations[label] = mergeSeedEvaluations(perSeed);
    });
    return { config, results, evaluations, seeds: trainingSeeds, bySeed };
  };
  const columns: Array<ColumnEvaluation | NotRun> = [];
  if (ctx.parallelRuns === true) columns.push(...(await Promise.all(DATASET_COLUMNS.map(evaluateColumn))));
  else for (const column of DATASET_COLUMNS) columns.push(await evaluateColumn(column));
  return Object.fromEntries(DATASET_COLUMNS.map((column, i) => [column, columns[i]!])) as Record<DatasetColumn, ColumnEvaluation | NotRun>;
}
