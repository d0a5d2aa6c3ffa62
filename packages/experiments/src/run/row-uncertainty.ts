import { p1Score, stratifiedBootstrapSe, weightedMean, weightedScores, type StratifiedResample } from '@mia/metrics';

/** Bootstrap standard errors of a row's numbers (docs/protocol.md §5), stored as `DefenseRow.se`. */
export interface RowSe {
  /**
   * How they were computed: `bootstrap`, stratified bootstrap over the target's evaluation examples
   * (one training seed); `seeds+bootstrap`, the spread over training seeds combined with the
   * bootstrap (a `runSeeds` aggregate, docs/protocol.md §5.2).
   */
  readonly method: 'bootstrap' | 'seeds+bootstrap';
  readonly resamples: number;
  readonly trainAccuracy: number;
  readonly testAccuracy: number;
  readonly lossGap: number;
  /** SE of the advantage of the attack that reached the max advantage (selection fixed, see {@link rowUncertainty}). */
  readonly maxAdvantage: number;
  /** SE of P1, test accuracy and the best attack's advantage taken from the same resample. */
  readonly p1: number;
  /** Per attack (by name): SE of its advantage and AUC. */
  readonly attacks: Readonly<Record<string, { readonly advantage: number; readonly auc: number }>>;
  /**
   * `seeds+bootstrap` only: the Welch–Satterthwaite degrees of freedom of each SE above, by metric key
   * (`trainAccuracy`, …, `p1`, `adv:<attack>`, `auc:<attack>`; docs/protocol.md §5.2). Absent:
   * large-sample SEs (bootstrap over the evaluation examples).
   */
  readonly df?: Readonly<Record<string, number>>;
}

/** One attack's outputs on the target's members then non-members, as `runAttackSuite` returns them. */
export interface AttackScores {
  readonly name: string;
  readonly scores: Float64Array;
  /** The attack's own 0/1 decisions; absent when its advantage is the best threshold on the target ROC. */
  readonly decisions?: Uint8Array;
}

/** What {@link rowUncertainty} resamples. */
export interface RowUncertaintyInput {
  /** Per member and per non-member of the target: 1 when the model classifies it correctly. */
  readonly membersCorrect: ArrayLike<number>;
  readonly nonMembersCorrect: ArrayLike<number>;
  readonly membersLoss: ArrayLike<number>;
  readonly nonMembersLoss: ArrayLike<number>;
  readonly attacks: readonly AttackScores[];
  /** Name of the attack whose advantage is the row's max advantage. */
  readonly best: string;
  readonly seed: number;
  /** @default 200 */
  readonly resamples?: number;
}

/**
 * Stratified bootstrap standard errors (members and non-members resampled separately, ~200
 * resamples, seeded) of a row's train and test accuracy, loss gap, each attack's advantage and AUC,
 * the max advantage and P1 (docs/protocol.md §5). An attack with its own decision rule (a threshold
 * fitted on shadow data, an NN's argmax) keeps its decisions fixed: its resampled advantage is
 * TPR − FPR of those decisions. An attack without one (its advantage is the best threshold on the
 * target ROC) gets the threshold re-chosen in every resample. The max advantage's SE is that of the
 * attack selected on the full data (the selection is not repeated per resample), clipped at 0 as
 * the max advantage is; P1's SE resamples test accuracy and that advantage jointly.
 * @throws MetricsError when the attack scores do not cover every member and non-member.
 */
export function rowUncertainty(input: RowUncertaintyInput): RowSe {
  const resamples = input.resamples ?? 200;
  const { prepared, statistics } = rowStatistics(input);
  const se = stratifiedBootstrapSe(input.membersCorrect.length, input.nonMembersCorrect.length, statistics, { resamples, seed: input.seed });
  return {
    method: 'bootstrap',
    resamples,
    trainAccuracy: se.trainAccuracy!,
    testAccuracy: se.testAccuracy!,
    lossGap: se.lossGap!,
    maxAdvantage: se.maxAdvantage!,
    p1: se.p1!,
    attacks: Object.fromEntries(prepared.map((a) => [a.name, { advantage: se[`adv:${a.name}`]!, auc: se[`auc:${a.name}`]! }])),
  };
}

/** The numbers of one row on one resample, keyed `trainAccuracy`, …, `adv:<attack>`, `auc:<attack>`. @internal */
export type RowStatistics = (resample: StratifiedResample) => Record<string, number>;

/**
 * The statistics {@link rowUncertainty} resamples, as a function of one stratified resample (the
 * paired bootstrap of `paired-se.ts` evaluates it for every row on the same resamples). @internal
 */
export function rowStatistics(input: Omit<RowUncertaintyInput, 'seed' | 'resamples'>): {
  readonly prepared: ReadonlyArray<{ readonly name: string }>;
  readonly statistics: RowStatistics;
} {
  const nM = input.membersCorrect.length;
  const prepared = input.attacks.map((a) => ({
    name: a.name,
    weighted: weightedScores(a.scores.subarray(0, nM), a.scores.subarray(nM)),
    decisions: a.decisions === undefined ? undefined : { members: a.decisions.subarray(0, nM), nonMembers: a.decisions.subarray(nM) },
  }));
  const statistics: RowStatistics = (r) => {
    const out: Record<string, number> = {
      trainAccuracy: weightedMean(input.membersCorrect, r.members),
      testAccuracy: weightedMean(input.nonMembersCorrect, r.nonMembers),
      lossGap: weightedMean(input.nonMembersLoss, r.nonMembers) - weightedMean(input.membersLoss, r.members),
    };
    for (const a of prepared) {
      if (a.decisions === undefined) {
        const both = a.weighted.both(r);
        out[`adv:${a.name}`] = both.bestAdvantage;
        out[`auc:${a.name}`] = both.auc;
      } else {
        out[`adv:${a.name}`] = weightedMean(a.decisions.members, r.members) - weightedMean(a.decisions.nonMembers, r.nonMembers);
        out[`auc:${a.name}`] = a.weighted.auc(r);
      }
    }
    const bestAdvantage = Math.max(0, out[`adv:${input.best}`] ?? 0);
    out.maxAdvantage = bestAdvantage;
    out.p1 = p1Score(out.testAccuracy!, bestAdvantage);
    return out;
  };
  return { prepared, statistics };
}
