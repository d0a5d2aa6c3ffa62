import { pairedMetricKey, type PairedMetric } from '../run/paired-se';
import type { DefenseRow, ExperimentResults, SeedValues } from '../run/results';
import type { HeadlineMetric } from '../run/headline-metrics';
import type { Estimate } from './verdicts';

/** A number of a row with its standard error, usable as `metricTable`'s `metric` (cells then carry the SE). */
export interface RowMetric {
  readonly name: string;
  estimate(row: DefenseRow, results: ExperimentResults): Estimate;
  /**
   * The number with one training seed of a `runSeeds` aggregate (`DefenseRow.seeds`), so tables show
   * each seed's value beside the mean (docs/protocol.md §5.2); absent for numbers seeds do not keep.
   */
  seedValue?(seed: SeedValues): number;
}

/** The evaluation set sizes of a run: members (target_train) and non-members (target_test). */
function sizes(results: ExperimentResults): { members: number; nonMembers: number } {
  const s = results.partition.sizes;
  return { members: s.target_train ?? s.train ?? NaN, nonMembers: s.target_test ?? s.test ?? NaN };
}

const binomial = (p: number, n: number) => Math.sqrt(Math.max(0, p * (1 - p)) / n);

/** Binomial SE of TPR − FPR with both rates near the balanced accuracy b = (1 + adv)/2: sqrt(b(1−b)(1/nM + 1/nN)). */
export const binomialAdvantageSe = (advantage: number, members: number, nonMembers: number): number => {
  const b = (1 + advantage) / 2;
  return Math.sqrt(Math.max(0, b * (1 - b)) * (1 / members + 1 / nonMembers));
};

/** Hanley & McNeil (1982) SE of an AUC from the two set sizes. */
export function hanleyMcNeilSe(auc: number, members: number, nonMembers: number): number {
  const q1 = auc / (2 - auc);
  const q2 = (2 * auc * auc) / (1 + auc);
  return Math.sqrt(Math.max(0, (auc * (1 - auc) + (members - 1) * (q1 - auc * auc) + (nonMembers - 1) * (q2 - auc * auc)) / (members * nonMembers)));
}

/** Delta-method SE of P1 = 2·acc·(1 − adv)/(acc + 1 − adv) from independent SEs of acc and adv. */
export function p1DeltaSe(acc: number, adv: number, seAcc: number, seAdv: number): number {
  const d = (acc + 1 - adv) ** 2;
  const dAcc = (2 * (1 - adv) ** 2) / d;
  const dAdv = (-2 * acc * acc) / d;
  return Math.sqrt((dAcc * seAcc) ** 2 + (dAdv * seAdv) ** 2);
}

/** A row's own SE source: 'seeds' for a `runSeeds` aggregate (seeds combined with the bootstrap, §5.2), else 'bootstrap'. */
const rowSeSource = (row: DefenseRow): 'seeds' | 'bootstrap' => (row.se?.method === 'seeds+bootstrap' ? 'seeds' : 'bootstrap');

/** The degrees of freedom a `runSeeds` aggregate recorded for a metric's SE (absent: large-sample). */
const dfOf = (row: DefenseRow, metric: PairedMetric): { df?: number } => {
  const df = row.se?.df?.[pairedMetricKey(metric)];
  return df === undefined ? {} : { df };
};

const fromBootstrap = (row: DefenseRow, value: number, se: number | undefined, metric: PairedMetric): Estimate | undefined =>
  se === undefined ? undefined : { value, se, seSource: rowSeSource(row), ...dfOf(row, metric) };

/**
 * The row metrics with standard errors (docs/protocol.md §5.1): the runner's bootstrap SE when the
 * row has one (`DefenseRow.se`; in a `runSeeds` aggregate the seeds combined with the bootstrap,
 * marked `seSource: 'seeds'`, §5.2), else a binomial approximation `sqrt(p(1−p)/n)` from the partition
 * sizes (Hanley–McNeil for an AUC, the delta method for P1), marked `seSource: 'binomial'`. The loss
 * gap has no approximation: without a bootstrap SE it has none.
 */
