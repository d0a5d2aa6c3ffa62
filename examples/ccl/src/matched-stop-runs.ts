import type { ExperimentConfig, ExperimentResults } from '@mia/experiments';
import { aggregateSeeds, configForSeed, isNotRun, seedRuns, type ReproductionContext, type RunOutcome } from '@mia/experiments/reproduce';
import { matchedStopOf, type MatchedStop } from './matched-stop';

/** What {@link runWithMatchedStops} returns: the seeds' aggregate and, per seed, the stop its control used. */
export interface MatchedStopRuns {
  readonly outcome: RunOutcome;
  /** One phrase per training seed: its stop epoch and the validation accuracies it matched. */
  readonly stops: readonly string[];
  /** The stop of each training seed (undefined: that seed's selection recorded no curve, so its config has no control). */
  readonly bySeed: ReadonlyMap<number, MatchedStop | undefined>;
}

const pct = (v: number) => `${(100 * v).toFixed(1)} %`;

/** The run id of a seed's selection pass: `<dataset>-selection` for the first seed (the single-seed run's), `<dataset>-selection-seed-<s>` after it. */
export const selectionRunId = (dataset: string, trainingSeed: number, first: boolean): string =>
  first ? `${dataset}-selection` : `${dataset}-selection-seed-${trainingSeed}`;

/**
 * Table 1's runs of one dataset with k training seeds, each seed's early-stopping control matched on
 * its own seed (docs/protocol.md §5.2, A11): for training seed s, a selection pass trains the
 * undefended and CCQL targets alone with seed s (no shadows, no attacks; the full run finds them in
 * the cache), the control's epoch is read off seed s's undefended validation curve against seed s's
 * CCQL validation accuracy ({@link matchedStopOf}), and seed s's full run trains its control with that
 * epoch. Run ids are `runSeeds`' (`<dataset>`, then `<dataset>-seed-<s>`); the outcome is the seeds'
 * `aggregateSeeds`, or the first seed's {@link RunOutcome} when it did not run (or k = 1). With
 * `ctx.parallelRuns` the seeds run side by side.
 * @param configOf - the full config of the dataset with the control stopped at `stop` (no control without one).
 */
export async function runWithMatchedStops(
  ctx: ReproductionContext,
  dataset: string,
  configOf: (stop?: MatchedStop) => ExperimentConfig,
  k: number,
): Promise<MatchedStopRuns> {
  const full = configOf();
  const selectionConfig: ExperimentConfig = {
    ...full,
    name: `${full.name}-selection`,
    defenses: full.defenses.filter((d) => d.label === 'w/o' || d.label === 'CCQL'),
    attacks: [],
  };
  const plan = seedRuns(dataset, full, k);
  const bySeed = new Map<number, MatchedStop | undefined>();
  const one = async (j: number): Promise<RunOutcome> => {
    const { id, trainingSeed } = plan[j]!;
    const selection = await ctx.run(selectionRunId(dataset, trainingSeed, j === 0), configForSeed(selectionConfig, trainingSeed));
    if (isNotRun(selection)) return selection;
    const stop = matchedStopOf(selection, 'w/o', 'CCQL');
    bySeed.set(trainingSeed, stop);
    return ctx.run(id, configForSeed(configOf(stop), trainingSeed));
  };
  const outcomes: RunOutcome[] = [];
  if (ctx.parallelRuns === true) outcomes.push(...(await Promise.all(plan.map((_, j) => one(j)))));
  else
    for (const j of plan.keys()) {
      const outcome = await one(j);
      outcomes.push(outcome);
      if (isNotRun(outcome)) break;
    }
  const stops = plan.flatMap(({ trainingSeed }) => {
    if (!bySeed.has(trainingSeed)) return [];
    const stop = bySeed.get(trainingSeed);
    const seed = k > 1 ? `training seed ${trainingSeed}: ` : '';
    return [
      stop === undefined
        ? `${seed}no validation curve, no control`
        : `${seed}epoch ${stop.epoch} (w/o validation ${pct(stop.accuracy)} vs CCQL's ${pct(stop.target)})`,
    ];
  });
  const notRun = outcomes.find(isNotRun);
  if (notRun !== undefined) return { outcome: notRun, stops, bySeed };
  const outcome =
    k === 1
      ? outcomes[0]!
      : aggregateSeeds(
          outcomes as ExperimentResults[],
          plan.map((r) => r.trainingSeed),
        );
  return { outcome, stops, bySeed };
}
