import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { purchaseLike, type StandInOptions } from '@mia/data';
import { cclLoss } from '@mia/defense-ccl';
import { attackAdvantage } from '@mia/metrics';
import { pathToFileURL } from 'node:url';
import { plainMlp } from './plain-model';

/** Options of {@link runCclExample}. */
export interface CclExampleOptions {
  /** Members (training set) and as many non-members. @default 1000 */
  readonly trainSize?: number;
  /** @default 20 */
  readonly epochs?: number;
  /** @default 128 */
  readonly batchSize?: number;
  /** Hidden widths. @default [128] */
  readonly hidden?: readonly number[];
  /** CCL α. @default 0.5 */
  readonly alpha?: number;
  /** CCL concave term. @default 'quadratic' (CCQL) */
  readonly concave?: 'exponential' | 'quadratic';
  /** @default 0 */
  readonly seed?: number;
  /**
   * Generator overrides of the `purchaseLike` stand-in. The default `keep: 0.3` (share of
   * prototype bits a record keeps; the stand-in's own 0.15 is tuned for 10 000 training records)
   * makes a 1000-record CPU run generalise like Purchase100 (≈ 75 % test accuracy), so the loss
   * attack is not trivially perfect. @default { keep: 0.3 }
   */
  readonly dataOverrides?: StandInOptions['overrides'];
  /** Called after every epoch of each run (progress). */
  readonly onEpoch?: (run: 'ce' | 'ccl', epoch: number, loss: number) => void;
}

/** What one training run measured. */
export interface RunSummary {
  readonly loss: 'ce' | 'ccl';
  readonly trainAccuracy: number;
  readonly testAccuracy: number;
  /** Mean per-example CE on the members. */
  readonly trainLossMean: number;
  /** Variance (ddof 0, docs/protocol.md §6 item 17) of the per-example CE on the members. */
  readonly trainLossVariance: number;
  /** Best-threshold TPR − FPR of the loss attack (score = −CE), members vs non-members. */
  readonly lossAttackAdvantage: number;
}

/** Result of {@link runCclExample}. */
export interface CclExampleResult {
  readonly dataset: { readonly name: string; readonly source: string; readonly trainSize: number; readonly testSize: number };
  readonly settings: Required<Omit<CclExampleOptions, 'hidden' | 'onEpoch' | 'dataOverrides'>> & {
    readonly hidden: readonly number[];
    readonly dataOverrides: StandInOptions['overrides'];
  };
  readonly runs: readonly [RunSummary, RunSummary];
}

function perExampleCe(model: { predict(x: tf.Tensor): tf.Tensor | tf.Tensor[] }, x: tf.Tensor, labels: tf.Tensor1D) {
  return tf.tidy(() => {
    const logits = model.predict(x) as tf.Tensor2D;
    const oneHot = tf.oneHot(labels, logits.shape[1]!);
    const ce = tf.neg(tf.sum(tf.mul(oneHot, tf.logSoftmax(logits)), 1));
    const correct = tf.cast(tf.equal(tf.argMax(logits, 1), labels), 'float32');
    return [ce.dataSync().slice() as Float32Array, tf.mean(correct).dataSync()[0]!] as const;
  });
}

/**
 * Trains the same plain `tf.sequential` MLP twice on a Purchase-like split, once with
 * softmax cross-entropy on the logits and once with `cclLoss(...)` from `@mia/defense-ccl`, and measures
 * accuracy, the members' loss mean and variance, and the loss attack's advantage.
 */
