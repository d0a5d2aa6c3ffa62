import * as tf from '@tensorflow/tfjs-core';
import type { Classifier } from './classifier';
import { crossEntropy } from './cross-entropy';
import type { LabeledData } from './labeled-data';
import type { Gradients } from './optimizer';
import { seededRandom } from './random';
import type { TrainOptions } from './train-options';
import type { BatchContext, GradientResult, LossContext, StepTools, TrainingPlugin } from './training-plugin';

/** Counters of one batch, passed from the loop. */
export interface BatchCounters {
  readonly epoch: number;
  readonly epochs: number;
  readonly step: number;
  readonly batchIndex: number;
  readonly batchesPerEpoch: number;
  readonly learningRate: number;
  readonly seed: number;
}

/** Composes the plugins' `loss` hooks: each sees the objective of those before it as `baseLoss`. */
export function composeLoss(plugins: readonly TrainingPlugin[], ctx: LossContext): tf.Scalar {
  let base = (): tf.Scalar => crossEntropy(ctx.logits, ctx.labels);
  for (const p of plugins) {
    if (p.loss === undefined) continue;
    const previous = base;
    const hook = p.loss.bind(p);
    base = () => hook(ctx, previous);
  }
  return base();
}

function sumScaled(into: Gradients | undefined, grads: Gradients, weight: number): Gradients {
  const out: Gradients = {};
  for (const [name, g] of Object.entries(grads)) {
    const scaled = weight === 1 ? g : tf.mul(g, weight);
    out[name] = into?.[name] === undefined ? scaled : tf.add(into[name]!, scaled);
  }
  for (const [name, g] of Object.entries(into ?? {})) if (out[name] === undefined) out[name] = g;
  return out;
}

/**
 * Builds the per-batch step of {@link train}: forward/backward (optionally over micro-batches),
 * plugin gradient adjustments, and the optimizer updates, all inside one `tf.tidy`.
 * @internal
 */
export function createStepRunner(classifier: Classifier, options: TrainOptions, plugins: readonly TrainingPlugin[]) {
  const modelVariables = classifier.trainableVariables;
  const pluginVariables = plugins.flatMap((p) => p.variables ?? []);
  const variables = [...modelVariables, ...pluginVariables];
  const stepper = plugins.find((p) => p.step !== undefined);
  const adjusters = plugins.filter((p) => p.adjustGradients !== undefined);
  const micro = options.microBatchSize;

  return {
    runBatch(data: LabeledData, indices: Int32Array, counters: BatchCounters): { loss: number; correct: number } {
      const correctParts: tf.Tensor[] = [];
      let counting = true;
      let lossTensor: tf.Scalar;
      try {
        lossTensor = tf.tidy(() => {
          let x = data.gather(indices);
          if (options.augment !== undefined) {
            const augmented = options.augment(x, seededRandom(counters.seed).fork('augment'));
            if (augmented !== x) x.dispose();
            x = augmented;
          }
          const labelValues = Int32Array.from(indices, (i) => data.y[i]!);
          const labels = tf.tensor1d(labelValues, 'int32');
          const ctx: BatchContext = { model: classifier, ...counters, x, labels, labelValues, indices, numClasses: data.numClasses };

          const gradientsOf = (cx: BatchContext, updateStatistics: boolean): GradientResult => {
            // tfjs leaks the tensors of a variableGrads closure that throws, so a failure (a model
            // or plugin error) is caught inside, a zero loss connected to the variables is returned,
            // and the error is rethrown once variableGrads has cleaned up.
            let failure: { error: unknown } | undefined;
            const { value, grads } = tf.variableGrads(() => {
              try {
                const { logits, features } = classifier.forward(cx.x, { training: true, updateStatistics, seed: cx.seed });
                if (counting) correctParts.push(tf.keep(tf.sum(tf.cast(tf.equal(tf.argMax(logits, 1), cx.labels), 'int32'))));
                return composeLoss(plugins, { ...cx, logits, features });
              } catch (error) {
                failure = { error };
                return tf.mul(tf.sum(variables[0]!), 0) as tf.Scalar;
              }
            }, variables);
            if (failure !== undefined) {
              tf.dispose([value, ...Object.values(grads)]);
              throw failure.error;
            }
            return { loss: value, grads };
          };

          const tools: StepTools = {
            variables,
            computeGradients(opts = {}) {
              const update = opts.updateStatistics ?? true;
              if (micro === undefined || micro >= indices.length) {
                const result = gradientsOf(ctx, update);
                counting = false;
                return result;
              }
              let total: Gradients | undefined;
              let loss: tf.Tensor = tf.scalar(0);
              const n = indices.length;
              for (let start = 0; start < n; start += micro) {
                const size = Math.min(micro, n - start);
                const sub: BatchContext = {
                  ...ctx,
                  x: tf.slice(x, start, size),
                  labels: tf.slice(labels, start, size),
                  labelValues: labelValues.subarray(start, start + size),
                  indices: indices.subarray(start, start + size),
                };
                const part = gradientsOf(sub, update);
                total = sumScaled(total, part.grads, size / n);
                loss = tf.add(loss, tf.mul(part.loss, size / n));
              }
              counting = false;
              return { loss: loss as tf.Scalar, grads: total ?? {} };
            },
            applyGradients(grads: Gradients) {
              let adjusted = grads;
              for (const p of adjusters) adjusted = p.adjustGradients!(ctx, adjusted);
              options.optimizer.applyGradients(modelVariables, adjusted, counters.learningRate);
              for (const p of plugins) {
                if (p.variables === undefined || p.variables.length === 0) continue;
                const opt = p.optimizer ?? options.optimizer;
                opt.applyGradients(p.variables, adjusted, p.optimizer === undefined ? counters.learningRate : opt.learningRate);
              }
            },
          };
          if (stepper !== undefined) return stepper.step!(ctx, tools);
          const { loss, grads } = tools.computeGradients();
          tools.applyGradients(grads);
          return loss;
        });
      } catch (error) {
        // tidy frees its own tensors on a throw; the kept correctness counts are ours to free.
        for (const part of correctParts) part.dispose();
        throw error;
      }
      const loss = lossTensor.dataSync()[0]!;
      lossTensor.dispose();
      let correct = 0;
      for (const part of correctParts) {
        correct += part.dataSync()[0]!;
        part.dispose();
      }
      return { loss, correct };
    },
  };
}
