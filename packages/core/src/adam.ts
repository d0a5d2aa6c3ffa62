import * as tf from '@tensorflow/tfjs-core';
import { nextOptimizerId } from './optimizer-id';
import { ADAM_UPDATE, fusable, hasFusedUpdate, runUpdate } from './optimizer-kernels';
import type { Gradients, NamedState, Optimizer } from './optimizer';
import { checkNumberInRange, variableFrom } from './validate';

/** Options of {@link adam}; names and defaults follow `torch.optim.Adam`. */
export interface AdamOptions {
  /** Base learning rate. @default 1e-3 */
  readonly lr?: number;
  /** β1. @default 0.9 */
  readonly beta1?: number;
  /** β2. @default 0.999 */
  readonly beta2?: number;
  /** ε. @default 1e-8 */
  readonly epsilon?: number;
  /** Coupled L2 weight decay (added to the gradient, PyTorch Adam; not AdamW). @default 0 */
  readonly weightDecay?: number;
}

/**
 * Adam with PyTorch semantics: `g ← g + wd·θ`; `m ← β1·m + (1−β1)·g`; `v ← β2·v + (1−β2)·g²`;
 * `θ ← θ − lr·(m/(1−β1^t)) / (√(v/(1−β2^t)) + ε)`, with a step count per variable.
 *
 * When the active backend registers the {@link ADAM_UPDATE} kernel (`@mia/backend-native` does), each
 * float32 variable is updated by one kernel call (one pass over memory instead of about fifteen tfjs
 * ops), with bit-equal results; otherwise by the tfjs ops.
 * @see https://pytorch.org/docs/stable/generated/torch.optim.Adam.html
 */
export function adam(options: AdamOptions = {}): Optimizer {
  // Buffers are named per optimizer instance: two optimizers on one model (phase 1, then a
  // fresh tuning optimizer) must not collide in tfjs's global variable registry.
  const uid = nextOptimizerId();
  const lr0 = options.lr ?? 1e-3;
  const beta1 = options.beta1 ?? 0.9;
  const beta2 = options.beta2 ?? 0.999;
  const epsilon = options.epsilon ?? 1e-8;
  const weightDecay = options.weightDecay ?? 0;
  checkNumberInRange('adam', 'lr', lr0, 0);
  checkNumberInRange('adam', 'beta1', beta1, 0, 1);
  checkNumberInRange('adam', 'beta2', beta2, 0, 1);
  checkNumberInRange('adam', 'epsilon', epsilon, 0);
  checkNumberInRange('adam', 'weightDecay', weightDecay, 0);
  const slots = new Map<string, { m: tf.Variable; v: tf.Variable; t: number }>();

  return {
    name: 'adam',
    learningRate: lr0,
    applyGradients(variables, grads: Gradients, lr) {
      const fused = hasFusedUpdate(ADAM_UPDATE);
      tf.tidy(() => {
        for (const variable of variables) {
          const raw = grads[variable.name];
          if (raw === undefined) continue;
          let slot = slots.get(variable.name);
          if (slot === undefined) {
            slot = {
              m: tf.keep(tf.variable(tf.zerosLike(variable), false, `${variable.name}/adam_m_${uid}`)),
              v: tf.keep(tf.variable(tf.zerosLike(variable), false, `${variable.name}/adam_v_${uid}`)),
              t: 0,
            };
            slots.set(variable.name, slot);
          }
          slot.t += 1;
          if (fused && fusable(variable, raw, slot.m, slot.v)) {
            const [next, m, v] = runUpdate(
              ADAM_UPDATE,
              { variable, gradient: raw, m: slot.m, v: slot.v },
              { lr, beta1, beta2, epsilon, weightDecay, biasCorrection1: 1 - beta1 ** slot.t, biasCorrection2: 1 - beta2 ** slot.t },
            );
            variable.assign(next!);
            slot.m.assign(m!);
            slot.v.assign(v!);
            continue;
          }
          const g = weightDecay !== 0 ? tf.add(raw, tf.mul(variable, weightDecay)) : raw;
          slot.m.assign(tf.add(tf.mul(slot.m, beta1), tf.mul(g, 1 - beta1)));
          slot.v.assign(tf.add(tf.mul(slot.v, beta2), tf.mul(tf.square(g), 1 - beta2)));
          const mHat = tf.div(slot.m, 1 - beta1 ** slot.t);
          const denom = tf.add(tf.sqrt(tf.div(slot.v, 1 - beta2 ** slot.t)), epsilon);
          variable.assign(tf.sub(variable, tf.mul(tf.div(mHat, denom), lr)));
        }
      });
    },
    getState(): NamedState[] {
      return [...slots].flatMap(([name, s]) => [
        { name: `${name}/m`, tensor: s.m.clone() },
        { name: `${name}/v`, tensor: s.v.clone() },
        { name: `${name}/t`, tensor: tf.scalar(s.t) },
      ]);
    },
    setState(state) {
      this.dispose();
      const byName = new Map(state.map((s) => [s.name, s.tensor]));
      for (const [name, tensor] of byName) {
        if (!name.endsWith('/m')) continue;
        const key = name.slice(0, -2);
        const v = byName.get(`${key}/v`);
        const t = byName.get(`${key}/t`);
        if (v === undefined || t === undefined) continue;
        slots.set(key, {
          m: variableFrom(tensor, false, `${key}/adam_m_${uid}`),
          v: variableFrom(v, false, `${key}/adam_v_${uid}`),
          t: t.dataSync()[0]!,
        });
      }
    },
    dispose() {
      for (const s of slots.values()) {
        s.m.dispose();
        s.v.dispose();
      }
      slots.clear();
    },
  };
}
