import { InvalidArgumentError } from '@mia/core';
import { fitClassThresholds, fitThreshold, selThresholdAttack, type LabeledMembershipScores } from '@mia/metrics';
import type { ModelSignals, SplitSignals } from '../signals/model-signals';
import type { ShadowAttack } from './attack';
import { signedStatistic, type Statistic } from './signed-statistic';
import { checkFitted, checkSplit } from './check-signals';

/** How the threshold of a {@link metricAttack} is fitted. */
export type ThresholdMode = 'song-mittal' | 'global' | 'sel' | 'none';

/** Options of {@link metricAttack}. */
export interface MetricAttackOptions {
  /** Report name. @default the statistic name (or `'metric'` for a function) */
  readonly name?: string;
  /**
   * `'song-mittal'`: per-class thresholds by balanced accuracy, first maximiser in candidate order,
   * global fallback for a missing class (SM, RL, CCLr, PASTr; PROTOCOL A4/A5). `'global'`: one
   * threshold the same way (RL white-box). `'sel'`: SELENA's raw-count search; decisions use the
   * per-class thresholds and `report` adds SEL's optimistic `max(global, class)` accuracy.
   * `'none'`: member iff the statistic is ≥ 0.5 (correctness).
   * @default 'none' for correctness, else 'song-mittal'
   */
  readonly mode?: ThresholdMode;
  /**
   * Per-class modes (`'song-mittal'`, `'sel'`): a class with fewer than this many shadow members
   * **or** shadow non-members uses the global threshold (a per-class threshold fitted on a handful
   * of examples is noise); such classes are listed in `fallbackClasses` and counted in the
   * `report()` extra `classesOnGlobalThreshold`. 1 keeps only the reference's missing-class rule.
   * @default 10
   */
  readonly minClassExamples?: number;
}

/** Default of {@link MetricAttackOptions.minClassExamples}. */
export const MIN_CLASS_EXAMPLES = 10;

/** A fitted threshold attack; `thresholds[c]` applies to class c. */
export interface MetricAttack extends ShadowAttack {
  /** Per-class thresholds after `prepare` (all equal in `'global'` mode). */
  readonly thresholds: Float64Array | undefined;
  /** The global threshold after `prepare`. */
  readonly globalThreshold: number | undefined;
  /** Classes that fell back to the global threshold. */
  readonly fallbackClasses: readonly number[];
}

/**
 * A metric-based threshold attack (Song & Mittal): score = the signed statistic; thresholds fitted
 * on the shadow model's members/non-members; a target example of class y is predicted member iff
 * `score ≥ thresholds[y]`. The AUC is that of the raw signed score on the target (no shadow needed).
 *
 * @param statistic - `'correctness' | 'loss' | 'confidence' | 'maxConfidence' | 'entropy' |
 *   'modifiedEntropy' | 'phi' | 'gradientNorm' | 'queryAccuracy'` or a function.
 * @param options - {@link MetricAttackOptions}.
 * @see docs/protocol.md §3.1, §3.4 (162-query score = `'queryAccuracy'` with `mode: 'sel'`), §3.6, §7 A3–A5.
 */
