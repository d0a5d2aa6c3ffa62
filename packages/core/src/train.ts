import './register-gradients';
import * as tf from '@tensorflow/tfjs-core';
import type { Classifier } from './classifier';
import { AbortError, InvalidArgumentError, ShapeMismatchError, TrainingDivergedError } from './errors';
import { checkLabels, type LabeledData } from './labeled-data';
import { constantLr } from './lr-schedules';
import { createProgressBar } from './progress-bar';
import { deriveSeed, seededRandom } from './random';
import { createStepRunner } from './train-step';
import { restoreTrainingState, saveTrainingState } from './training-state';
import type { EpochSummary, TrainOptions, TrainResult } from './train-options';
import type { EpochInfo, TrainingPlugin } from './training-plugin';
import { check, checkPositiveInteger } from './validate';

/** How often a training loop gives the event loop a turn (ms). */
const YIELD_EVERY_MS = 200;

/** Resolves on the next macrotask (setImmediate in Node, setTimeout elsewhere). */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));
}

function validate(classifier: Classifier, data: LabeledData, options: TrainOptions): void {
  checkPositiveInteger('train', 'epochs', options.epochs);
  checkPositiveInteger('train', 'batchSize', options.batchSize);
  if (options.microBatchSize !== undefined) checkPositiveInteger('train', 'microBatchSize', options.microBatchSize);
  check(data.size > 0, 'train', 'data.size', 'at least 1 example', data.size);
  if (data.numClasses !== classifier.numClasses) {
    throw new ShapeMismatchError(`train: data.numClasses must equal classifier.numClasses (${classifier.numClasses}), got ${data.numClasses}`);
  }
  if (data.inputShape.join(',') !== classifier.inputShape.join(',')) {
    throw new ShapeMismatchError(
      `train: data.inputShape must equal classifier.inputShape [${classifier.inputShape.join(', ')}], got [${data.inputShape.join(', ')}]`,
    );
  }
  checkLabels('train', data.y, data.numClasses, data.size);
  const steppers = (options.plugins ?? []).filter((p) => p.step !== undefined);
  if (steppers.length > 1) {
    throw new InvalidArgumentError(`train: at most one plugin may define step, got ${steppers.map((p) => p.name).join(', ')}`);
  }
  if (options.checkpoint?.every !== undefined) checkPositiveInteger('train', 'checkpoint.every', options.checkpoint.every);
}

async function callHooks(plugins: readonly TrainingPlugin[], hook: 'onTrainStart' | 'onEpochStart' | 'onTrainEnd', info: EpochInfo) {
  for (const p of plugins) await p[hook]?.(info);
}

/**
 * The one training loop of `@mia/*`: epochs × seeded shuffled mini-batches, every step inside
 * `tf.tidy`, PyTorch-semantics optimizer and per-epoch LR schedule, plugins (defenses), progress
 * events and bar, `AbortSignal`, atomic checkpoints with exact resume, and gradient accumulation.
 *
 * Reproducibility: batch order of epoch e comes from `deriveSeed(seed, 'shuffle', e)` and the
 * stochastic layers of step s from `deriveSeed(seed, 'step', s)`, so the same seed gives
 * bit-identical weights on the same backend, and resuming at an epoch boundary gives the same
 * weights as an uninterrupted run.
 *
 * @throws InvalidArgumentError / ShapeMismatchError / InvalidDatasetError on bad input (before any work).
 * @throws TrainingDivergedError when the loss is not finite (naming epoch and step); checkpoints already written are kept.
 * @throws AbortError when `options.signal` fires.
 */
