import { InvalidArgumentError } from '@mia/core';

/**
 * Whether an epoch counts as "even" for the relaxation rules: `(epoch + parityOffset) % 2 === 0`.
 * With the 0-based epochs of `@mia/core`'s `train`, `parityOffset = 1` reproduces CRL's 1-based
 * parity (`current_epoch + 1`) and `0` RelaxLoss' 0-based one.
 *
 * @param epoch - 0-based epoch index (non-negative integer).
 * @param parityOffset - integer added before the parity test. @default 1
 * @see CRL Algorithm 1 (epochs 1..E); docs/protocol.md §6 item 34, A21.
 */
export function isEvenEpoch(fn: string, epoch: number, parityOffset = 1): boolean {
  if (!Number.isInteger(epoch) || epoch < 0) throw new InvalidArgumentError(`${fn}: epoch must be a non-negative integer (0-based), got ${epoch}`);
  if (!Number.isInteger(parityOffset)) throw new InvalidArgumentError(`${fn}: parityOffset must be an integer, got ${parityOffset}`);
  return (epoch + parityOffset) % 2 === 0;
}
