import { InvalidArgumentError } from '@mia/core';
import { augmentationAttack, metricAttack, nnCrlAttack, nnMlhAttack, nnRlAttack, nnSelAttack, type ShadowAttack, type StatisticName } from '@mia/attacks';

const METRICS: readonly StatisticName[] = ['correctness', 'loss', 'confidence', 'maxConfidence', 'entropy', 'modifiedEntropy', 'phi'];
const NN = { 'nn-mlh': nnMlhAttack, 'nn-rl': nnRlAttack, 'nn-sel': nnSelAttack, 'nn-crl': nnCrlAttack } as const;

const AUGMENTATION = ['rotation', 'translation'] as const;

/** Names the runner accepts in `attacks` (docs/protocol.md §3.1–3.3). */
export const ATTACK_NAMES: readonly string[] = [...METRICS, ...Object.keys(NN), ...AUGMENTATION];

/** Whether an attack trains a model of its own (the NN and augmentation attacks); the runner caches what those produce. */
export function isTrainedAttack(name: string): boolean {
  return name in NN || (AUGMENTATION as readonly string[]).includes(name);
}

/**
 * Builds the shadow attacks of a config; NN attacks get `nnEpochs` epochs (reduced scales train
 * them shorter). `rotation` / `translation` are the augmentation attack (5 epochs, docs/protocol.md §3.3)
 * and need signals with the matching `queries`.
 */
export function createAttacks(names: readonly string[], options: { seed: number; nnEpochs?: number }): ShadowAttack[] {
  return names.map((name) => {
    if ((METRICS as readonly string[]).includes(name)) return metricAttack(name as StatisticName);
    const nn = NN[name as keyof typeof NN];
    if (nn !== undefined) return nn({ seed: options.seed, epochs: options.nnEpochs });
    if ((AUGMENTATION as readonly string[]).includes(name)) return augmentationAttack({ name, seed: options.seed });
    throw new InvalidArgumentError(`attacks[] must be names from ${ATTACK_NAMES.join(', ')}, got ${JSON.stringify(name)}`);
  });
}
