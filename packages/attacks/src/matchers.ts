// `@mia/attacks/matchers`: test-runner matchers for privacy tests. Plain `expect.extend`-compatible
// objects, so they work with vitest and jest without depending on either.
import { checkLeakage, type LeakCeilings, type LeakageEvidence } from './audit/check-leakage';

export type { LeakCeilings, LeakageEvidence, LeakVerdict } from './audit/check-leakage';

/** What a matcher returns to `expect` (the shape vitest and jest share). */
export interface MatcherResult {
  /** Whether the assertion holds. */
  pass: boolean;
  /** The failure message (for `.not`, the message when it holds). */
  message: () => string;
}

/**
 * The assertion a test gets after `expect.extend(leakMatchers)`. Declare it once for your runner, e.g.
 * `declare module 'vitest' { interface Assertion<T> extends LeakAssertions<T> {} }`.
 */
export interface LeakAssertions<R = unknown> {
  /** Passes when every ceiling's UPPER confidence bound holds for the audit report ({@link checkLeakage}). */
  toLeakAtMost(ceilings: LeakCeilings): R;
}

/**
 * Matchers for `expect.extend`: `expect(report).toLeakAtMost({ advantage: 0.1, tprAtFpr: [0.001, 0.05] })`
 * fails when the upper confidence bound of the worst attack's advantage (or TPR at that FPR) passes
 * the ceiling, with a message naming the metric, the attack, the bound and the ceiling.
 *
 * @example
 * ```ts
 * import { expect } from 'vitest';
 * import { leakMatchers } from '@mia/attacks/matchers';
 * expect.extend(leakMatchers);
 * expect(await auditModel(model, { members, nonMembers })).toLeakAtMost({ advantage: 0.1 });
 * ```
 * @see docs/protocol.md §5.
 */
export const leakMatchers = {
  /**
   * `expect(report).toLeakAtMost(ceilings)`: see {@link checkLeakage}. An audit with an unacknowledged
   * validity finding fails both `toLeakAtMost` and `.not.toLeakAtMost`: its numbers decide neither.
   */
  toLeakAtMost(this: unknown, received: unknown, ceilings: LeakCeilings): MatcherResult {
    const verdict = checkLeakage(received as LeakageEvidence, ceilings);
    if (!verdict.decided)
      return { pass: (this as { readonly isNot?: boolean } | undefined)?.isNot === true, message: () => `expected a valid audit, but it ${verdict.message}` };
    return {
      pass: verdict.pass,
      message: () =>
        verdict.pass
          ? `expected the model to leak more than the ceilings, but it ${verdict.message}`
          : `expected the model to leak at most the ceilings, but it ${verdict.message}`,
    };
  },
};