export function metricAttack(statistic: Statistic, options: MetricAttackOptions = {}): MetricAttack {
  const name = options.name ?? (typeof statistic === 'string' ? statistic : 'metric');
  const mode = options.mode ?? (statistic === 'correctness' ? 'none' : 'song-mittal');
  if (!['song-mittal', 'global', 'sel', 'none'].includes(mode)) {
    throw new InvalidArgumentError(`metricAttack: mode must be 'song-mittal', 'global', 'sel' or 'none', got ${JSON.stringify(mode)}`);
  }
  const minClass = options.minClassExamples ?? MIN_CLASS_EXAMPLES;
  if (!Number.isInteger(minClass) || minClass < 1) throw new InvalidArgumentError(`metricAttack: minClassExamples must be a positive integer, got ${minClass}`);
  let thresholds: Float64Array | undefined;
  let globalThreshold: number | undefined;
  let fallbackClasses: number[] = [];
  let known: LabeledMembershipScores | undefined;
  let numClasses = 0;
  const labeled = (s: ModelSignals) => ({ scores: signedStatistic(s, statistic), labels: s.labels });

  return {
    name,
    get thresholds() {
      return thresholds;
    },
    get globalThreshold() {
      return globalThreshold;
    },
    get fallbackClasses() {
      return fallbackClasses;
    },
    async prepare(shadow: SplitSignals) {
      checkSplit(`${name}.prepare`, shadow);
      numClasses = shadow.members.numClasses;
      const tr = labeled(shadow.members);
      const te = labeled(shadow.nonMembers);
      if (mode === 'none') {
        globalThreshold = 0.5;
        thresholds = new Float64Array(numClasses).fill(0.5);
      } else if (mode === 'global') {
        globalThreshold = fitThreshold(tr.scores, te.scores).threshold;
        thresholds = new Float64Array(numClasses).fill(globalThreshold);
      } else if (mode === 'song-mittal') {
        const fit = fitClassThresholds(tr.scores, tr.labels, te.scores, te.labels, { numClasses });
        ({ thresholds, fallbackClasses } = fit);
        globalThreshold = fit.global.threshold;
      } else {
        known = { memberScores: tr.scores, memberLabels: tr.labels, nonMemberScores: te.scores, nonMemberLabels: te.labels };
        const fit = selThresholdAttack(known, known, { numClasses });
        ({ classThresholds: thresholds, globalThreshold, fallbackClasses } = fit);
      }
      if (mode === 'song-mittal' || mode === 'sel') fallbackClasses = fallBackRareClasses(thresholds!, globalThreshold!, fallbackClasses, shadow, minClass);
    },
    score(target) {
      return signedStatistic(target, statistic);
    },
    decide(target) {
      const t = checkFitted(`${name}.decide`, thresholds, target, numClasses);
      const scores = signedStatistic(target, statistic);
      return Uint8Array.from(scores, (s, i) => (s >= t[target.labels[i]!]! ? 1 : 0));
    },
    report(target, isMember): Record<string, number> {
      const perClass: Record<string, number> = mode === 'song-mittal' || mode === 'sel' ? { classesOnGlobalThreshold: fallbackClasses.length } : {};
      if (mode !== 'sel' || known === undefined) return perClass;
      const scores = signedStatistic(target, statistic);
      const pick = (bit: number) => {
        const idx = [...isMember.keys()].filter((i) => isMember[i] === bit);
        return { scores: idx.map((i) => scores[i]!), labels: idx.map((i) => target.labels[i]!) };
      };
      const m = pick(1);
      const n = pick(0);
      const r = selThresholdAttack(
        known,
        { memberScores: m.scores, memberLabels: m.labels, nonMemberScores: n.scores, nonMemberLabels: n.labels },
        { numClasses },
      );
      return { ...perClass, selAccuracyOptimistic: r.accuracy, selGlobalAccuracy: r.globalAccuracy, selClassAccuracy: r.classAccuracy };
    },
    dispose() {},
  };
}

/** Sets the global threshold for every class with fewer than `min` shadow members or non-members; returns all fallback classes, sorted. */
function fallBackRareClasses(thresholds: Float64Array, global: number, already: readonly number[], shadow: SplitSignals, min: number): number[] {
  const count = (s: ModelSignals) => {
    const n = new Int32Array(thresholds.length);
    for (const y of s.labels) n[y]!++;
    return n;
  };
  const members = count(shadow.members);
  const nonMembers = count(shadow.nonMembers);
  const out = new Set(already);
  for (let c = 0; c < thresholds.length; c++) {
    if (members[c]! < min || nonMembers[c]! < min) {
      thresholds[c] = global;
      out.add(c);
    }
  }
  return [...out].sort((a, b) => a - b);
}
