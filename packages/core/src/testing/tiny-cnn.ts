import * as tf from '@tensorflow/tfjs-core';
import type { Classifier, ParameterGroup } from '../classifier';
import { seededRandom } from '../random';
import { checkPositiveInteger } from '../validate';

/** Options of {@link tinyCnn}. */
export interface TinyCnnOptions {
  /** `[height, width, channels]`. */
  readonly inputShape: readonly [number, number, number];
  readonly numClasses: number;
  /** Filters of the single 3×3 conv layer. @default 4 */
  readonly filters?: number;
  /** @default 0 */
  readonly seed?: number;
}

let instances = 0;

/**
 * A tiny conv net for tests: conv3×3 (same padding) → ReLU → global average pool → dense, with
 * PyTorch-default uniform initialisation. Features are the pooled conv activations.
 */
export function tinyCnn(options: TinyCnnOptions): Classifier {
  checkPositiveInteger('tinyCnn', 'numClasses', options.numClasses);
  const [h, w, c] = options.inputShape;
  const filters = options.filters ?? 4;
  const random = seededRandom(options.seed ?? 0);
  const uid = (instances++).toString(36);
  const make = (shape: number[], fanIn: number, name: string) => {
    const bound = 1 / Math.sqrt(fanIn);
    const init = tf.tensor(
      Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => (2 * random.next() - 1) * bound),
      shape,
    );
    const v = tf.variable(init, true, `tinyCnn_${uid}/${name}`);
    init.dispose();
    return v;
  };
  const groups: ParameterGroup[] = [
    { name: 'conv', kind: 'conv', weight: make([3, 3, c, filters], 9 * c, 'conv.weight'), bias: make([filters], 9 * c, 'conv.bias') },
    { name: 'fc', kind: 'dense', weight: make([filters, options.numClasses], filters, 'fc.weight'), bias: make([options.numClasses], filters, 'fc.bias') },
  ];
  const variables = groups.flatMap((g) => [g.weight, g.bias!]);
  return {
    numClasses: options.numClasses,
    inputShape: [h, w, c],
    featureDim: filters,
    trainableVariables: variables,
    stateVariables: [],
    parameterGroups: groups,
    forward(x) {
      return tf.tidy(() => {
        const conv = tf.relu(tf.add(tf.conv2d(x as tf.Tensor4D, groups[0]!.weight as tf.Tensor4D, 1, 'same'), groups[0]!.bias!));
        const features = tf.mean(conv, [1, 2]) as tf.Tensor2D;
        const logits = tf.add(tf.matMul(features, groups[1]!.weight as tf.Tensor2D), groups[1]!.bias!) as tf.Tensor2D;
        return { logits, features };
      });
    },
    dispose() {
      for (const v of variables) v.dispose();
    },
  };
}
