import { InvalidArgumentError } from '@mia/core';
import { trainingSeedOf, type ExperimentConfig } from '../schema/run-schema';
import { isNotRun, type RunOutcome, type RunSeedsOptions, type SeedRun } from './types';
import { pairIndex, pairedDifferenceDf, pairedDifferenceSe, pairedMetricKey, storedSe, type PairedMetric, type PairedSeTable } from '../run/paired-se';
import type { AttackRow, DefenseRow, ExperimentResults, RowSe, RunDoctor, SeedValues } from '../run/results';
import type { AuditFinding } from '@mia/attacks';
import { HEADLINE_METRICS } from '../run/headline-metrics';
import { satterthwaiteDf, type Estimate } from './verdicts';

/** A number combined over training seeds: the mean, its SE and the SE's degrees of freedom (docs/protocol.md §5.2). */
export interface SeedCombination {
  readonly value: number;
  readonly se: number;
  /**
   * Welch–Satterthwaite degrees of freedom of `se`: the seed spread s²/k has k − 1, the bootstrap term
   * is large-sample, so df = (k − 1)·(SE² / (s²/k))² — k − 1 when the seeds' spread dominates, large
   * when the evaluation examples' noise does. Infinity with one seed (a bootstrap SE).
   */
  readonly df: number;
}

/**
 * Combines one number measured with k training seeds on the same evaluation examples
 * (docs/protocol.md §5.2): the mean v̄ of the values v_s, and SE² = s²/k + mean(b_s²), s² the
 * between-seed sample variance and b_s the bootstrap SE of seed s. The bootstrap term is not divided
 * by k: the seeds share the evaluation examples, so their sampling errors do not average out (the
 * SE is conservative by at most the seeds' unshared evaluation noise). With k = 1: v and b. The
 * SE's degrees of freedom follow Welch–Satterthwaite (see {@link SeedCombination.df}), so decisions
 * on it use a Student-t critical value instead of a normal one.
 * @throws InvalidArgumentError when there is no value or the two arrays differ in length.
 */
export function combineSeeds(values: readonly number[], bootstrapSes: readonly number[]): SeedCombination {
  const k = values.length;
  if (k === 0) throw new InvalidArgumentError('combineSeeds: values must hold at least one value, got 0');
  if (bootstrapSes.length !== k) throw new InvalidArgumentError(`combineSeeds: bootstrapSes must have one SE per value (${k}), got ${bootstrapSes.length}`);
  const average = values.reduce((a, v) => a + v, 0) / k;
  if (k === 1) return { value: average, se: bootstrapSes[0]!, df: Infinity };
  const bootstrap = bootstrapSes.reduce((a, b) => a + b * b, 0) / k;
  const between = values.reduce((a, v) => a + (v - average) ** 2, 0) / (k - 1);
  const df = satterthwaiteDf([{ variance: between / k, df: k - 1 }, { variance: bootstrap }]);
  return { value: average, se: Math.sqrt(between / k + bootstrap), df };
}

/** The value of a {@link PairedMetric} (`'p1'`, `{ attack, which: 'advantage' }`, …) in a row; NaN when the row lacks it. */
export function rowValue(row: DefenseRow, metric: PairedMetric): number {
  if (typeof metric !== 'string') return row.attacks.find((x) => x.attack === metric.attack)?.[metric.which] ?? NaN;
  const value: unknown = row[metric];
  return typeof value === 'number' ? value : NaN;
}

/**
 * The {@link PairedMetric} a key of a stored table names (`pairedMetricKey`'s inverse, for the keys
 * of `results.json`): `adv:<attack>`, `auc:<attack>` or a headline number's name.
 * @throws InvalidArgumentError when the key names none of them.
 */
export function parsePairedMetricKey(key: string): PairedMetric {
  const colon = key.indexOf(':');
  if (colon < 0) {
    if ((HEADLINE_METRICS as readonly string[]).includes(key)) return key as (typeof HEADLINE_METRICS)[number];
  } else {
    const [prefix, attack] = [key.slice(0, colon), key.slice(colon + 1)];
    if (prefix === 'adv' || prefix === 'auc') return { attack, which: prefix === 'adv' ? 'advantage' : 'auc' };
  }
  throw new InvalidArgumentError(
    `parsePairedMetricKey: key must be one of ${HEADLINE_METRICS.join(', ')}, adv:<attack> or auc:<attack>, got ${JSON.stringify(key)}`,
  );
}

const HEADLINE = HEADLINE_METRICS;
const mean = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;

