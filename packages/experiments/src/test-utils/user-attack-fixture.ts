// Test fixture: a user attack in a module of its own, as a library user would write it. A config
// lists this file in `modules`; the attack has no `module` of its own, so it is loadable from there.
import { option, optionsSchema } from '@mia/core';
import { metricAttack } from '@mia/attacks';
import { defineAttack } from '../attacks/definition';
import { registerAttack } from '../attacks/registry';

/** The loss attack with its scores multiplied by `weight`: −1 turns it around (AUC 1 − the loss attack's). */
export const weightedLoss = defineAttack({
  name: 'test-weighted-loss',
  description: 'test fixture: −loss × weight, thresholds per class fitted on the shadows',
  schema: optionsSchema({ weight: option.number({ default: 1, description: 'factor of the scores' }) }),
  needs: { shadow: true },
  check: (options) => (options.weight === 0 ? [{ path: 'weight', expected: 'a number other than 0 (0 scores every example alike)', got: '0' }] : []),
  create: (options, ctx) => metricAttack((signals) => Float64Array.from(signals.loss, (l) => -l * options.weight), { name: ctx.label, mode: 'global' }),
});

registerAttack(weightedLoss);
