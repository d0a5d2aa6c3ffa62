import * as tf from '@tensorflow/tfjs-core';
import { nextOptimizerId } from './optimizer-id';
import { SGD_UPDATE, fusable, hasFusedUpdate, runUpdate } from './optimizer-kernels';
import type { Gradients, NamedState, Optimizer } from './optimizer';
import { check, checkNumberInRange, variableFrom } from './validate';

/** Options of {@link sgd}; names and defaults follow `torch.optim.SGD`. */
export interface SgdOptions {
  /** Base learning rate `lr0`. */
  readonly lr: number;
  /** Momentum μ. @default 0 */
  readonly momentum?: number;
  /** Dampening. @default 0 */
  readonly dampening?: number;
  /** Nesterov momentum (needs momentum > 0 and dampening 0). @default false */
  readonly nesterov?: boolean;
  /** Coupled L2 weight decay, added to the gradient before momentum. @default 0 */
  readonly weightDecay?: number;
}

/**
 * Stochastic gradient descent with **PyTorch semantics** (docs/protocol.md §0):
 * `d = g + wd·θ`; `v ← d` on the first step, then `v ← μ·v + (1 − dampening)·d`;
 * `d ← d + μ·v` (Nesterov) or `d ← v`; `θ ← θ − lr·d`.
 *
 * Unlike `tf.train.momentum` (`v ← μv + lr·g`), the buffer does not absorb the learning rate, so
 * a schedule that changes the LR gives the same updates as PyTorch.
 *
 * When the active backend registers the {@link SGD_UPDATE} kernel (`@mia/backend-native` does), each
 * float32 variable is updated by one kernel call (one pass over memory instead of up to eight tfjs
 * ops), with bit-equal results; otherwise by the tfjs ops.
 * @see https://pytorch.org/docs/stable/generated/torch.optim.SGD.html
 * @throws InvalidArgumentError on a non-positive lr, a momentum outside [0, 1), or Nesterov without momentum.
 */
export function sgd(options: SgdOptions): Optimizer {
  // Buffers are named per optimizer instance: two optimizers on one model (phase 1, then a
  // fresh tuning optimizer) must not collide in tfjs's global variable registry.
  const uid = nextOptimizerId();
  checkNumberInRange('sgd', 'lr', options.lr, 0);
  const momentum = options.momentum ?? 0;
  const dampening = options.dampening ?? 0;
  const weightDecay = options.weightDecay ?? 0;
  const nesterov = options.nesterov ?? false;
  checkNumberInRange('sgd', 'momentum', momentum, 0, 1);
  checkNumberInRange('sgd', 'dampening', dampening, 0, 1);
  checkNumberInRange('sgd', 'weightDecay', weightDecay, 0);
  check(!nesterov || (momentum > 0 && dampening === 0), 'sgd', 'nesterov', 'used with momentum > 0 and dampening 0', { momentum, dampening });
  const buffers = new Map<string, tf.Variable>();

  return {
    name: 'sgd',
    learningRate: options.lr,
    applyGradients(variables, grads: Gradients, lr) {
      const fused = hasFusedUpdate(SGD_UPDATE);
      const attrs = { lr, momentum, dampening, nesterov, weightDecay };
      tf.tidy(() => {
        for (const v of variables) {
          const g = grads[v.name];
          if (g === undefined) continue;
          const buffer = buffers.get(v.name);
          if (fused && fusable(v, g, buffer)) {
            const inputs: tf.NamedTensorMap = buffer === undefined ? { variable: v, gradient: g } : { variable: v, gradient: g, momentum: buffer };
            const [next, nextBuffer] = runUpdate(SGD_UPDATE, inputs, attrs);
            v.assign(next!);
            if (momentum === 0) continue;
            if (buffer === undefined) buffers.set(v.name, tf.keep(tf.variable(nextBuffer!, false, `${v.name}/sgd_momentum_${uid}`)));
            else buffer.assign(nextBuffer!);
            continue;
          }
          let d: tf.Tensor = weightDecay !== 0 ? tf.add(g, tf.mul(v, weightDecay)) : g;
          if (momentum !== 0) {
            if (buffer === undefined) {
              buffers.set(v.name, tf.keep(tf.variable(d, false, `${v.name}/sgd_momentum_${uid}`)));
              d = nesterov ? tf.add(d, tf.mul(d, momentum)) : d;
            } else {
              buffer.assign(tf.add(tf.mul(buffer, momentum), dampening !== 0 ? tf.mul(d, 1 - dampening) : d));
              d = nesterov ? tf.add(d, tf.mul(buffer, momentum)) : buffer;
            }
          }
          v.assign(tf.sub(v, tf.mul(d, lr)));
        }
      });
    },
    getState(): NamedState[] {
      return [...buffers].map(([name, buf]) => ({ name: `${name}/momentum`, tensor: buf.clone() }));
    },
    setState(state) {
      this.dispose();
      for (const { name, tensor } of state) {
        const key = name.replace(/\/momentum$/, '');
        buffers.set(key, variableFrom(tensor, false, `${key}/sgd_momentum_${uid}`));
      }
    },
    dispose() {
      for (const buf of buffers.values()) buf.dispose();
      buffers.clear();
    },
  };
}