export async function train(classifier: Classifier, data: LabeledData, options: TrainOptions): Promise<TrainResult> {
  validate(classifier, data, options);
  const plugins = options.plugins ?? [];
  const seed = options.seed ?? 0;
  const schedule = options.schedule ?? constantLr;
  const { epochs, batchSize } = options;
  const batchesPerEpoch = options.dropLast === true ? Math.floor(data.size / batchSize) : Math.ceil(data.size / batchSize);
  check(batchesPerEpoch > 0, 'train', 'batchSize', `at most data.size (${data.size}) with dropLast`, batchSize);
  const runner = createStepRunner(classifier, options, plugins);
  const history: EpochSummary[] = [];
  let startEpoch = 0;
  if (options.resume === true && options.checkpoint !== undefined) {
    const restored = await restoreTrainingState(options.checkpoint.path, classifier, options.optimizer, plugins);
    if (restored !== undefined) {
      startEpoch = restored.epochsDone;
      history.push(...restored.history);
    }
  }
  const lrAt = (epoch: number) => schedule(epoch, options.optimizer.learningRate);
  await callHooks(plugins, 'onTrainStart', { model: classifier, epoch: startEpoch, epochs, learningRate: lrAt(startEpoch) });
  const showBar = options.progressBar === true || options.progressBar === undefined || options.progressBar === 'auto';
  const bar = createProgressBar(options.label ?? 'train', (epochs - startEpoch) * batchesPerEpoch, { force: options.progressBar === true });
  const started = Date.now();
  let step = startEpoch * batchesPerEpoch;
  let lastYield = Date.now();
  for (let epoch = startEpoch; epoch < epochs; epoch++) {
    const learningRate = lrAt(epoch);
    const info: EpochInfo = { model: classifier, epoch, epochs, learningRate };
    await callHooks(plugins, 'onEpochStart', info);
    const order =
      options.shuffle === false ? Int32Array.from({ length: data.size }, (_, i) => i) : seededRandom(deriveSeed(seed, 'shuffle', epoch)).permutation(data.size);
    const epochStart = Date.now();
    let lossSum = 0;
    let correct = 0;
    let seen = 0;
    for (let b = 0; b < batchesPerEpoch; b++) {
      // Steps are synchronous: yield to the event loop now and then so timers, I/O, an AbortSignal
      // fired from a timer, and a test runner's heartbeats get through during long epochs.
      if (Date.now() - lastYield >= YIELD_EVERY_MS) {
        await yieldToEventLoop();
        lastYield = Date.now();
      }
      if (options.signal?.aborted === true) {
        bar.done('aborted');
        await callHooks(plugins, 'onTrainEnd', info);
        throw new AbortError(`train: aborted at epoch ${epoch}, batch ${b} (0-based); the last checkpoint is kept`, { cause: options.signal.reason });
      }
      const indices = order.subarray(b * batchSize, Math.min((b + 1) * batchSize, data.size));
      const result = runner.runBatch(data, indices, {
        epoch,
        epochs,
        step,
        batchIndex: b,
        batchesPerEpoch,
        learningRate,
        seed: deriveSeed(seed, 'step', step),
      });
      if (!Number.isFinite(result.loss)) {
        bar.done('diverged');
        throw new TrainingDivergedError(`train: loss is ${result.loss} at epoch ${epoch} (0-based), step ${step}; the last checkpoint is kept`);
      }
      lossSum += result.loss * indices.length;
      correct += result.correct;
      seen += indices.length;
      step += 1;
      const elapsedMs = Date.now() - started;
      const doneSteps = step - startEpoch * batchesPerEpoch;
      const etaMs = (elapsedMs / doneSteps) * ((epochs - startEpoch) * batchesPerEpoch - doneSteps);
      options.onProgress?.({ epoch, epochs, batch: b + 1, batchesPerEpoch, loss: result.loss, learningRate, elapsedMs, etaMs });
      if (showBar) bar.update(doneSteps, `epoch ${epoch + 1}/${epochs} loss ${result.loss.toFixed(4)}`);
    }
    const summary: EpochSummary = { epoch, loss: lossSum / seen, accuracy: correct / seen, learningRate, seconds: (Date.now() - epochStart) / 1000 };
    history.push(summary);
    for (const p of plugins) await p.onEpochEnd?.({ ...info, loss: summary.loss, accuracy: summary.accuracy });
    const every = options.checkpoint?.every ?? 1;
    if (options.checkpoint !== undefined && ((epoch + 1) % every === 0 || epoch + 1 === epochs)) {
      await saveTrainingState(options.checkpoint.path, classifier, options.optimizer, plugins, epoch + 1, history);
    }
  }
  if (showBar) bar.done();
  await callHooks(plugins, 'onTrainEnd', { model: classifier, epoch: epochs - 1, epochs, learningRate: lrAt(epochs - 1) });
  return { history, startEpoch };
}
