import { InvalidArgumentError } from '@mia/core';
import { metricAttack, type ShadowAttack, type Statistic } from '@mia/attacks';
import type { ModelSignals, SplitSignals } from '@mia/attacks';

function knownAccuracy(attack: ShadowAttack, known: SplitSignals): number {
  const rate = (s: ModelSignals, bit: number) => attack.decide!(s).reduce((n, d) => n + (d === bit ? 1 : 0), 0) / Math.max(1, s.size);
  return 0.5 * (rate(known.members, 1) + rate(known.nonMembers, 0));
}

/**
 * A threshold attack on `statistic` that fits both a global and per-class thresholds (Song–Mittal
 * search) on the attacker's known split and keeps whichever classifies that known split better.
 * SELENA's code reports `max(global, per-class)` chosen on the evaluation data (optimistic,
 * docs/protocol.md §3.1 SEL variant, A4); choosing on the known data is the non-optimistic analogue.
 *
 * @param statistic - e.g. `'confidence'`, `'entropy'`, `'modifiedEntropy'`, `'queryAccuracy'`.
 * @param name - report name.
 * @returns a {@link ShadowAttack}; `prepare` takes the known members (`tr`) and non-members (`ref`).
 * @see docs/protocol.md §3.1, §3.4, §7 A4
 */
export function globalOrClassAttack(statistic: Statistic, name: string): ShadowAttack {
  const global = metricAttack(statistic, { mode: 'global', name });
  const perClass = metricAttack(statistic, { mode: 'song-mittal', name });
  let chosen: ShadowAttack | undefined;
  const fitted = (): ShadowAttack => {
    if (chosen === undefined) throw new InvalidArgumentError(`${name}.score: call prepare() before scoring`);
    return chosen;
  };
  return {
    name,
    async prepare(known) {
      await global.prepare(known);
      await perClass.prepare(known);
      chosen = knownAccuracy(perClass, known) >= knownAccuracy(global, known) ? perClass : global;
    },
    score: (target) => fitted().score(target),
    decide: (target) => fitted().decide!(target),
    // The chosen attack's extras: with per-class thresholds, how many classes used the global one (< 10 known examples).
    report: (target, isMember) => fitted().report?.(target, isMember) ?? {},
    dispose() {},
  };
}