export async function runCclExample(options: CclExampleOptions = {}): Promise<CclExampleResult> {
  const settings = {
    trainSize: options.trainSize ?? 1000,
    epochs: options.epochs ?? 20,
    batchSize: options.batchSize ?? 128,
    hidden: options.hidden ?? [128],
    alpha: options.alpha ?? 0.5,
    concave: options.concave ?? 'quadratic',
    seed: options.seed ?? 0,
    dataOverrides: options.dataOverrides ?? { keep: 0.3 },
  } as const;
  await tf.setBackend('cpu');
  const data = purchaseLike({ size: 2 * settings.trainSize, seed: settings.seed, overrides: settings.dataOverrides });
  const n = settings.trainSize;
  const members = Int32Array.from({ length: n }, (_, i) => i);
  const nonMembers = Int32Array.from({ length: n }, (_, i) => n + i);
  const xTrain = data.gather(members);
  const xTest = data.gather(nonMembers);
  const yTrain = tf.tensor1d(data.y.subarray(0, n), 'int32');
  const yTest = tf.tensor1d(data.y.subarray(n, 2 * n), 'int32');
  const yTrainOneHot = tf.oneHot(yTrain, data.numClasses);
  const isMember = [...new Array<number>(n).fill(1), ...new Array<number>(n).fill(0)];

  const runOne = async (kind: 'ce' | 'ccl'): Promise<RunSummary> => {
    const model = plainMlp(data.numFeatures, data.numClasses, settings.hidden, settings.seed);
    const loss =
      kind === 'ce'
        ? (yTrue: tf.Tensor, yPred: tf.Tensor) => tf.losses.softmaxCrossEntropy(yTrue, yPred)
        : cclLoss({ alpha: settings.alpha, concave: settings.concave });
    const optimizer = tf.train.momentum(0.05, 0.9);
    model.compile({ optimizer, loss });
    await model.fit(xTrain, yTrainOneHot, {
      epochs: settings.epochs,
      batchSize: settings.batchSize,
      shuffle: true,
      verbose: 0,
      callbacks: { onEpochEnd: async (epoch, logs) => options.onEpoch?.(kind, epoch, logs?.loss ?? NaN) },
    });
    const [trainCe, trainAccuracy] = perExampleCe(model, xTrain, yTrain);
    const [testCe, testAccuracy] = perExampleCe(model, xTest, yTest);
    model.dispose();
    optimizer.dispose(); // a user-supplied optimizer is not owned (nor disposed) by the model
    const mean = trainCe.reduce((a, b) => a + b, 0) / n;
    const variance = trainCe.reduce((a, b) => a + (b - mean) ** 2, 0) / n;
    const scores = [...Array.from(trainCe, (v) => -v), ...Array.from(testCe, (v) => -v)];
    return {
      loss: kind,
      trainAccuracy,
      testAccuracy,
      trainLossMean: mean,
      trainLossVariance: variance,
      lossAttackAdvantage: attackAdvantage(scores, isMember),
    };
  };
  try {
    const ce = await runOne('ce');
    const ccl = await runOne('ccl');
    return { dataset: { name: data.name, source: data.source, trainSize: n, testSize: n }, settings, runs: [ce, ccl] };
  } finally {
    tf.dispose([xTrain, xTest, yTrain, yTest, yTrainOneHot]);
  }
}

function formatTable(result: CclExampleResult): string {
  const rows = result.runs.map((r) =>
    [
      r.loss.padEnd(4),
      (100 * r.trainAccuracy).toFixed(1).padStart(9),
      (100 * r.testAccuracy).toFixed(1).padStart(8),
      r.trainLossMean.toFixed(4).padStart(10),
      r.trainLossVariance.toFixed(4).padStart(10),
      (100 * r.lossAttackAdvantage).toFixed(1).padStart(12),
    ].join(' '),
  );
  const [ce, ccl] = result.runs;
  const summary = `CCL vs CE: train-loss variance ×${(ccl.trainLossVariance / ce.trainLossVariance).toFixed(2)}, loss-attack advantage ${(100 * (ccl.lossAttackAdvantage - ce.lossAttackAdvantage)).toFixed(1)} points, test accuracy ${(100 * (ccl.testAccuracy - ce.testAccuracy)).toFixed(1)} points`;
  return ['loss train acc test acc  loss mean  loss var  loss adv (%)', ...rows, summary].join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string): number | undefined => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? Number(process.argv[i + 1]) : undefined;
  };
  const result = await runCclExample({
    trainSize: arg('train-size'),
    epochs: arg('epochs'),
    alpha: arg('alpha'),
    seed: arg('seed'),
    onEpoch: (run, epoch, loss) => process.stderr.write(`${run} epoch ${epoch + 1}: loss ${loss.toFixed(4)}\n`),
  });
  console.log(
    `${result.dataset.name} (${result.dataset.source}, overrides ${JSON.stringify(result.settings.dataOverrides)}), ${result.dataset.trainSize} members / ${result.dataset.testSize} non-members, ${result.settings.epochs} epochs, CCL α = ${result.settings.alpha} (${result.settings.concave})`,
  );
  console.log(formatTable(result));
  if (process.argv.includes('--json')) console.log(JSON.stringify(result, null, 2));
}
