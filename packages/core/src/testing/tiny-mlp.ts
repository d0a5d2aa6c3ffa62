import * as tf from '@tensorflow/tfjs-core';
import type { Classifier, ForwardOptions, ForwardResult, ParameterGroup } from '../classifier';
import { seededRandom } from '../random';
import { checkPositiveInteger } from '../validate';

/** Options of {@link tinyMlp}. */
export interface TinyMlpOptions {
  /** Input width. */
  readonly inputDim: number;
  /** Hidden widths. @default [16] */
  readonly hidden?: readonly number[];
  readonly numClasses: number;
  /** @default 0 */
  readonly seed?: number;
  /** Hidden activation. @default 'tanh' */
  readonly activation?: 'tanh' | 'relu';
}

let instances = 0;

function uniformVariable(shape: number[], bound: number, random: ReturnType<typeof seededRandom>, name: string): tf.Variable {
  const size = shape.reduce((a, b) => a * b, 1);
  const values = new Float32Array(size);
  for (let i = 0; i < size; i++) values[i] = (2 * random.next() - 1) * bound;
  const init = tf.tensor(values, shape);
  const v = tf.variable(init, true, name);
  init.dispose();
  return v;
}

/**
 * A small fully connected {@link Classifier} with PyTorch-default initialisation
 * (`U(−1/√fan_in, 1/√fan_in)` for weights and biases), for tests and examples. Features are the
 * last hidden activations. Deterministic for a given seed.
 */
export function tinyMlp(options: TinyMlpOptions): Classifier {
  checkPositiveInteger('tinyMlp', 'inputDim', options.inputDim);
  checkPositiveInteger('tinyMlp', 'numClasses', options.numClasses);
  const hidden = options.hidden ?? [16];
  const random = seededRandom(options.seed ?? 0);
  const act = options.activation === 'relu' ? tf.relu : tf.tanh;
  const uid = (instances++).toString(36);
  const widths = [options.inputDim, ...hidden, options.numClasses];
  const groups: ParameterGroup[] = [];
  for (let i = 0; i + 1 < widths.length; i++) {
    const fanIn = widths[i]!;
    const bound = 1 / Math.sqrt(fanIn);
    const name = i + 1 === widths.length - 1 ? 'fc' : `layers.${i}`;
    groups.push({
      name,
      kind: 'dense',
      weight: uniformVariable([fanIn, widths[i + 1]!], bound, random, `tinyMlp_${uid}/${name}.weight`),
      bias: uniformVariable([widths[i + 1]!], bound, random, `tinyMlp_${uid}/${name}.bias`),
    });
  }
  const variables = groups.flatMap((g) => [g.weight, g.bias!]);
  return {
    numClasses: options.numClasses,
    inputShape: [options.inputDim],
    featureDim: hidden.length > 0 ? hidden[hidden.length - 1]! : options.inputDim,
    trainableVariables: variables,
    stateVariables: [],
    parameterGroups: groups,
    forward(x: tf.Tensor, _options: ForwardOptions): ForwardResult {
      return tf.tidy(() => {
        let h = tf.reshape(x, [x.shape[0]!, options.inputDim]) as tf.Tensor2D;
        for (let i = 0; i + 1 < groups.length; i++) {
          h = act(tf.add(tf.matMul(h, groups[i]!.weight), groups[i]!.bias!)) as tf.Tensor2D;
        }
        const last = groups[groups.length - 1]!;
        const logits = tf.add(tf.matMul(h, last.weight), last.bias!) as tf.Tensor2D;
        return { logits, features: h };
      });
    },
    dispose() {
      for (const v of variables) v.dispose();
    },
  };
}
