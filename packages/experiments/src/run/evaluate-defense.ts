import { deriveSeed } from '@mia/core';
import { concatSignals, type AttackResult } from '@mia/attacks';
import type { ArtifactStore } from '../store/artifact-store';
import { attackConfigOf, trainingSeedOf, type AttackEntry } from '../schema/run-schema';
import type { DefensePlan, RunPlan } from '../plan/plan-run';
import { trainUnit, type TrainUnitOptions, type UnitSignals } from '../train/train-unit';
import type { RunReferences } from '../references/reference-signals';
import type { AttackQuerySet, AttackReferences } from '../attacks/definition';
import { createAttacks, findAttack } from '../attacks/registry';
import { attackCacheOptions, runCachedAttackSuite, type CachedAttackSuiteOptions } from '../attacks/cached-attack-suite';
import { targetPopulationSignals } from '../attacks/population-signals';
import { unitQuerySignals } from '../attacks/query-signals';
import { attackRecords, runNeedsRecords } from '../attacks/attack-records';
import { defenseRow, rowBootstrapInput } from './defense-row';
import type { PairedRowInput } from './paired-se';
import type { DefenseRow } from './results';
import { rowExposure, type RowRecords } from './row-exposure';
import { brokenDpWarning, divergenceWarning, learningRateKnobs } from './warnings';

