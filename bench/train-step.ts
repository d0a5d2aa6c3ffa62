// One benchmark training run: fixed batch, cross-entropy on int32 labels and SGD with momentum 0.9
// (`crossEntropy` and `sgd` of @mia/core, PyTorch semantics, as `train` runs them), median ms/step, plus
// leak counters (engine tensors, backend data ids, wasm heap bytes) after warm-up and at the end.
import { crossEntropy, sgd } from '@mia/core';
import * as tf from '@tensorflow/tfjs-core';
import type { BenchModel } from './models';
import { median } from './stats';

export interface StepTiming {
  msStep: number;
  /** Median process CPU time (user + system) per step, ms: less inflated than wall time on a busy machine. */
  cpuMsStep: number;
  minMs: number;
  /** Process CPU time of the fastest step (by CPU), ms: the least disturbed by other processes. */
  minCpuMs: number;
  steps: number;
  /** Untimed warm-up steps before the timed ones. */
  warmupSteps: number;
  /** Engine tensors and backend data ids back to their starting values after disposal. */
  leakFree: boolean;
  /** Growth of the wasm heap from the end of warm-up to the end (fragmentation; 0 = none). */
  heapGrowthMb: number;
  leakDetail: string;
  heapMb: number | undefined;
}

interface Counts {
  tensors: number;
  dataIds: number;
  heapBytes: number | undefined;
}

function counts(): Counts {
  const backend = tf.backend() as unknown as { numDataIds(): number; wasm?: { HEAPU8: Uint8Array } };
  return { tensors: tf.memory().numTensors, dataIds: backend.numDataIds(), heapBytes: backend.wasm?.HEAPU8.buffer.byteLength };
}

/**
 * Warm-up of at least this long (and at most {@link maxWarmupSteps} steps) when `warmup` > 0: V8 needs
 * 15–20 steps of the MLP to compile the JS of tfjs-core and of the kernels (the first steps of the
 * Purchase MLP take 2–3× the steady-state time), so a fixed 2-step warm-up measured mostly JIT.
 */
export const minWarmupMs = 4000;
const maxWarmupSteps = 30;

/**
 * Trains `model` for the warm-up and `steps` more steps on the current backend and times the last
 * `steps`. The warm-up is `warmup` steps, continued while it has taken less than {@link minWarmupMs}
 * (up to 30 steps) when `warmup` > 0.
 * With `microBatches` > 1 each step sums the gradients of that many equal slices of the batch
 * (gradient accumulation; batch-norm statistics are then per slice), which bounds the wasm heap.
 */
export function timeTraining(model: BenchModel, steps: number, warmup: number, microBatches = 1): StepTiming {
  const start = counts();
  const params = new Map<string, tf.Variable>();
  // One step per variable in one kernel call where the backend has the fused update (native does).
  const optimizer = sgd({ lr: 0.01, momentum: 0.9 });
  let index = 0;
  for (const [name, shape] of model.shapes) {
    const fanIn = shape.length === 1 ? 1 : shape.slice(0, -1).reduce((a, b) => a * b, 1);
    const init = tf.tidy(() =>
      name.endsWith('.gamma')
        ? tf.ones(shape)
        : name.endsWith('.beta') || name.endsWith('.b')
          ? tf.zeros(shape)
          : tf.randomUniform(shape, -1 / Math.sqrt(fanIn), 1 / Math.sqrt(fanIn), 'float32', index),
    );
    params.set(name, tf.variable(init, true, `bench_${model.name}_${index}`));
    init.dispose();
    index++;
  }
  const x = tf.tidy(() => tf.randomNormal([model.batch, ...model.inputShape], 0, 1, 'float32', 1));
  const labels = tf.tidy(() => tf.randomUniform([model.batch], 0, model.numClasses, 'int32', 2) as tf.Tensor1D);
  const varList = [...params.values()];
  const slices =
    microBatches === 1
      ? [{ x, labels }]
      : Array.from({ length: microBatches }, (_, i) => {
          const size = model.batch / microBatches;
          return { x: tf.slice(x, i * size, size), labels: tf.slice(labels, i * size, size) };
        });
  const step = (): number => {
    let sum: Map<string, tf.Tensor> | undefined;
    let lossSum = 0;
    for (const slice of slices) {
      const { value, grads } = tf.variableGrads(() => crossEntropy(model.forward(params, slice.x), slice.labels as tf.Tensor1D), varList);
      lossSum += value.dataSync()[0]!;
      value.dispose();
      if (sum === undefined) sum = new Map(Object.entries(grads));
      else {
        for (const [name, g] of Object.entries(grads)) {
          const prev = sum.get(name)!;
          sum.set(name, tf.add(prev, g));
          tf.dispose([prev, g]);
        }
      }
    }
    tf.tidy(() => {
      const grads = Object.fromEntries(varList.map((v) => [v.name, slices.length === 1 ? sum!.get(v.name)! : tf.div(sum!.get(v.name)!, slices.length)]));
      optimizer.applyGradients(varList, grads, 0.01);
    });
    tf.dispose([...sum!.values()]);
    return lossSum / slices.length;
  };
  const times: number[] = [];
  const cpuTimes: number[] = [];
  let warm: Counts | undefined;
  let warmupSteps = 0;
  try {
    const t0 = performance.now();
    for (; warmupSteps < warmup || (warmup > 0 && warmupSteps < maxWarmupSteps && performance.now() - t0 < minWarmupMs); warmupSteps++) step();
    warm = counts();
    for (let i = 0; i < steps; i++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const loss = step();
      times.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpuTimes.push((c.user + c.system) / 1000);
      if (!Number.isFinite(loss)) throw new Error(`bench: non-finite loss at step ${i}`);
    }
  } finally {
    optimizer.dispose();
    tf.dispose([...params.values(), x, labels]);
    if (microBatches > 1) tf.dispose(slices.flatMap((sl) => [sl.x, sl.labels]));
  }
  const end = counts();
  const last = warm!;
  const leakFree = end.tensors === start.tensors && end.dataIds === start.dataIds;
  const heapGrowthMb = last.heapBytes === undefined || end.heapBytes === undefined ? 0 : (end.heapBytes - last.heapBytes) / 2 ** 20;
  return {
    msStep: median(times),
    cpuMsStep: median(cpuTimes),
    minMs: Math.min(...times),
    minCpuMs: Math.min(...cpuTimes),
    steps,
    warmupSteps,
    leakFree,
    heapGrowthMb,
    leakDetail: `tensors ${start.tensors}→${end.tensors}, dataIds ${start.dataIds}→${end.dataIds}, heap ${mb(last.heapBytes)}→${mb(end.heapBytes)} MB`,
    heapMb: end.heapBytes === undefined ? undefined : end.heapBytes / 2 ** 20,
  };
}

const mb = (bytes: number | undefined): string => (bytes === undefined ? '-' : (bytes / 2 ** 20).toFixed(0));
