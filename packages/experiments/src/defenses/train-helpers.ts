import * as tf from '@tensorflow/tfjs-core';
import {
  adam,
  constantLr,
  cosine,
  InvalidArgumentError,
  multiStep,
  piecewise,
  sgd,
  train,
  type Classifier,
  type LrSchedule,
  type OptionField,
  type Optimizer,
  type TrainingPlugin,
} from '@mia/core';
import type { TrainingConfig } from '../schema/run-schema';
import type { DefenseTrainContext } from './definition';

/**
 * Copies every trainable and state variable of `from` into `to` (same architecture, same variable
 * order, e.g. two models of one `createModel` call shape).
 * @throws InvalidArgumentError when the variable lists differ in length or shape.
 */
export function copyWeights(from: Classifier, to: Classifier): void {
  const a = [...from.trainableVariables, ...from.stateVariables];
  const b = [...to.trainableVariables, ...to.stateVariables];
  const shapes = (vs: readonly tf.Variable[]) => vs.map((v) => `[${v.shape.join(',')}]`).join(' ');
  if (a.length !== b.length || a.some((v, i) => !tf.util.arraysEqual(v.shape, b[i]!.shape))) {
    throw new InvalidArgumentError(`copyWeights: the models must have the same variables, got ${shapes(a)} and ${shapes(b)}`);
  }
  a.forEach((v, i) => b[i]!.assign(v));
}

/** The optimizer and schedule of a training config (docs/protocol.md §2). */
export function optimizerFor(training: TrainingConfig): { optimizer: Optimizer; schedule: LrSchedule } {
  const optimizer =
    training.optimizer === 'adam'
      ? adam({ lr: training.lr, weightDecay: training.weightDecay })
      : sgd({ lr: training.lr, momentum: training.momentum, nesterov: training.nesterov, weightDecay: training.weightDecay });
  const s = training.schedule;
  const schedule =
    s.type === 'cosine'
      ? cosine(training.epochs)
      : s.type === 'multistep'
        ? multiStep(s.milestones, s.gamma)
        : s.type === 'piecewise'
          ? piecewise(s.ranges)
          : constantLr;
  return { optimizer, schedule };
}

/**
 * Trains with the config's optimizer and schedule plus the given plugins; `epochs` stops the run
 * early while the schedule stays the full run's (early-stopping checkpoints, docs/protocol.md §4.11).
 */
export async function trainWithPlugins(
  ctx: Pick<DefenseTrainContext<unknown>, 'model' | 'members' | 'training' | 'seed' | 'label' | 'signal' | 'monitors' | 'augment'>,
  plugins: readonly TrainingPlugin[],
  epochs = ctx.training.epochs,
): Promise<void> {
  const { optimizer, schedule } = optimizerFor(ctx.training);
  try {
    await train(ctx.model, ctx.members, {
      epochs,
      batchSize: ctx.training.batchSize,
      optimizer,
      schedule,
      plugins: [...plugins, ...(ctx.monitors ?? [])],
      seed: ctx.seed,
      label: ctx.label,
      microBatchSize: ctx.training.microBatchSize,
      signal: ctx.signal,
      augment: ctx.augment,
    });
  } finally {
    optimizer.dispose();
    for (const p of plugins) p.dispose?.();
  }
}

/** `fields` without `keys` (a baseline's options that the run sets itself: epochs, batch size, seed). */
export function fieldsWithout<F extends Record<string, OptionField>, K extends keyof F>(fields: F, ...keys: K[]): Omit<F, K> {
  return Object.fromEntries(Object.entries(fields).filter(([k]) => !keys.includes(k as K))) as Omit<F, K>;
}

/**
 * Runs a baseline's own training loop with the run's epochs, batch size, seed, optimizer and
 * schedule (the optimizer is disposed afterwards).
 */
export async function withRunOptimizer(
  ctx: DefenseTrainContext<unknown>,
  trainIt: (common: { epochs: number; batchSize: number; seed: number; optimizer: Optimizer; schedule: LrSchedule }) => Promise<unknown>,
): Promise<void> {
  const { optimizer, schedule } = optimizerFor(ctx.training);
  try {
    await trainIt({ epochs: ctx.training.epochs, batchSize: ctx.training.batchSize, seed: ctx.seed, optimizer, schedule });
  } finally {
    optimizer.dispose();
  }
}