/** One seed's numbers of a row, for {@link DefenseRow.seeds}. */
const seedValues = (row: DefenseRow, trainingSeed: number): SeedValues => ({
  trainingSeed,
  ...(Object.fromEntries(HEADLINE.map((m) => [m, row[m]])) as Record<(typeof HEADLINE)[number], number>),
  attacks: Object.fromEntries(row.attacks.map((a) => [a.attack, { advantage: a.advantage, auc: a.auc }])),
});

/** The rows of one defense over seeds as one row: means, combined SEs and each seed's numbers. */
function aggregateRow(rows: readonly DefenseRow[], trainingSeeds: readonly number[]): DefenseRow {
  const first = rows[0]!;
  const attacks: AttackRow[] = first.attacks.map((a) => {
    const per = rows.map((r) => r.attacks.find((x) => x.attack === a.attack));
    const of = (pick: (x: AttackRow) => number) => mean(per.map((x) => (x === undefined ? NaN : pick(x))));
    return {
      ...a,
      accuracy: of((x) => x.accuracy),
      advantage: of((x) => x.advantage),
      auc: of((x) => x.auc),
      tprAtFpr: a.tprAtFpr.map((t, i) => ({
        fpr: t.fpr,
        tpr: of((x) => x.tprAtFpr[i]?.tpr ?? NaN),
        achievedFpr: of((x) => x.tprAtFpr[i]?.achievedFpr ?? NaN),
      })),
    };
  });
  const ses = rows.map((r) => r.se);
  const dfs: Record<string, number> = {};
  const combined = (metric: PairedMetric, se: (s: RowSe) => number | undefined) => {
    const c = combineSeeds(
      rows.map((r) => rowValue(r, metric)),
      ses.map((s) => (s === undefined ? NaN : (se(s) ?? NaN))),
    );
    if (Number.isFinite(c.df)) dfs[pairedMetricKey(metric)] = Number(c.df.toPrecision(4));
    return c.se;
  };
  const se: RowSe | undefined = ses.some((s) => s === undefined)
    ? undefined
    : {
        method: 'seeds+bootstrap',
        resamples: first.se!.resamples,
        ...(Object.fromEntries(HEADLINE.map((m) => [m, combined(m, (s) => s[m])])) as Record<(typeof HEADLINE)[number], number>),
        attacks: Object.fromEntries(
          first.attacks.map((a) => [
            a.attack,
            {
              advantage: combined({ attack: a.attack, which: 'advantage' }, (s) => s.attacks[a.attack]?.advantage),
              auc: combined({ attack: a.attack, which: 'auc' }, (s) => s.attacks[a.attack]?.auc),
            },
          ]),
        ),
        // Filled by the `combined` calls above (property values are evaluated in order).
        df: dfs,
      };
  const validation = rows.map((r) => r.validationAccuracy);
  const missed = (pick: (r: DefenseRow) => string) => rows.some((r) => pick(r) === 'miss');
  return {
    ...first,
    ...(Object.fromEntries(HEADLINE.map((m) => [m, mean(rows.map((r) => r[m]))])) as Record<(typeof HEADLINE)[number], number>),
    validationAccuracy: validation.some((v) => v === undefined) ? undefined : mean(validation as number[]),
    lossVariance: mean(rows.map((r) => r.lossVariance)),
    attacks,
    cache: {
      target: missed((r) => r.cache.target) ? 'miss' : 'hit',
      shadow: first.cache.shadow === 'none' ? 'none' : missed((r) => r.cache.shadow) ? 'miss' : 'hit',
    },
    trainSeconds: rows.reduce((t, r) => t + r.trainSeconds, 0),
    se,
    seeds: rows.map((r, s) => seedValues(r, trainingSeeds[s]!)),
  };
}

/** The paired table over seeds: per pair and metric, SE² = s_d²/k + mean(p_s²) of the per-seed differences d_s (§5.2). */
function aggregatePaired(runs: readonly ExperimentResults[]): PairedSeTable | undefined {
  const tables = runs.map((r) => r.pairedSe);
  if (tables.some((t) => t === undefined)) return undefined;
  const { rows, se } = tables[0]!;
  const n = rows.length;
  const combined: Record<string, Array<number | null>> = {};
  const dfs: Record<string, Array<number | null>> = {};
  for (const key of Object.keys(se)) {
    const metric = parsePairedMetricKey(key);
    const values: Array<number | null> = [];
    const df: Array<number | null> = [];
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const p = pairIndex(i, j, n);
        const d = runs.map((r) => rowValue(r.rows[i]!, metric) - rowValue(r.rows[j]!, metric));
        const ps = tables.map((t) => t!.se[key]?.[p] ?? null);
        const c = ps.some((x) => x === null) || d.some((x) => !Number.isFinite(x)) ? undefined : combineSeeds(d, ps as number[]);
        values[p] = c === undefined ? null : storedSe(c.se);
        df[p] = c === undefined || !Number.isFinite(c.df) ? null : Number(c.df.toPrecision(4));
      }
    }
    combined[key] = values;
    dfs[key] = df;
  }
  return { method: 'seeds+paired-bootstrap', resamples: tables[0]!.resamples, seeds: runs.length, rows, se: combined, df: dfs };
}

