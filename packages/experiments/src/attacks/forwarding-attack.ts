import type { ShadowAttack, SplitSignals } from '@mia/attacks';

/**
 * `attack` with its `name` and/or `prepare` replaced, every other method forwarded to it (called on
 * the attack itself, so classes keep their `this`; `decide` and `report` only when it has them).
 */
export function forwardingAttack(attack: ShadowAttack, replace: { readonly name?: string; readonly prepare?: ShadowAttack['prepare'] }): ShadowAttack {
  type Target = Parameters<ShadowAttack['score']>[0];
  return {
    name: replace.name ?? attack.name,
    prepare: replace.prepare ?? ((fit: SplitSignals) => attack.prepare(fit)),
    score: (target) => attack.score(target),
    ...(attack.decide === undefined ? {} : { decide: (target: Target) => attack.decide!(target) }),
    ...(attack.report === undefined ? {} : { report: (target: Target, isMember: Uint8Array) => attack.report!(target, isMember) }),
    dispose: () => attack.dispose(),
  };
}
