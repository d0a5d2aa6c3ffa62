import { option, optionsSchema } from '@mia/core';
import {
  augmentationAttack,
  metricAttack,
  nnCrlAttack,
  nnMlhAttack,
  nnRlAttack,
  nnSelAttack,
  type NnPresetOptions,
  type ShadowAttack,
  type StatisticName,
} from '@mia/attacks';
import { defineAttack, type AttackDefinition, type AttackQuerySet } from './definition';
import { liraDefinition, rmiaDefinition } from './reference-attacks';
import { boundaryDistanceDefinition, qmiaDefinition } from './record-attacks';

const METRICS: ReadonlyArray<readonly [StatisticName, string]> = [
  ['correctness', 'correctness: member iff the target classifies the example correctly'],
  ['loss', 'loss threshold, per class, fitted on the shadow signals'],
  ['confidence', 'confidence in the true class, threshold per class fitted on the shadow signals'],
  ['maxConfidence', 'largest softmax output, threshold per class fitted on the shadow signals'],
  ['entropy', 'prediction entropy, threshold per class fitted on the shadow signals'],
  ['modifiedEntropy', "Song and Mittal's modified entropy, threshold per class fitted on the shadow signals"],
  ['phi', 'logit-scaled confidence log(p / (1 − p)), threshold per class fitted on the shadow signals'],
];

const metric = ([name, description]: readonly [StatisticName, string]) =>
  defineAttack({
    name,
    description,
    schema: optionsSchema({}),
    needs: { shadow: true },
    create: (_options, ctx) => metricAttack(name, { name: ctx.label }),
  });

const nnEpochs = optionsSchema({
  epochs: option.integer({ min: 1, description: "Epochs of the attack network (absent: the preset's; 5 at scale smoke)" }),
});

const nn = (name: string, description: string, preset: (options: NnPresetOptions) => ShadowAttack) =>
  defineAttack({
    name,
    description,
    schema: nnEpochs,
    needs: { shadow: true },
    trained: true,
    create: (options, ctx) => preset({ name: ctx.label, seed: ctx.seed, epochs: options.epochs ?? (ctx.scale === 'smoke' ? 5 : undefined) }),
  });

const augmentation = (name: AttackQuerySet, description: string) =>
  defineAttack({
    name,
    description,
    schema: optionsSchema({}),
    needs: { shadow: true, queries: name },
    trained: true,
    create: (_options, ctx) => augmentationAttack({ name: ctx.label, seed: ctx.seed }),
  });

/** The attacks every run knows (docs/protocol.md §3.1–3.3, §3.8, §3.9; QMIA and the label-only boundary distance, docs/guides/new-attacks.md), registered like user attacks. */
export const BUILTIN_ATTACKS: readonly AttackDefinition<never>[] = [
  ...METRICS.map(metric),
  nn('nn-mlh', 'NN attack on the unsorted posterior (CCL, PAST)', nnMlhAttack),
  nn('nn-rl', 'NN attack on the sorted logits (RelaxLoss)', nnRlAttack),
  nn('nn-sel', 'NN attack of SELENA (a posterior and a one-hot label branch)', nnSelAttack),
  nn('nn-crl', 'NN attack on the posterior and the one-hot label (CRL)', nnCrlAttack),
  augmentation('rotation', 'augmentation attack: correctness on rotated copies ([−r, 0, r] degrees)'),
  augmentation('translation', 'augmentation attack: correctness on translated copies (|i| + |j| = d)'),
  liraDefinition,
  rmiaDefinition,
  qmiaDefinition,
  boundaryDistanceDefinition,
] as unknown as readonly AttackDefinition<never>[];
