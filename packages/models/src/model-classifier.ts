import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, ShapeMismatchError, deriveSeed, seededRandom } from '@mia/core';
import type { Classifier, ForwardOptions, ForwardResult } from '@mia/core';
import type { Layer, RunContext } from './layer';
import type { ParameterStore } from './parameter-store';

/** A plain-JSON description of how a model was built, stored in checkpoints. */
export type ModelConfig = Readonly<Record<string, string | number | boolean | readonly number[] | null>>;

/**
 * A {@link Classifier} built by `@mia/models`: it knows its architecture name and build options
 * (so it can be saved and rebuilt), the checkpoint name of each variable, and its forward cost.
 */
export interface ModelClassifier extends Classifier {
  /** Registry name, e.g. `'resnet18'`. */
  readonly architecture: string;
  /** The resolved build options (every default filled in), enough to rebuild the same model. */
  readonly config: ModelConfig;
  /** Trainable then state variables with their PyTorch-like names (`layer1.0.bn1.running_mean`). */
  namedVariables(): ReadonlyArray<{ readonly name: string; readonly variable: tf.Variable }>;
  /** FLOPs (2 × multiply-accumulates of conv and dense layers) of one forward pass of one example. */
  forwardFlops(): number;
}

/** What an architecture file hands to {@link modelClassifier}. @internal */
export interface NetworkDefinition {
  readonly architecture: string;
  readonly config: ModelConfig;
  readonly store: ParameterStore;
  readonly inputShape: readonly number[];
  readonly numClasses: number;
  readonly featureDim: number;
  /** Input → penultimate features `[n, featureDim]`. */
  readonly body: Layer;
  /** Features → logits `[n, numClasses]` (including any dropout before the last layer). */
  readonly head: Layer;
}

/**
 * Wraps a network definition as a {@link ModelClassifier}: input-shape validation, `tf.tidy`,
 * seeded dropout (from `options.seed`, else from a stream derived from the build seed).
 * @internal
 */
export function modelClassifier(def: NetworkDefinition): ModelClassifier {
  const { store } = def;
  const fallbackSeeds = seededRandom(deriveSeed(store.random.seed, 'dropout'));
  let disposed = false;
  const run = (x: tf.Tensor, ctx: RunContext): ForwardResult => {
    const features = def.body(x, ctx) as tf.Tensor2D;
    const logits = def.head(features, ctx) as tf.Tensor2D;
    return { logits, features };
  };
  return {
    architecture: def.architecture,
    config: def.config,
    numClasses: def.numClasses,
    inputShape: def.inputShape,
    featureDim: def.featureDim,
    trainableVariables: store.trainable,
    stateVariables: store.state,
    parameterGroups: store.groups,
    forward(x: tf.Tensor, options: ForwardOptions): ForwardResult {
      if (disposed) throw new InvalidArgumentError(`${def.architecture}.forward: the model has been disposed`);
      if (typeof options !== 'object' || options === null || typeof options.training !== 'boolean') {
        throw new InvalidArgumentError(`${def.architecture}.forward: options.training must be a boolean, got ${String(options?.training)}`);
      }
      const shape = x.shape.slice(1);
      if (x.rank < 1 || shape.length !== def.inputShape.length || shape.some((d, i) => d !== def.inputShape[i])) {
        throw new ShapeMismatchError(`${def.architecture}.forward: x must have shape [n, ${def.inputShape.join(', ')}], got [${x.shape.join(', ')}]`);
      }
      if (options.tape !== undefined && !options.training) {
        // Evaluation mode frees each activation once the next exists; a tape's backward pass needs them.
        throw new InvalidArgumentError(`${def.architecture}.forward: options.tape needs training: true, got training: false`);
      }
      const base = options.seed ?? (options.training ? fallbackSeeds.uint32() : 0);
      let calls = 0;
      const ctx: RunContext = {
        training: options.training,
        updateStatistics: options.training && (options.updateStatistics ?? true),
        nextSeed: () => deriveSeed(base, calls++),
        ...(options.tape === undefined ? {} : { tape: options.tape }),
      };
      const out = tf.tidy(() => {
        const { logits, features } = run(x.dtype === 'float32' ? x : tf.cast(x, 'float32'), ctx);
        return { logits, features };
      });
      return out as unknown as ForwardResult;
    },
    namedVariables() {
      return [...store.trainable, ...store.state].map((variable) => ({ name: store.localNames.get(variable)!, variable }));
    },
    forwardFlops() {
      const flops = { total: 0 };
      const ctx: RunContext = { training: false, updateStatistics: false, nextSeed: () => 0, flops };
      tf.tidy(() => {
        run(tf.zeros([1, ...def.inputShape]), ctx);
      });
      return flops.total;
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      for (const v of [...store.trainable, ...store.state]) v.dispose();
    },
  };
}
