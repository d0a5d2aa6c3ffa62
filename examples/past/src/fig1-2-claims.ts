import { combineSeeds, compareEstimates, decidedClaim, type Claim, type Estimate } from '@mia/experiments/reproduce';
import { TUNING_CONTROL } from './table1';

/** The claims of Fig. 1b / 2 / 13a (PAST §3.1–3.2, App. F.1). */
export const FIG12_STATEMENTS = {
  top20:
    'Fig. 1b: only a small fraction of parameters carries the privacy sensitivity — the top 20 % of parameters hold ≥ 80 % of the cumulative sensitivity (our criterion: a Pareto-style bound; the paper reports 89.27 % on ResNet-18), over the training seeds',
  gini: 'Fig. 2b: the (shifted) Gini index keeps decreasing during PAST tuning',
  lossGap: `Fig. 2c: PAST tuning reduces the loss gap — loss gap(PAST) < loss gap(${TUNING_CONTROL}), the same tuning without the penalty`,
  nearZero: `Fig. 2a: after PAST more weights lie near 0 than after the same tuning without the penalty (share |w| < 0.01, PAST vs ${TUNING_CONTROL}, paired per training seed)`,
  fc: `Fig. 13a: PAST lowers the mean sensitivity of the last dense layer (×10⁻³; paper 22.3 → 8.8), against ${TUNING_CONTROL}, paired per training seed`,
} as const;

/** What one trained model of Fig. 1b / 2 measures. */
export interface ModelNumbers {
  /** Share of the total sensitivity held by the top 20 % of the parameters. */
  readonly topShare: number;
  /** Number of parameters the sensitivity covers. */
  readonly parameters: number;
  /** Share of all trainable parameters with |w| < 0.01. */
  readonly nearZero: number;
  /** Number of trainable parameters. */
  readonly weights: number;
  /** Mean sensitivity of the last dense layer, ×1000, and its sample SE over that layer's parameters. */
  readonly fc: number;
  readonly fcSe: number;
}

/** The undefended, PAST and λ = 0 control models of one training seed (Table 1's CIFAR-10 run of that seed). */
export interface SeedNumbers {
  readonly trainingSeed: number;
  readonly before: ModelNumbers;
  readonly after: ModelNumbers;
  readonly control: ModelNumbers;
}

const mean = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;

/**
 * A number measured once per trained model, over the training seeds (docs/protocol.md §5.2): the
 * mean and the SE of the seeds' spread (`combineSeeds` with no evaluation-sample term: each value is
 * a property of one model's parameters), with k − 1 degrees of freedom.
 */
function overSeeds(values: readonly number[]): Estimate {
  const c = combineSeeds(
    values,
    values.map(() => 0),
  );
  return { value: c.value, se: c.se, seSource: 'seeds', df: c.df };
}

const share = (p: number, n: number): Estimate => ({ value: p, se: Math.sqrt(Math.max(p * (1 - p), 1 / n) / n), seSource: 'parameters' });

/**
 * "A − B in `direction`", paired per training seed: with k ≥ 2 seeds, the mean difference and the
 * SE of the per-seed differences' spread (k − 1 degrees of freedom); with one seed only the SE over
 * the parameters of that one model exists, which `compareEstimates` shows without deciding
 * (pseudo-replication, docs/protocol.md §5.1).
 */
function pairedOverSeeds(
  statement: string,
  seeds: readonly SeedNumbers[],
  pick: (m: ModelNumbers) => number,
  single: (m: ModelNumbers) => Estimate,
  direction: 'greater' | 'less',
  format: 'num' | 'pct',
): Claim {
  const labels: [string, string] = ['PAST', TUNING_CONTROL];
  if (seeds.length < 2) return decidedClaim(statement, compareEstimates(single(seeds[0]!.after), single(seeds[0]!.control), { direction, format, labels }));
  const d = overSeeds(seeds.map((s) => pick(s.after) - pick(s.control)));
  return decidedClaim(
    statement,
    compareEstimates(
      { value: mean(seeds.map((s) => pick(s.after))), seSource: 'seeds' },
      { value: mean(seeds.map((s) => pick(s.control))), seSource: 'seeds' },
      {
        direction,
        format,
        labels,
        differenceSe: d.se!,
        differenceSeSource: `the spread of the per-seed differences over ${seeds.length} training seeds`,
        differenceDf: d.df!,
      },
    ),
  );
}

/**
 * Fig. 1b's concentration claim and Fig. 2a's and 13a's PAST-vs-control comparisons, over the
 * training seeds of Table 1's CIFAR-10 models (one undefended, PAST and control model per seed). A
 * number of one model's parameters has no sampling error of its own; the training seeds give it one.
 * With a single seed the claims are shown, not decided.
 * @throws Error when `seeds` is empty.
 */
export function fig12SeedClaims(seeds: readonly SeedNumbers[]): { top20: Claim; nearZero: Claim; fc: Claim } {
  if (seeds.length === 0) throw new Error('fig12SeedClaims: seeds must hold at least one training seed, got 0');
  const bound: Estimate = { value: 0.8, se: 0 };
  const top = seeds.length < 2 ? share(seeds[0]!.before.topShare, seeds[0]!.before.parameters) : overSeeds(seeds.map((s) => s.before.topShare));
  return {
    top20: decidedClaim(FIG12_STATEMENTS.top20, compareEstimates(top, bound, { direction: 'greater', format: 'pct', labels: ['top 20 % share', 'bound'] })),
    nearZero: pairedOverSeeds(
      FIG12_STATEMENTS.nearZero,
      seeds,
      (m) => m.nearZero,
      (m) => share(m.nearZero, m.weights),
      'greater',
      'pct',
    ),
    fc: pairedOverSeeds(
      FIG12_STATEMENTS.fc,
      seeds,
      (m) => m.fc,
      (m) => ({ value: m.fc, se: m.fcSe, seSource: 'parameters' }),
      'less',
      'num',
    ),
  };
}
