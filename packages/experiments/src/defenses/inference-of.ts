import { InvalidArgumentError, type LabeledData } from '@mia/core';
import type { DefenseTrainContext } from './definition';

/** The partition's inference set. @throws InvalidArgumentError when it has none (also checked before the run). */
export function inferenceOf(name: string, ctx: DefenseTrainContext<unknown>): LabeledData {
  if (ctx.inference === undefined)
    throw new InvalidArgumentError(`defense ${name} needs a partition with an inference/reference set (PAST6 or CCL5), got none`);
  return ctx.inference;
}
