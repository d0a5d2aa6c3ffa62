import { check, MiaError } from '@mia/core';
import type { DpAudit } from './audit-canary-scores';

/** A one-run audit refuted a training's DP claim; the message has the numbers and the choices. */
export class DpClaimBrokenError extends MiaError {}

/**
 * Throws a {@link DpClaimBrokenError} with the audit's message when the audit refuted the DP claim
 * (`result.broken`); returns nothing otherwise. For a test or a CI script:
 * `assertDpClaimHolds(await auditDpTraining(...))`.
 * @param result - a {@link DpAudit} (`auditDpTraining`, `auditCanaryScores`).
 * @throws DpClaimBrokenError when `result.broken`; InvalidArgumentError when `result` is not an audit result.
 */
export function assertDpClaimHolds(result: DpAudit): void {
  check(
    typeof result === 'object' && result !== null && typeof result.broken === 'boolean',
    'assertDpClaimHolds',
    'result',
    'a DpAudit (auditDpTraining)',
    result,
  );
  if (result.broken) throw new DpClaimBrokenError(result.message);
}

/**
 * A custom matcher for vitest's or Jest's `expect.extend`: `expect(result).toHoldDpClaim()` passes when
 * the audit did not refute the claim and fails with the audit's message when it did (`.not` inverts
 * it, for a test that a deliberately broken training is caught).
 * @example
 * expect.extend(dpAuditMatchers);
 * expect(await auditDpTraining(options)).toHoldDpClaim();
 */
export const dpAuditMatchers = {
  toHoldDpClaim(received: DpAudit): { pass: boolean; message: () => string } {
    const valid = typeof received === 'object' && received !== null && typeof received.broken === 'boolean';
    if (!valid) return { pass: false, message: () => `expected a DpAudit (auditDpTraining's result), got ${String(received)}` };
    return {
      pass: !received.broken,
      message: () =>
        received.broken ? `expected the DP claim to hold, but ${received.message}` : `expected the audit to refute the DP claim, but it is ${received.message}`,
    };
  },
};
