import * as tf from '@tensorflow/tfjs';
import { cclLoss } from '@mia/defense-ccl';
import { summarizeAttack } from '@mia/metrics';
import { syntheticBlobs } from './synthetic-blobs';

/** Options of {@link runCclExperiment}. */
export interface CclExperimentOptions {
  /** Members (training rows); as many non-members are held out. @default 80 */
  readonly members?: number;
  /** @default 60 */
  readonly epochs?: number;
  /** Hidden units of the one-hidden-layer MLP. @default 64 */
  readonly hidden?: number;
  /** CCL α. @default 0.5 */
  readonly alpha?: number;
  /** Noise of the 32-feature, 4-class blobs ({@link syntheticBlobs}); 3 makes the test accuracy ≈ 70 %. @default 3 */
  readonly noise?: number;
  /** Seed of the data and the initial weights. @default 0 */
  readonly seed?: number;
  /** Called after each epoch with the mean training loss. */
  readonly onEpoch?: (epoch: number, loss: number) => void;
}

/** What {@link runCclExperiment} measured. */
export interface CclExperimentResult {
  readonly backend: string;
  readonly members: number;
  readonly epochs: number;
  /** Mean CCL training loss of each epoch (as reported by `model.fit`). */
  readonly epochLosses: readonly number[];
  readonly trainAccuracy: number;
  readonly testAccuracy: number;
  /** Loss-attack scores (−per-example CE; higher = member): members first, then non-members. */
  readonly scores: readonly number[];
  /** 1 for a member, 0 for a non-member, aligned with `scores`. */
  readonly isMember: readonly number[];
  /** ROC-AUC of the loss attack. */
  readonly auc: number;
  /** Best-threshold advantage max(TPR − FPR) of the loss attack. */
  readonly advantage: number;
  /** Best-threshold balanced accuracy ½(1 + advantage). */
  readonly balancedAccuracy: number;
}

/**
 * Trains a `tf.sequential` MLP with `cclLoss` (α, quadratic concave term) on synthetic blobs
 * (32 features, 4 classes, noisy enough that the small training set is overfitted),
 * then runs the loss-threshold attack (score = −cross-entropy of each example) on the members and
 * as many held-out non-members, with the metrics of `@mia/metrics`. Runs on whatever backend
 * `tf` has (the page sets cpu or webgl); disposes every tensor it creates.
 *
 * @see CCL Eq. 4–6 (docs/protocol.md §4.2); loss attack docs/protocol.md §3.1; metrics docs/protocol.md §5.
 */
export async function runCclExperiment(options: CclExperimentOptions = {}): Promise<CclExperimentResult> {
  const { members = 80, epochs = 60, hidden = 64, alpha = 0.5, noise = 3, seed = 0 } = options;
  const data = syntheticBlobs({ size: 2 * members, numFeatures: 32, noise, seed });
  const x = tf.tensor2d(data.features, [data.size, data.numFeatures]);
  const y = tf.tensor1d(data.labels, 'int32');
  const [xTrain, xTest] = tf.split(x, 2);
  const [yTrain, yTest] = tf.split(y, 2) as [tf.Tensor1D, tf.Tensor1D];
  const yTrainOneHot = tf.oneHot(yTrain, data.numClasses);
  const model = tf.sequential({
    layers: [
      tf.layers.dense({ inputShape: [data.numFeatures], units: hidden, activation: 'relu', kernelInitializer: tf.initializers.glorotUniform({ seed }) }),
      tf.layers.dense({ units: data.numClasses, kernelInitializer: tf.initializers.glorotUniform({ seed: seed + 1 }) }), // logits
    ],
  });
  const optimizer = tf.train.adam(0.01);
  model.compile({ optimizer, loss: cclLoss({ alpha, concave: 'quadratic' }) });
  const epochLosses: number[] = [];
  try {
    await model.fit(xTrain!, yTrainOneHot, {
      epochs,
      batchSize: 32,
      shuffle: false, // deterministic for a seed on one backend
      verbose: 0,
      callbacks: {
        onEpochEnd: async (epoch, logs) => {
          epochLosses.push(logs?.loss ?? Number.NaN);
          options.onEpoch?.(epoch, logs?.loss ?? Number.NaN);
        },
      },
    });
    const measure = (xs: tf.Tensor, ys: tf.Tensor1D) =>
      tf.tidy(() => {
        const logits = model.predict(xs) as tf.Tensor2D;
        const ce = tf.neg(tf.sum(tf.mul(tf.oneHot(ys, data.numClasses), tf.logSoftmax(logits)), 1));
        const accuracy = tf.mean(tf.cast(tf.equal(tf.argMax(logits, 1), ys), 'float32'));
        return { ce: Array.from(ce.dataSync()), accuracy: accuracy.dataSync()[0]! };
      });
    const train = measure(xTrain!, yTrain);
    const test = measure(xTest!, yTest);
    const scores = [...train.ce, ...test.ce].map((v) => -v);
    const isMember = scores.map((_, i) => (i < members ? 1 : 0));
    const attack = summarizeAttack(scores, isMember);
    return {
      backend: tf.getBackend(),
      members,
      epochs,
      epochLosses,
      trainAccuracy: train.accuracy,
      testAccuracy: test.accuracy,
      scores,
      isMember,
      auc: attack.auc,
      advantage: attack.advantage,
      balancedAccuracy: attack.balancedAccuracy,
    };
  } finally {
    model.dispose();
    optimizer.dispose(); // a user-supplied optimizer is not disposed by the model
    tf.dispose([x, y, xTrain!, xTest!, yTrain, yTest, yTrainOneHot]);
  }
}
