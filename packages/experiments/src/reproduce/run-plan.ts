import { InvalidArgumentError, MiaError } from '@mia/core';
import { canonicalJson } from '../store/canonical-hash';
import { checkedRunConfig } from '../config/run-config';
import type { ExperimentConfig } from '../schema/run-schema';
import { seedRuns } from './seeds';
import type { PlanContext, PlannedRun, Reproduction, ReproductionScale } from './types';

/** The error a reproduction throws when it asks `ctx.run` for a run its {@link Reproduction.plan} does not list, or lists with another config. */
export class PlanDriftError extends MiaError {}

/**
 * The planned runs of a group of k training seeds, as `ctx.runSeeds(id, config, k)` asks for them
 * (`seedRuns`: `id` for the first seed, `<id>-seed-<s>` for the others), each tagged with the group
 * `id`. For {@link Reproduction.plan}.
 * @throws InvalidArgumentError when `k` is not a positive integer.
 */
export function plannedSeedRuns(id: string, config: ExperimentConfig, k: number): PlannedRun[] {
  return seedRuns(id, config, k).map((r) => ({ id: r.id, config: r.config, group: id }));
}

/** A config as it bears on what is trained and evaluated: `workers`, `modules` and each defense's `search` (how its params were chosen) left out. */
function whatRuns(config: ExperimentConfig): Record<string, unknown> {
  return { ...(config as unknown as Record<string, unknown>), workers: 0, modules: [], defenses: config.defenses.map(({ search: _search, ...d }) => d) };
}

/**
 * The top-level config keys in which two configs differ, after both are validated and their
 * defaults filled in. Empty when they describe the same run. Ignored: `workers` and `modules` (where
 * units train, not what they are) and each defense's `search` (how its params were chosen: it
 * changes what the audit doctor and the report say of the run, not what trains, and is in no cache key).
 * @throws InvalidArgumentError (from `checkedRunConfig`) when either config is invalid.
 */
export async function configDifferences(a: ExperimentConfig, b: ExperimentConfig): Promise<string[]> {
  const [x, y] = await Promise.all([checkedRunConfig(a, { remote: false }), checkedRunConfig(b, { remote: false })]);
  const left = whatRuns(x);
  const right = whatRuns(y);
  return [...new Set([...Object.keys(left), ...Object.keys(right)])].filter((k) => canonicalJson(left[k]) !== canonicalJson(right[k])).sort();
}

/**
 * A reproduction's plan at a scale (undefined when it declares none), by run id, each config
 * validated (`checkedRunConfig`: defense params against their schemas) before anything trains.
 * @throws InvalidArgumentError naming the reproduction and the run when the plan lists an id twice
 *   or a config is invalid.
 */
export async function reproductionPlan(reproduction: Reproduction, ctx: PlanContext): Promise<ReadonlyMap<string, PlannedRun> | undefined> {
  if (reproduction.plan === undefined) return undefined;
  const runs = await reproduction.plan(ctx);
  const byId = new Map<string, PlannedRun>();
  for (const run of runs) {
    if (byId.has(run.id)) throw new InvalidArgumentError(`${reproduction.name}: plan must list each run id once, got ${JSON.stringify(run.id)} twice`);
    try {
      await checkedRunConfig({ ...run.config, scale: ctx.scale }, { remote: false });
    } catch (error) {
      throw new InvalidArgumentError(`${reproduction.name}: the planned config of run ${JSON.stringify(run.id)} is invalid (${(error as Error).message})`, {
        cause: error,
      });
    }
    byId.set(run.id, run);
  }
  return byId;
}

/**
 * Checks a `ctx.run(id, config)` call against the reproduction's plan (nothing to check without one).
 * @throws PlanDriftError when the plan does not list `id`, or lists it with another config.
 */
export async function checkPlannedRun(
  reproduction: Reproduction,
  plan: ReadonlyMap<string, PlannedRun> | undefined,
  id: string,
  config: ExperimentConfig,
  scale: ReproductionScale,
): Promise<void> {
  if (plan === undefined) return;
  const planned = plan.get(id);
  if (planned === undefined)
    throw new PlanDriftError(
      `${reproduction.name}: ctx.run was asked for run ${JSON.stringify(id)}, which its plan does not list (plan: ${[...plan.keys()].map((k) => JSON.stringify(k)).join(', ')}); plan() must list every run run() asks for`,
    );
  const differs = await configDifferences({ ...planned.config, scale }, { ...config, scale });
  if (differs.length > 0)
    throw new PlanDriftError(
      `${reproduction.name}: ctx.run was asked for run ${JSON.stringify(id)} with another config than its plan lists (differs in ${differs.join(', ')}); plan() must build its configs as run() does`,
    );
}

/**
 * The planned runs a finished reproduction did not ask for (empty when it ran its whole plan). A run
 * of a seed group is excused when a run of its group did not run (runSeeds stops a group at the
 * first seed whose dataset is not available).
 */
export function unrunPlannedRuns(plan: ReadonlyMap<string, PlannedRun>, ran: ReadonlyMap<string, 'ran' | 'not run'>): string[] {
  const notRunGroups = new Set([...plan.values()].filter((p) => p.group !== undefined && ran.get(p.id) === 'not run').map((p) => p.group!));
  return [...plan.values()].filter((p) => !ran.has(p.id) && !(p.group !== undefined && notRunGroups.has(p.group))).map((p) => p.id);
}
