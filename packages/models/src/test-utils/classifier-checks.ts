import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { useCpuTraining } from '@mia/core';
import { expect } from 'vitest';
import type { ModelClassifier } from '../model-classifier';

/** Selects the cpu backend with its fast filter gradient (tests only). */
export async function useCpu(): Promise<void> {
  await tf.setBackend('cpu');
  useCpuTraining();
}

/**
 * Lets the event loop run (vitest's worker RPC times out when a test blocks it for about a minute,
 * which the slow cpu backend does on a loaded machine).
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** A seeded random batch `[n, ...shape]`. */
export function randomBatch(n: number, shape: readonly number[], seed = 1): tf.Tensor {
  return tf.randomNormal([n, ...shape], 0, 1, 'float32', seed);
}

/**
 * Checks the forward contract on a batch of 2: logits `[2, C]`, features `[2, featureDim]`,
 * finite, eval mode deterministic, no leaked tensor, and (for models with BN) that a training
 * forward updates running statistics only when `updateStatistics` is not false.
 */
export async function checkForwardContract(model: ModelClassifier, shape: readonly number[] = model.inputShape): Promise<void> {
  const x = randomBatch(2, shape);
  const before = tf.memory().numTensors;
  const a = model.forward(x, { training: false });
  await yieldToEventLoop();
  const b = model.forward(x, { training: false });
  await yieldToEventLoop();
  expect(a.logits.shape).toEqual([2, model.numClasses]);
  expect(a.features.shape).toEqual([2, model.featureDim]);
  const logits = a.logits.arraySync();
  expect(logits.flat().every(Number.isFinite)).toBe(true);
  expect(b.logits.arraySync()).toEqual(logits);
  tf.dispose([a.logits, a.features, b.logits, b.features]);
  expect(tf.memory().numTensors).toBe(before);
  if (model.stateVariables.length > 0) {
    const state0 = model.stateVariables[0]!;
    const initial = state0.dataSync().slice();
    const frozen = model.forward(x, { training: true, updateStatistics: false });
    tf.dispose([frozen.logits, frozen.features]);
    await yieldToEventLoop();
    expect(sameValues(state0.dataSync(), initial)).toBe(true);
    const live = model.forward(x, { training: true });
    tf.dispose([live.logits, live.features]);
    expect(sameValues(state0.dataSync(), initial)).toBe(false);
    expect(tf.memory().numTensors).toBe(before);
  }
  x.dispose();
}

/**
 * Runs plain SGD steps (tf.variableGrads + manual update, as core's `train` will) on one fixed
 * batch and returns the losses. Also checks that every trainable variable gets a gradient and
 * that no tensor leaks.
 */
export async function sgdLosses(model: ModelClassifier, x: tf.Tensor, labels: number[], steps: number, lr: number): Promise<number[]> {
  const y = tf.oneHot(tf.tensor1d(labels, 'int32'), model.numClasses);
  const before = tf.memory().numTensors;
  const losses: number[] = [];
  for (let i = 0; i < steps; i++) {
    const { value, grads } = tf.variableGrads(
      () => tf.losses.softmaxCrossEntropy(y, model.forward(x, { training: true, seed: i }).logits) as tf.Scalar,
      model.trainableVariables as tf.Variable[],
    );
    expect(Object.keys(grads).length).toBe(model.trainableVariables.length);
    losses.push(value.dataSync()[0]!);
    tf.tidy(() => {
      for (const v of model.trainableVariables) v.assign(tf.sub(v, tf.mul(grads[v.name]!, lr)));
    });
    value.dispose();
    tf.dispose(grads);
    await yieldToEventLoop();
  }
  expect(tf.memory().numTensors).toBe(before);
  y.dispose();
  return losses;
}

/** Names and kinds of the parameter groups, for compact assertions. */
export function groupSummary(model: ModelClassifier): string[] {
  return model.parameterGroups.map((g) => `${g.name}:${g.kind}`);
}

/** Exact equality of two typed arrays (fast, unlike a deep `toEqual` on millions of elements). */
export function sameValues(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Root mean square of a variable's values (the std of a zero-mean initialisation). */
export function rms(v: tf.Tensor): number {
  const values = v.dataSync() as Float32Array;
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i]! * values[i]!;
  return Math.sqrt(s / values.length);
}
