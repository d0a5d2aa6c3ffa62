import { InvalidArgumentError, ShapeMismatchError } from '@mia/core';
import { selThresholdAttack, type LabeledMembershipScores } from '@mia/metrics';
import type { ModelSignals, SplitSignals } from '../signals/model-signals';
import type { ShadowAttack } from './attack';
import { checkSplit } from './check-signals';

function countsOf(fn: string, s: ModelSignals): readonly Float64Array[] {
  if (s.flipCounts === undefined || s.flipCounts.length === 0) {
    throw new InvalidArgumentError(`${fn}: the signals have no flipCounts; compute them with flipNoiseCounts`);
  }
  return s.flipCounts;
}

function labeled(members: ModelSignals, nonMembers: ModelSignals, k: number, fn: string): LabeledMembershipScores {
  return {
    memberScores: countsOf(fn, members)[k]!,
    memberLabels: members.labels,
    nonMemberScores: countsOf(fn, nonMembers)[k]!,
    nonMemberLabels: nonMembers.labels,
  };
}

function split(target: ModelSignals, isMember: Uint8Array): SplitSignals {
  const pick = (bit: number): ModelSignals => {
    const idx = [...isMember.keys()].filter((i) => isMember[i] === bit);
    return {
      ...target,
      size: idx.length,
      labels: Int32Array.from(idx, (i) => target.labels[i]!),
      flipCounts: target.flipCounts?.map((c) => Float64Array.from(idx, (i) => c[i]!)),
    };
  };
  return { members: pick(1), nonMembers: pick(0) };
}

/**
 * Label-only feature-flip attack for binary data (SEL `flip_noise_attack`): for each flip count m
 * the score is the number of correct predictions over the noisy copies ({@link flipNoiseCounts});
 * SELENA thresholds (raw count, global and per-class) are fitted on the known members `tr` vs
 * reference non-members `ref`. By default m is chosen on that **known** data (PROTOCOL A10);
 * `report` adds SEL's optimistic number, the best `max(global, class)` accuracy over m chosen on
 * the evaluation data.
 *
 * @returns A {@link ShadowAttack} whose `prepare` takes the known split; `chosenFlips` is set after it.
 * @see docs/protocol.md §3.5; §7 A10.
 */
export function featureFlipAttack(options: { readonly name?: string } = {}): ShadowAttack & { readonly chosenFlips: number | undefined } {
  const name = options.name ?? 'feature-flip';
  let known: SplitSignals | undefined;
  let chosen = -1;
  let thresholds: Float64Array | undefined;
  let flips: readonly number[] = [];
  return {
    name,
    get chosenFlips() {
      return chosen < 0 ? undefined : flips[chosen];
    },
    async prepare(shadow) {
      const fn = `${name}.prepare`;
      checkSplit(fn, shadow);
      const m = countsOf(fn, shadow.members).length;
      if (countsOf(fn, shadow.nonMembers).length !== m) throw new ShapeMismatchError(`${fn}: members and nonMembers must have the same flip counts`);
      known = shadow;
      flips = shadow.members.flips ?? Array.from({ length: m }, (_, k) => k + 1);
      let best = -1;
      for (let k = 0; k < m; k++) {
        const data = labeled(shadow.members, shadow.nonMembers, k, fn);
        const fit = selThresholdAttack(data, data, { numClasses: shadow.members.numClasses });
        if (fit.accuracy > best) {
          best = fit.accuracy;
          chosen = k;
          thresholds = fit.classAccuracy >= fit.globalAccuracy ? fit.classThresholds : new Float64Array(fit.classThresholds.length).fill(fit.globalThreshold);
        }
      }
    },
    score(target) {
      if (chosen < 0) throw new InvalidArgumentError(`${name}.score: call prepare() before scoring`);
      return Float64Array.from(countsOf(`${name}.score`, target)[chosen]!);
    },
    decide(target) {
      const scores = this.score(target);
      return Uint8Array.from(scores, (s, i) => (s >= thresholds![target.labels[i]!]! ? 1 : 0));
    },
    report(target, isMember): Record<string, number> {
      if (known === undefined) return {};
      const evaluation = split(target, isMember);
      let best = -1;
      let bestK = 0;
      for (let k = 0; k < known.members.flipCounts!.length; k++) {
        const r = selThresholdAttack(labeled(known.members, known.nonMembers, k, name), labeled(evaluation.members, evaluation.nonMembers, k, name), {
          numClasses: target.numClasses,
        });
        if (r.accuracy > best) [best, bestK] = [r.accuracy, k];
      }
      return { selAccuracyOptimistic: best, selBestFlips: flips[bestK]! };
    },
    dispose() {},
  };
}
