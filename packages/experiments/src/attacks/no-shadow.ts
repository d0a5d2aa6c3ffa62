import { InvalidArgumentError } from '@mia/core';
import type { ShadowAttack, SplitSignals } from '@mia/attacks';
import { forwardingAttack } from './forwarding-attack';

/** The stand-ins of {@link noShadowSignals}, so that code can tell them from real shadow signals. */
const standIns = new WeakSet<object>();
/** The attacks {@link withoutShadow} made. */
const shadowFree = new WeakSet<object>();

/**
 * What `prepare` gets in place of shadow signals when there are none for it: an object whose
 * `members` and `nonMembers` throw `InvalidArgumentError` with `message`, so an attack that reads them
 * fails with a message that says why, instead of calibrating on something else.
 */
export function noShadowSignals(message: string): SplitSignals {
  const fail = (): never => {
    throw new InvalidArgumentError(message);
  };
  const standIn = Object.defineProperties({}, { members: { get: fail, enumerable: true }, nonMembers: { get: fail, enumerable: true } }) as SplitSignals;
  standIns.add(standIn);
  return standIn;
}

/** Whether `fit` is a {@link noShadowSignals} stand-in rather than shadow signals. */
export const isNoShadow = (fit: unknown): boolean => typeof fit === 'object' && fit !== null && standIns.has(fit);

/**
 * `attack` (of a definition with `needs.shadow: false`) whose `prepare` never sees the run's shadow
 * signals: it gets a {@link noShadowSignals} stand-in naming the attack, in a run with shadow models
 * (another attack needs them) as in one without, so its results do not depend on the other attacks
 * of the run.
 */
export function withoutShadow(attack: ShadowAttack, label: string, name: string): ShadowAttack {
  const standIn = noShadowSignals(
    `attack ${label} (${name}) declares needs.shadow: false, so its prepare gets no shadow signals; declare needs.shadow: true to calibrate on the shadow models`,
  );
  const wrapped = forwardingAttack(attack, { prepare: () => attack.prepare(standIn) });
  shadowFree.add(wrapped);
  return wrapped;
}

/** Whether `attack` was made by {@link withoutShadow} (its definition has `needs.shadow: false`). */
export const isShadowFree = (attack: ShadowAttack): boolean => shadowFree.has(attack);
