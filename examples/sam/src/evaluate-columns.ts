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
  readonly results: ExperimentResults;
  /** Defense label → evaluation of its target model. */
  readonly evaluations: Readonly<Record<string, ModelEvaluation>>;
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
 * Runs one config per dataset column through the runner, then evaluates every defense's target
 * with the SharpReg protocol ({@link evaluateModel}); evaluations are cached in the artifact store
 * by model content, so tables that share models attack them once.
 *
 * @param defensesOf - the defenses of each column (default: SGD, SAM, SharpReg).
 * @param suffix - distinguishes configs (and run ids) with other defense lists.
 * @returns per column, the evaluation or why it did not run.
 */
export async function evaluateColumns(
  ctx: ReproductionContext,
  defensesOf: (column: DatasetColumn, scale: ReproductionScale) => ExperimentConfig['defenses'] = coreDefenses,
  suffix = 'core',
): Promise<Record<DatasetColumn, ColumnEvaluation | NotRun>> {
  const out = {} as Record<DatasetColumn, ColumnEvaluation | NotRun>;
  for (const column of DATASET_COLUMNS) {
    const config = columnConfig(column, ctx.scale, defensesOf(column, ctx.scale), suffix);
    const results = await ctx.run(`${column.toLowerCase().replace(/[^a-z0-9]+/g, '')}-${suffix}`, config);
    if (isNotRun(results)) {
      out[column] = results;
      continue;
    }
    const evaluations: Record<string, ModelEvaluation> = {};
    for (const defense of config.defenses) {
      const label = defense.label ?? defense.name;
      evaluations[label] = await evaluateCached(ctx, config, label);
    }
    out[column] = { config, results, evaluations };
  }
  return out;
}
