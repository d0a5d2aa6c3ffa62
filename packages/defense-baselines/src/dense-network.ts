import * as tf from '@tensorflow/tfjs-core';
import { check, checkPositiveInteger, seededRandom, type Random } from '@mia/core';

/** Weight initialisation of a {@link DenseNetwork}. */
export type DenseInit =
  /** PyTorch `nn.Linear` default: weights and biases `U(±1/√fan_in)`. */
  | 'pytorch'
  /** Weights `N(0, 0.01²)`, biases 0 (SEL attack models, RL non-image AdvReg). */
  | 'normal'
  /** Glorot-uniform weights, zero biases (Keras default; MemGuard). */
  | 'glorot';

let instances = 0;

function initValues(size: number, fanIn: number, fanOut: number, init: DenseInit, isBias: boolean, random: Random): Float32Array {
  const values = new Float32Array(size);
  if ((init === 'normal' || init === 'glorot') && isBias) return values;
  const bound = init === 'glorot' ? Math.sqrt(6 / (fanIn + fanOut)) : 1 / Math.sqrt(fanIn);
  for (let i = 0; i < size; i++) values[i] = init === 'normal' ? random.normal(0, 0.01) : (2 * random.next() - 1) * bound;
  return values;
}

/**
 * A stack of fully connected layers `widths[0] → widths[1] → … → widths[k]` with ReLU between
 * layers (and after the last one when `reluLast`), owning its variables. The building block of the
 * attack models of AdvReg and MemGuard.
 */
export class DenseNetwork {
  readonly widths: readonly number[];
  readonly layers: ReadonlyArray<{ readonly weight: tf.Variable; readonly bias: tf.Variable }>;
  private readonly reluLast: boolean;

  /**
   * @param widths - input width then each layer's width (at least two entries).
   * @param options.init - {@link DenseInit}. @default 'pytorch'
   * @param options.reluLast - apply ReLU after the last layer too. @default false
   * @throws InvalidArgumentError on bad widths.
   */
  constructor(widths: readonly number[], options: { init?: DenseInit; seed?: number; reluLast?: boolean; random?: Random } = {}) {
    check(widths.length >= 2, 'DenseNetwork', 'widths', 'at least two widths', widths);
    widths.forEach((w, i) => checkPositiveInteger('DenseNetwork', `widths[${i}]`, w));
    const random = options.random ?? seededRandom(options.seed ?? 0);
    const init = options.init ?? 'pytorch';
    const uid = `dense_${(instances++).toString(36)}`;
    this.widths = [...widths];
    this.reluLast = options.reluLast ?? false;
    this.layers = widths.slice(1).map((out, i) => {
      const fanIn = widths[i]!;
      const make = (shape: number[], isBias: boolean, name: string) => {
        const t = tf.tensor(
          initValues(
            shape.reduce((a, b) => a * b, 1),
            fanIn,
            out,
            init,
            isBias,
            random,
          ),
          shape,
        );
        const v = tf.variable(t, true, `${uid}/${i}.${name}`);
        t.dispose();
        return v;
      };
      return { weight: make([fanIn, out], false, 'weight'), bias: make([out], true, 'bias') };
    });
  }

  /** Every variable, weights and biases in layer order. */
  get variables(): tf.Variable[] {
    return this.layers.flatMap((l) => [l.weight, l.bias]);
  }

  /** Runs the stack on `[n, widths[0]]`; returns `[n, widths.at(-1)]`. */
  apply(x: tf.Tensor2D): tf.Tensor2D {
    return tf.tidy(() => {
      let h = x;
      this.layers.forEach((layer, i) => {
        h = tf.add(tf.matMul(h, layer.weight), layer.bias) as tf.Tensor2D;
        if (i + 1 < this.layers.length || this.reluLast) h = tf.relu(h);
      });
      return h;
    });
  }

  dispose(): void {
    for (const v of this.variables) v.dispose();
  }
}