/** What evaluating one defense reads besides its plan: the store, the run's references, what this run trained. */
export interface EvaluationContext {
  readonly store: ArtifactStore;
  readonly references: RunReferences | undefined;
  /** Keys of the units this run trained (their rows say trained, not cached). */
  readonly trainedHere: ReadonlySet<string>;
  readonly onLog?: ((line: string) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** One defense's row, its input to the paired bootstrap, its records' exposure, and its warnings. */
export interface DefenseEvaluation {
  readonly row: DefenseRow;
  readonly paired: PairedRowInput;
  readonly records: RowRecords | undefined;
  readonly warnings: ReadonlyArray<string | undefined>;
}

/**
 * Evaluates one defense of a run whose units are in the store: reads its target and shadows, runs the
 * attack suite (docs/protocol.md §3) and the augmentation attacks, and measures utility, loss gap,
 * loss variance, P1 and each record's exposure (§5).
 */
export async function evaluateDefense(plan: RunPlan, defense: DefensePlan, ctx: EvaluationContext): Promise<DefenseEvaluation> {
  const { target, shadows } = await readUnits(plan, defense, ctx);
  const shadow = shadows.length === 0 ? undefined : poolShadows(shadows);
  const learningRates = learningRateKnobs(defense.defense, plan.config.training);
  const warnings = [
    divergenceWarning(`${defense.label} target`, target.members, learningRates),
    ...shadows.map((u, k) => divergenceWarning(`${defense.label} ${defense.shadows[k]!.role}`, u.members, learningRates)),
  ];
  const results = await runAttacks(plan, defense, target, shadow, ctx);
  const { memberIdx, nonMemberIdx } = defense.target;
  const exposed = rowExposure({
    label: defense.label,
    members: target.members,
    nonMembers: target.nonMembers,
    memberIndex: memberIdx,
    nonMemberIndex: nonMemberIdx,
    attacks: results,
  });
  const row = {
    ...defenseRow(plan.config, defense.defense, target, shadow, results),
    ...(exposed.exposure === undefined ? {} : { exposure: exposed.exposure }),
  };
  ctx.onLog?.(rowLine(row));
  return {
    row,
    paired: { label: row.label, input: rowBootstrapInput(target, results) },
    records: exposed.records,
    warnings: [...warnings, exposed.warning, brokenDpWarning(row)],
  };
}

/** The defense's target and shadows from the store (each marked trained when this run trained it). */
async function readUnits(plan: RunPlan, defense: DefensePlan, ctx: EvaluationContext): Promise<{ target: UnitSignals; shadows: UnitSignals[] }> {
  const run = { config: plan.config, data: plan.data, store: ctx.store };
  const options = (key: string): TrainUnitOptions => ({ onLog: ctx.onLog, signal: ctx.signal, trainedHere: ctx.trainedHere.has(key) });
  const target = await trainUnit(defense.target, run, options(defense.target.key));
  const shadows: UnitSignals[] = [];
  for (const unit of defense.shadows) shadows.push(await trainUnit(unit, run, options(unit.key)));
  return { target, shadows };
}

/** The attack suite on the target (calibrated on the pooled shadow when an attack needs it), then the augmentation attacks. */
async function runAttacks(
  plan: RunPlan,
  defense: DefensePlan,
  target: UnitSignals,
  shadow: UnitSignals | undefined,
  ctx: EvaluationContext,
): Promise<AttackResult[]> {
  const { config } = plan;
  // The attack models train with the training seed: their randomness is part of a seed's spread (§5.2).
  const attackSeed = deriveSeed(trainingSeedOf(config), 'attack');
  const attackOptions = { seed: attackSeed, nnEpochs: config.scale === 'smoke' ? 5 : undefined };
  // The records (QMIA's features, label queries of the boundary-distance attack): only for a run with such an attack.
  const records = runNeedsRecords(plan) ? attackRecords(plan, defense, ctx.store, ctx.onLog) : undefined;
  const create = {
    seed: attackSeed,
    scale: config.scale,
    ...(await attackReferences(plan, defense, ctx)),
    ...(records === undefined ? {} : { records: records.records }),
  };
  const attacks = createAttacks(
    config.attacks.filter((a) => queriesOf(a) === undefined),
    create,
  );
  // Trained attacks (NN) are cached like the models: a rerun on cached units does not retrain them.
  const cache = attackCacheOptions(plan, defense, ctx.store, attackOptions, ctx.onLog, ctx.signal);
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
          cache,
        ).finally(() => {
          attacks.forEach((a) => a.dispose?.());
          records?.dispose();
        });
  const results = [...(suite?.attacks ?? [])];
  // Augmentation attacks (docs/protocol.md §3.3): their own suite on signals with the attack's queries.
  for (const entry of shadow === undefined ? [] : config.attacks.filter((a) => queriesOf(a) !== undefined))
    results.push(
      ...(await augmentationAttack(plan, defense, entry, { target, shadow: shadow!, create, cache: { ...cache, attackOptions: { seed: attackSeed } } }, ctx)),
    );
  return results;
}

/** The run's references for the attacks, with the target's population signals when an attack needs them. */
async function attackReferences(plan: RunPlan, defense: DefensePlan, ctx: EvaluationContext): Promise<{ references?: AttackReferences }> {
  const { references } = ctx;
  if (references === undefined) return {};
  const needsPopulation = plan.config.attacks.some((a) => findAttack(attackConfigOf(a).name)?.needs.population === true);
  if (!needsPopulation) return { references };
  return { references: { ...references, targetPopulation: await targetPopulationSignals(plan, defense.target, references.population, ctx.store, ctx.onLog) } };
}

/** One augmentation attack (rotation or translation queries) on the target, fitted on the pooled shadows' queries. */
async function augmentationAttack(
  plan: RunPlan,
  defense: DefensePlan,
  entry: AttackEntry,
  on: { target: UnitSignals; shadow: UnitSignals; create: Parameters<typeof createAttacks>[1]; cache: CachedAttackSuiteOptions },
  ctx: EvaluationContext,
): Promise<AttackResult[]> {
  const queries = queriesOf(entry)!;
  const tq = await unitQuerySignals(plan, defense.target, queries, ctx.store, ctx.onLog);
  const per = [];
  for (const unit of defense.shadows) per.push(await unitQuerySignals(plan, unit, queries, ctx.store, ctx.onLog));
  const sq = { members: poolQueries(per.map((q) => q.members)), nonMembers: poolQueries(per.map((q) => q.nonMembers)) };
  const { target, shadow } = on;
  const augmentation = createAttacks([entry], on.create);
  const augmented = await runCachedAttackSuite(
    {
      target: { members: { ...target.members, queries: tq.members }, nonMembers: { ...target.nonMembers, queries: tq.nonMembers } },
      shadow: { members: { ...shadow.members, queries: sq.members }, nonMembers: { ...shadow.nonMembers, queries: sq.nonMembers } },
      attacks: augmentation,
    },
    on.cache,
  ).finally(() => augmentation.forEach((a) => a.dispose?.()));
  return [...augmented.attacks];
}

/** The query set an attack entry's attack needs (the augmentation attacks'), or undefined. */
const queriesOf = (entry: AttackEntry): AttackQuerySet | undefined => findAttack(attackConfigOf(entry).name)?.needs.queries;

/** The progress line of an evaluated row. */
function rowLine(row: DefenseRow): string {
  const best = row.attacks.length === 0 ? undefined : row.attacks.reduce((a, b) => (b.advantage > a.advantage ? b : a));
  return best === undefined
    ? `evaluated  ${row.label}: test acc ${(100 * row.testAccuracy).toFixed(1)}% (no attacks in this run)`
    : `attacked   ${row.label}: test acc ${(100 * row.testAccuracy).toFixed(1)}%, max advantage ${(100 * row.maxAdvantage).toFixed(1)}% (${best.attack})`;
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