export const rowMetrics = {
  testAccuracy: {
    seedValue: (seed) => seed.testAccuracy,
    name: 'test accuracy',
    estimate: (row, results) =>
      fromBootstrap(row, row.testAccuracy, row.se?.testAccuracy, 'testAccuracy') ?? {
        value: row.testAccuracy,
        se: binomial(row.testAccuracy, sizes(results).nonMembers),
        seSource: 'binomial',
      },
  },
  trainAccuracy: {
    seedValue: (seed) => seed.trainAccuracy,
    name: 'train accuracy',
    estimate: (row, results) =>
      fromBootstrap(row, row.trainAccuracy, row.se?.trainAccuracy, 'trainAccuracy') ?? {
        value: row.trainAccuracy,
        se: binomial(row.trainAccuracy, sizes(results).members),
        seSource: 'binomial',
      },
  },
  maxAdvantage: {
    seedValue: (seed) => seed.maxAdvantage,
    name: 'max advantage',
    estimate: (row, results) => {
      const n = sizes(results);
      return (
        fromBootstrap(row, row.maxAdvantage, row.se?.maxAdvantage, 'maxAdvantage') ?? {
          value: row.maxAdvantage,
          se: binomialAdvantageSe(row.maxAdvantage, n.members, n.nonMembers),
          seSource: 'binomial',
        }
      );
    },
  },
  p1: {
    seedValue: (seed) => seed.p1,
    name: 'P1',
    estimate: (row, results) => {
      if (row.se !== undefined) return { value: row.p1, se: row.se.p1, seSource: rowSeSource(row), ...dfOf(row, 'p1') };
      const n = sizes(results);
      const se = p1DeltaSe(
        row.testAccuracy,
        row.maxAdvantage,
        binomial(row.testAccuracy, n.nonMembers),
        binomialAdvantageSe(row.maxAdvantage, n.members, n.nonMembers),
      );
      return { value: row.p1, se, seSource: 'binomial' };
    },
  },
  lossGap: {
    seedValue: (seed) => seed.lossGap,
    name: 'loss gap',
    estimate: (row) => fromBootstrap(row, row.lossGap, row.se?.lossGap, 'lossGap') ?? { value: row.lossGap },
  },
} as const satisfies Record<HeadlineMetric, RowMetric>;

/** An attack's advantage (or AUC) as a {@link RowMetric}; NaN value when the row has no such attack. */
export function attackMetric(attack: string, which: 'advantage' | 'auc'): RowMetric {
  return {
    name: `${attack} ${which}`,
    seedValue: (seed) => seed.attacks[attack]?.[which] ?? NaN,
    estimate(row, results) {
      const a = row.attacks.find((x) => x.attack === attack);
      if (a === undefined) return { value: NaN };
      const value = a[which];
      const boot = row.se?.attacks[attack]?.[which];
      if (boot !== undefined) return { value, se: boot, seSource: rowSeSource(row), ...dfOf(row, { attack, which }) };
      const n = sizes(results);
      return {
        value,
        se: which === 'auc' ? hanleyMcNeilSe(value, n.members, n.nonMembers) : binomialAdvantageSe(value, n.members, n.nonMembers),
        seSource: 'binomial',
      };
    },
  };
}

/**
 * The mean advantage over a row's attacks (or the given ones). Its SE is the mean of the attacks'
 * SEs — an upper bound, since the attacks' advantages are positively correlated on the same examples.
 */
export function averageAdvantageMetric(attacks?: readonly string[]): RowMetric {
  return {
    name: 'average advantage',
    estimate(row, results) {
      const chosen = row.attacks.filter((a) => attacks === undefined || attacks.includes(a.attack));
      if (chosen.length === 0) return { value: NaN };
      const parts = chosen.map((a) => attackMetric(a.attack, 'advantage').estimate(row, results));
      const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
      return { value: mean(parts.map((p) => p.value)), se: mean(parts.map((p) => p.se ?? NaN)), seSource: parts[0]!.seSource ?? 'binomial' };
    },
  };
}
