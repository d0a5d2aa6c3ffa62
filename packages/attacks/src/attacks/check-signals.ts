import { InvalidArgumentError, ShapeMismatchError, describeValue } from '@mia/core';
import type { ModelSignals, SplitSignals } from '../signals/model-signals';

/** Checks `{members, nonMembers}` are non-empty signals with one class count (internal). */
export function checkSplit(fn: string, split: SplitSignals): void {
  if (typeof split !== 'object' || split === null || split.members === undefined || split.nonMembers === undefined) {
    throw new InvalidArgumentError(`${fn}: expected {members, nonMembers} signals, got ${describeValue(split)}`);
  }
  if (split.members.size === 0 || split.nonMembers.size === 0) {
    throw new InvalidArgumentError(`${fn}: members and nonMembers must be non-empty, got ${split.members.size} and ${split.nonMembers.size} examples`);
  }
  if (split.members.numClasses !== split.nonMembers.numClasses) {
    throw new ShapeMismatchError(
      `${fn}: members and nonMembers must have the same numClasses, got ${split.members.numClasses} and ${split.nonMembers.numClasses}`,
    );
  }
}

/** Checks the attack was prepared and the target has the fitted class count (internal). */
export function checkFitted<T>(fn: string, fitted: T | undefined, target: ModelSignals, numClasses: number): T {
  if (fitted === undefined) throw new InvalidArgumentError(`${fn}: call prepare() before scoring`);
  if (target.numClasses !== numClasses) {
    throw new ShapeMismatchError(`${fn}: target.numClasses must equal the shadow's (${numClasses}), got ${target.numClasses}`);
  }
  return fitted;
}
