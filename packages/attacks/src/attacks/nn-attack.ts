import * as tf from '@tensorflow/tfjs-core';
import {
  InvalidArgumentError,
  ShapeMismatchError,
  adam,
  checkPositiveInteger,
  createAttackNetwork,
  labeledData,
  train,
  type AttackNetworkSpec,
  type Classifier,
  type LrSchedule,
  type Optimizer,
  type TrainingPlugin,
} from '@mia/core';
import type { ModelSignals, SplitSignals } from '../signals/model-signals';
import { concatSignals } from '../signals/concat-signals';
import type { ShadowAttack } from './attack';
import { attackFeatures, featureDim, type AttackFeatures } from './attack-features';
import { bestEpochPlugin } from './best-epoch-plugin';
import { checkSplit } from './check-signals';

/** Options of {@link nnAttack}. */
export interface NnAttackOptions {
  /** Report name. */
  readonly name: string;
  /** Input features. */
  readonly features: AttackFeatures;
  /** The network, given the input width. */
  readonly network: (inputDim: number, seed: number) => AttackNetworkSpec;
  /** `'ce'` (2-class CE, = BCE for a 1-unit head) or `'mse'` between sigmoid and 0/1 (NN-SEL). @default 'ce' */
  readonly loss?: 'ce' | 'mse';
  /** Optimizer factory (called once per `prepare`). @default Adam 1e-3 */
  readonly optimizer?: () => Optimizer;
  /** LR schedule per epoch. @default constant */
  readonly schedule?: (epochs: number) => LrSchedule;
  readonly epochs: number;
  readonly batchSize: number;
  /** Seed of initialisation, shuffling and dropout. @default 0 */
  readonly seed?: number;
  /**
   * Keep the epoch with the best balanced accuracy on these signals instead of the final epoch.
   * SEL reproduction only: with evaluation data this is optimistic (PROTOCOL A9). @default undefined
   */
  readonly selectBestOn?: SplitSignals;
}

/** The NN-SEL objective `mean (sigmoid(z) − y)²` on `z = logit_1 − logit_0` (internal, exported for tests). */
export const msePlugin: TrainingPlugin = {
  name: 'attack-mse',
  loss(ctx) {
    const z = tf.sub(tf.slice(ctx.logits, [0, 1], [-1, 1]), tf.slice(ctx.logits, [0, 0], [-1, 1]));
    return tf.mean(tf.square(tf.sub(tf.sigmoid(tf.reshape(z, [-1])), tf.cast(ctx.labels, 'float32')))) as tf.Scalar;
  },
};

/**
 * A neural-network attack: an MLP on per-example features, trained on the shadow model's members
 * (label 1) and non-members (label 0) with `@mia/core`'s `train`, evaluated on the target at the
 * **final** epoch (PROTOCOL A9). Score = the member probability; decision = member probability > ½.
 *
 * @param options - {@link NnAttackOptions}; see the presets {@link nnMlhAttack}, {@link nnRlAttack},
 *   {@link nnSelAttack}, {@link nnCrlAttack}, {@link augmentationAttack}.
 * @see docs/protocol.md §3.2, §3.3; §7 A2, A9.
 */
export function nnAttack(options: NnAttackOptions): ShadowAttack {
  checkPositiveInteger(`${options.name}`, 'epochs', options.epochs);
  checkPositiveInteger(`${options.name}`, 'batchSize', options.batchSize);
  let network: Classifier | undefined;
  let numClasses = 0;
  let numQueries = 0;
  const memberLogits = (target: ModelSignals): tf.Tensor2D => {
    if (network === undefined) throw new InvalidArgumentError(`${options.name}: call prepare() before scoring`);
    if (target.numClasses !== numClasses || (target.queries?.length ?? 0) !== numQueries) {
      throw new ShapeMismatchError(`${options.name}: target signals must have ${numClasses} classes and ${numQueries} queries like the shadow's`);
    }
    const { values, dim } = attackFeatures(target, options.features);
    const net = network;
    return tf.tidy(() => net.forward(tf.tensor2d(values, [target.size, dim]), { training: false }).logits);
  };
  const decide = (target: ModelSignals): Uint8Array => {
    const logits = memberLogits(target);
    const z = logits.dataSync();
    logits.dispose();
    return Uint8Array.from({ length: target.size }, (_, i) => (z[2 * i + 1]! > z[2 * i]! ? 1 : 0));
  };
  const balancedAccuracyOf = (split: SplitSignals): number => {
    const tpr = decide(split.members).reduce((s, d) => s + d, 0) / split.members.size;
    const fpr = decide(split.nonMembers).reduce((s, d) => s + d, 0) / split.nonMembers.size;
    return 0.5 * (tpr + 1 - fpr);
  };
  return {
    name: options.name,
    async prepare(shadow: SplitSignals) {
      checkSplit(`${options.name}.prepare`, shadow);
      network?.dispose();
      numClasses = shadow.members.numClasses;
      numQueries = shadow.members.queries?.length ?? 0;
      const all = concatSignals([shadow.members, shadow.nonMembers]);
      const { values, dim } = attackFeatures(all, options.features);
      if (dim !== featureDim(options.features, numClasses, numQueries)) throw new ShapeMismatchError(`${options.name}: unexpected feature width ${dim}`);
      const seed = options.seed ?? 0;
      network = createAttackNetwork(options.network(dim, seed));
      const y = Int32Array.from({ length: all.size }, (_, i) => (i < shadow.members.size ? 1 : 0));
      const x = tf.tensor2d(values, [all.size, dim]);
      const optimizer = options.optimizer?.() ?? adam({ lr: 1e-3 });
      const selection = options.selectBestOn === undefined ? undefined : bestEpochPlugin(network, () => balancedAccuracyOf(options.selectBestOn!));
      try {
        await train(network, labeledData({ x, y, numClasses: 2 }), {
          epochs: options.epochs,
          batchSize: options.batchSize,
          optimizer,
          schedule: options.schedule?.(options.epochs),
          seed,
          plugins: [...(options.loss === 'mse' ? [msePlugin] : []), ...(selection === undefined ? [] : [selection])],
          progressBar: false,
        });
        selection?.restore();
      } finally {
        x.dispose();
        optimizer.dispose();
        selection?.dispose();
      }
    },
    score(target) {
      const logits = memberLogits(target);
      const p = tf.tidy(() => tf.squeeze(tf.slice(tf.softmax(logits), [0, 1], [-1, 1]), [1]));
      logits.dispose();
      const out = Float64Array.from(p.dataSync());
      p.dispose();
      return out;
    },
    decide,
    dispose() {
      network?.dispose();
      network = undefined;
    },
  };
}
