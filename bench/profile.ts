// Per-kernel time of one training step (tf.profile), summed by kernel name: where a step goes.
import * as tf from '@tensorflow/tfjs-core';
import type { BenchModel } from './models';
import { timeTraining } from './train-step';

/** Profiles one step after a warm-up (see `timeTraining`); returns lines "kernel: ms (calls)" sorted by time. */
export async function profileStep(model: BenchModel): Promise<string[]> {
  timeTraining(model, 1, 1); // warm-up (JIT, heap growth): at least 4 s, see minWarmupMs
  const info = await tf.profile(() => {
    timeTraining(model, 1, 0);
  });
  const byKernel = new Map<string, { ms: number; calls: number }>();
  for (const k of info.kernels) {
    const ms = typeof k.kernelTimeMs === 'number' ? k.kernelTimeMs : 0;
    const e = byKernel.get(k.name) ?? { ms: 0, calls: 0 };
    e.ms += ms;
    e.calls++;
    byKernel.set(k.name, e);
  }
  const total = [...byKernel.values()].reduce((s, e) => s + e.ms, 0);
  return [...byKernel.entries()]
    .sort((a, b) => b[1].ms - a[1].ms)
    .map(([name, e]) => `${name.padEnd(24)} ${e.ms.toFixed(1).padStart(9)} ms ${((100 * e.ms) / total).toFixed(1).padStart(5)}%  (${e.calls} calls)`)
    .concat([`${'total'.padEnd(24)} ${total.toFixed(1).padStart(9)} ms`]);
}