/**
 * One run's results over k training seeds (docs/protocol.md §5.2), in the shape of one run's so
 * table code reads it unchanged: each row carries the mean over seeds of every number, SEs combined
 * by {@link combineSeeds} (`se.method: 'seeds+bootstrap'`), and each seed's numbers (`row.seeds`);
 * `pairedSe` combines the seeds' paired differences the same way (read with `pairedDifferenceSe`).
 * ROC curves, loss histograms, training metrics and the per-record exposure are the first seed's
 * (for plots). With one run, returns that run itself.
 * @param runs - The results of one config trained with each training seed, in order.
 * @throws InvalidArgumentError when the runs differ in partition (so in evaluation examples) or rows,
 *   or the training seeds are not one distinct seed per run.
 */
export function aggregateSeeds(runs: readonly ExperimentResults[], trainingSeeds: readonly number[]): ExperimentResults {
  if (runs.length === 0) throw new InvalidArgumentError('aggregateSeeds: runs must hold at least one run, got 0');
  if (trainingSeeds.length !== runs.length)
    throw new InvalidArgumentError(`aggregateSeeds: trainingSeeds must have one seed per run (${runs.length}), got ${trainingSeeds.length}`);
  if (new Set(trainingSeeds).size !== trainingSeeds.length)
    throw new InvalidArgumentError(`aggregateSeeds: trainingSeeds must be distinct, got ${JSON.stringify(trainingSeeds)}`);
  const first = runs[0]!;
  if (runs.length === 1) return first;
  const { pairedSe: _single, ...rest } = first;
  const labels = JSON.stringify(first.rows.map((r) => r.label));
  runs.forEach((r, s) => {
    if (r.partition.digest !== first.partition.digest)
      throw new InvalidArgumentError(
        `aggregateSeeds: every run must use the same partition (digest ${first.partition.digest}), got ${r.partition.digest} in runs[${s}] (training seed ${trainingSeeds[s]})`,
      );
    if (JSON.stringify(r.rows.map((x) => x.label)) !== labels)
      throw new InvalidArgumentError(`aggregateSeeds: every run must have the rows ${labels}, got ${JSON.stringify(r.rows.map((x) => x.label))} in runs[${s}]`);
  });
  const pairedSe = aggregatePaired(runs);
  const warnings = runs.flatMap((r, s) => (r.warnings ?? []).map((w) => `training seed ${trainingSeeds[s]}: ${w}`));
  return {
    ...rest,
    seconds: runs.reduce((t, r) => t + r.seconds, 0),
    rows: first.rows.map((_, i) =>
      aggregateRow(
        runs.map((r) => r.rows[i]!),
        trainingSeeds,
      ),
    ),
    notes: [...new Set(runs.flatMap((r) => r.notes))],
    warnings,
    trainingSeeds: [...trainingSeeds],
    ...(pairedSe === undefined ? {} : { pairedSe }),
    ...mergeDoctors(runs, trainingSeeds),
  };
}

/**
 * The doctor of a seeds aggregate: every seed's findings (one finding per code and cause, naming the
 * training seeds it came from when not all), every note once, and the first seed's blind baseline
 * (the records are the same for every seed: the partition is). Absent when no run has a doctor.
 */
function mergeDoctors(runs: readonly ExperimentResults[], trainingSeeds: readonly number[]): { doctor?: RunDoctor } {
  if (runs.every((r) => r.doctor === undefined)) return {};
  const bySeeds = new Map<string, { finding: AuditFinding; seeds: number[] }>();
  runs.forEach((r, s) => {
    for (const finding of r.doctor?.findings ?? []) {
      const key = `${finding.code}\u0000${finding.cause}`;
      const entry = bySeeds.get(key) ?? { finding, seeds: [] };
      entry.seeds.push(trainingSeeds[s]!);
      bySeeds.set(key, entry);
    }
  });
  const findings = [...bySeeds.values()].map(({ finding, seeds }) =>
    seeds.length === runs.length ? finding : { ...finding, cause: `training seed${seeds.length > 1 ? 's' : ''} ${seeds.join(', ')}: ${finding.cause}` },
  );
  const missing = trainingSeeds.filter((_, s) => runs[s]!.doctor === undefined);
  const baseline = runs.find((r) => r.doctor?.baseline !== undefined)?.doctor?.baseline;
  return {
    doctor: {
      ...(baseline === undefined ? {} : { baseline }),
      findings,
      notes: [
        ...new Set(runs.flatMap((r) => r.doctor?.notes ?? [])),
        ...(missing.length > 0
          ? [`training seed${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: results without a doctor (written before it), not checked`]
          : []),
      ],
    },
  };
}

