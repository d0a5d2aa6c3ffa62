import type { ModelSignals, ReferenceSignals, SplitSignals } from '../signals/model-signals';

/**
 * One membership inference attack. Every attack in `@mia/attacks` is a small object of this shape:
 *
 * 1. `prepare(fitData)` fits what the attack learns from data the attacker controls: thresholds or
 *    an attack network from shadow-model signals ({@link ShadowAttack}), or per-example statistics
 *    from reference models ({@link ReferenceAttack}). Attacks without a fitting step accept it and
 *    ignore it.
 * 2. `score(target)` returns one membership score per example of `target` (the target model's
 *    signals), with the rule **higher = more likely member** (docs/protocol.md §0).
 * 3. `decide(target)` (optional) returns the attack's own 0/1 membership decisions, e.g. from
 *    shadow-fitted per-class thresholds; the suite turns them into the reported accuracy and advantage.
 * 4. `report(target, isMember)` (optional) returns attack-specific extra numbers (e.g. SELENA's
 *    optimistic `max(global, per-class)` accuracy), clearly named.
 * 5. `dispose()` frees any tensors the attack owns (attack networks).
 *
 * @typeParam Fit - What `prepare` takes.
 * @typeParam Target - What `score` takes: the target's {@link ModelSignals} for every attack on a
 *   classifier's signals (the default); attacks on other inputs name theirs (QMIA: signals with the
 *   records' features; the language-model attacks: per-token log-probability records).
 * @see docs/protocol.md §3.0 (common interface).
 */
export interface MembershipAttack<Fit, Target = ModelSignals> {
  /** Short unique name for reports (`loss`, `nn-mlh`, `lira-online`). */
  readonly name: string;
  /** Fits the attack. Must be called before `score`. */
  prepare(fitData: Fit): Promise<void>;
  /** Membership scores of the target's examples, higher = more likely member. */
  score(target: Target): Float64Array;
  /** The attack's own member (1) / non-member (0) decisions, when it has a decision rule. */
  decide?(target: Target): Uint8Array;
  /** Attack-specific extra metrics on the target's evaluation data. */
  report?(target: Target, isMember: Uint8Array): Record<string, number>;
  /** Frees owned tensors; the attack is unusable afterwards. */
  dispose(): void;
}

/** An attack fitted on shadow-model (or attacker-known) members and non-members. */
export type ShadowAttack = MembershipAttack<SplitSignals>;

/** An attack that uses reference models' signals on the same audit examples as the target (LiRA, RMIA, Attack-R). */
export type ReferenceAttack = MembershipAttack<ReferenceSignals>;
