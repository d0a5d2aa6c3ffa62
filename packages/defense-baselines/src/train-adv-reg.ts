import { adam, constantLr, cosine, deriveSeed, seededRandom, sgd, subsetData, train, type Classifier, type LabeledData } from '@mia/core';
import { attackStep } from './adv-reg-attack-step';
import { resolveAdvRegOptions, type AdvRegOptions } from './adv-reg-options';
import { advRegPlugin } from './adv-reg-plugin';
import { mlhAdvRegAttackModel, selAttackModel } from './attack-model';
import { batchStream } from './batch-stream';

export type { AdvRegOptions } from './adv-reg-options';

/** One epoch of {@link trainAdvReg}. */
export interface AdvRegEpoch {
  readonly epoch: number;
  readonly adversarial: boolean;
  /** Mean attack loss of the epoch's attack steps (NaN when none ran). */
  readonly attackLoss: number;
}

/**
 * Adversarial regularisation (Nasr et al. 2018): the target minimises `CE + α·(mean h(f(x), y) − 0.5)`
 * on members while the attack model h learns to tell members (label 1) from `reference` (label 0).
 * Target passes use core `train` with {@link advRegPlugin}; attack steps are a small loop over
 * `zip(member batches, reference batches)` with the target in eval mode.
 * - `'mlhospital'`: epochs 0–3 private training only; then each epoch = one attack pass
 *   (min(#member, #reference) batches) + one private pass. Attack on raw logits + ±1 code, BCE.
 * - `'sel'`: epoch 0 = plain training + 5 attack epochs; then rounds of (13·512/B attack batches,
 *   2 target batches). Attack NN-SEL on logits + one-hot, MSE, Adam 1e-4; target Adam 1e-3.
 *
 * @returns one {@link AdvRegEpoch} per epoch.
 * @throws InvalidArgumentError on bad options.
 * @see docs/protocol.md §4.7, §6 item 46, §2.5 (SEL α: Purchase 3, Texas 2).
 */
export async function trainAdvReg(classifier: Classifier, members: LabeledData, reference: LabeledData, options: AdvRegOptions): Promise<AdvRegEpoch[]> {
  const {
    sel,
    batchSize,
    warmupEpochs,
    warmupAttackEpochs,
    warmupPlain,
    rounds,
    features,
    lossKind,
    seed,
    alpha,
    attackOptimizerKind,
    attackLr: baseAttackLr,
  } = resolveAdvRegOptions('trainAdvReg', options);
  const optimizer = options.optimizer ?? (sel ? adam({ lr: 1e-3 }) : sgd({ lr: 0.01, momentum: 0.9, weightDecay: 5e-4 }));
  const schedule = options.schedule ?? (sel ? constantLr : cosine(options.epochs));
  const attack = options.attackModel ?? (sel ? selAttackModel : mlhAdvRegAttackModel)(members.numClasses, deriveSeed(seed, 'attack-init'));
  const attackOptimizer =
    options.attackOptimizer ?? (attackOptimizerKind === 'adam' ? adam({ lr: baseAttackLr }) : sgd({ lr: baseAttackLr, momentum: 0.9, weightDecay: 5e-4 }));
  const privatePlugin = advRegPlugin(attack, { ...features, alpha });
  const memberStream = batchStream(members, batchSize, deriveSeed(seed, 'attack-members'));
  const referenceStream = batchStream(reference, batchSize, deriveSeed(seed, 'attack-reference'));
  const attackSteps = (count: number, lr: number) => {
    let sum = 0;
    for (let s = 0; s < count; s++) {
      const batches = [
        { data: members, indices: memberStream(), member: true },
        { data: reference, indices: referenceStream(), member: false },
      ];
      sum += attackStep(attack, attackOptimizer, lr, classifier, batches, features, lossKind);
    }
    return count === 0 ? Number.NaN : sum / count;
  };
  const passSteps = Math.min(Math.ceil(members.size / batchSize), Math.ceil(reference.size / batchSize));
  const history: AdvRegEpoch[] = [];
  try {
    for (let epoch = 0; epoch < options.epochs; epoch++) {
      const lr = schedule(epoch, optimizer.learningRate);
      const attackLr = sel ? attackOptimizer.learningRate : schedule(epoch, attackOptimizer.learningRate);
      const common = { epochs: 1, batchSize, optimizer, schedule: () => lr, progressBar: false, seed: deriveSeed(seed, 'target', epoch) } as const;
      const adversarial = epoch >= warmupEpochs;
      let attackLoss = Number.NaN;
      if (!adversarial) {
        await train(classifier, members, { ...common, plugins: warmupPlain ? [] : [privatePlugin] });
        if (epoch + 1 === warmupEpochs && warmupAttackEpochs > 0) attackLoss = attackSteps(warmupAttackEpochs * passSteps, attackLr);
      } else if (rounds === undefined) {
        attackLoss = attackSteps(passSteps, attackLr);
        await train(classifier, members, { ...common, plugins: [privatePlugin] });
      } else {
        const order = seededRandom(deriveSeed(seed, 'rounds', epoch)).permutation(members.size);
        const chunk = rounds.targetBatches * batchSize;
        let sum = 0;
        let count = 0;
        for (let start = 0; start < members.size; start += chunk) {
          sum += attackSteps(rounds.attackBatches, attackLr);
          count += 1;
          const part = subsetData(members, order.subarray(start, Math.min(start + chunk, members.size)));
          await train(classifier, part, { ...common, shuffle: false, plugins: [privatePlugin] });
        }
        attackLoss = sum / count;
      }
      history.push({ epoch, adversarial, attackLoss });
    }
  } finally {
    if (options.optimizer === undefined) optimizer.dispose();
    if (options.attackOptimizer === undefined) attackOptimizer.dispose();
    if (options.attackModel === undefined) attack.dispose();
  }
  return history;
}