/**
 * Two rows' numbers as estimates whose `compareEstimates` margin uses the paired SE of their
 * difference (docs/protocol.md §5.2): `a` carries the paired SE (and its degrees of freedom) and `b`
 * an SE of 0, so `sqrt(a.se² + b.se²)` is the paired SE. `seSource` is 'seeds' for a `runSeeds` aggregate, else
 * 'bootstrap' (one training seed). Undefined when the results have no paired SEs.
 */
export function pairedEstimates(
  results: ExperimentResults,
  rowA: string,
  rowB: string,
  metric: PairedMetric,
): { readonly a: Estimate; readonly b: Estimate } | undefined {
  const se = pairedDifferenceSe(results, rowA, rowB, metric);
  if (se === undefined) return undefined;
  const value = (label: string) =>
    rowValue(
      results.rows.find((r) => r.label === label)!,
      metric,
    );
  const seSource = results.pairedSe!.method === 'seeds+paired-bootstrap' ? 'seeds' : 'bootstrap';
  const df = pairedDifferenceDf(results, rowA, rowB, metric);
  return { a: { value: value(rowA), se, seSource, ...(Number.isFinite(df) ? { df } : {}) }, b: { value: value(rowB), se: 0, seSource } };
}

/**
 * The runs of a group of k training seeds, as {@link runSeeds} makes them: seeds s0 … s0 + k − 1
 * (s0 = the config's `trainingSeed`, else `seed`); the first is `config` itself under `id` (so its
 * cache entries are the single-seed run's), the others `<id>-seed-<s>` with that `trainingSeed`.
 * @throws InvalidArgumentError when `k` is not a positive integer.
 */
export function seedRuns(id: string, config: ExperimentConfig, k: number): SeedRun[] {
  if (!Number.isInteger(k) || k < 1) throw new InvalidArgumentError(`runSeeds: k must be a positive integer, got ${String(k)}`);
  const s0 = trainingSeedOf(config);
  return Array.from({ length: k }, (_, j) => ({ id: j === 0 ? id : `${id}-seed-${s0 + j}`, config: configForSeed(config, s0 + j), trainingSeed: s0 + j }));
}

/**
 * `config` trained with `trainingSeed`: the config itself when that is already its training seed
 * (the first seed of a group), else a copy with `trainingSeed` set — the model a seed's run trained.
 */
export function configForSeed(config: ExperimentConfig, trainingSeed: number): ExperimentConfig {
  return trainingSeed === trainingSeedOf(config) ? config : { ...config, trainingSeed };
}

/**
 * {@link ReproductionContext.runSeeds} over a context's `run`: runs `config` with training seeds
 * s0 … s0 + k − 1 (s0 = its `trainingSeed`, else `seed`) on the same partition and aggregates them
 * ({@link aggregateSeeds}). The first seed is the config itself, so its run (and cache entries) are
 * the single-seed run's; the others run as `<id>-seed-<s>`. k = 1 returns the single run. A seed
 * that did not run makes the whole outcome not run.
 * @param options.concurrent - start every seed's run at once (when the units train elsewhere, e.g.
 *   on queue workers, so all of them are queued together); the outcome is the same. @default false
 * @param options.onRun - see {@link RunSeedsOptions.onRun}.
 * @throws InvalidArgumentError when `k` is not a positive integer.
 */
export async function runSeeds(
  run: (id: string, config: ExperimentConfig) => Promise<RunOutcome>,
  id: string,
  config: ExperimentConfig,
  k: number,
  options: RunSeedsOptions & { readonly concurrent?: boolean } = {},
): Promise<RunOutcome> {
  const runs = seedRuns(id, config, k);
  const seeds = runs.map((r) => r.trainingSeed);
  const runOne = async (j: number) => {
    const outcome = await run(runs[j]!.id, runs[j]!.config);
    await options.onRun?.(runs[j]!, outcome);
    return outcome;
  };
  const outcomes: RunOutcome[] = [];
  if (options.concurrent === true) outcomes.push(...(await Promise.all(seeds.map((_, j) => runOne(j)))));
  else
    for (const j of seeds.keys()) {
      const outcome = await runOne(j);
      outcomes.push(outcome);
      if (isNotRun(outcome)) break;
    }
  const notRun = outcomes.find(isNotRun);
  if (notRun !== undefined) return notRun;
  return k === 1 ? outcomes[0]! : aggregateSeeds(outcomes as ExperimentResults[], seeds);
}
