// Forward (eval) and training-step (forward + backward + SGD update) time per architecture at a
// fixed batch, on the cpu backend or on wasm with @mia/backend-wasm's training kernels.
// Medians over --steps runs after one warm-up; the machine is shared, so numbers are noisy.
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { countParameters } from '@mia/core';
import { createModel, type CreateModelOptions } from '../src/index';

const MODELS: Record<string, [string, CreateModelOptions]> = {
  'mlp (purchase)': ['mlp', { numClasses: 100 }],
  'small-cnn': ['small-cnn', { numClasses: 10 }],
  'resnet-narrow': ['resnet-narrow', { numClasses: 10 }],
  'resnet18 (cifar)': ['resnet18', { numClasses: 10 }],
  'resnet34 (cifar)': ['resnet34', { numClasses: 10 }],
  'vgg11-bn': ['vgg11-bn', { numClasses: 10 }],
  'densenet121 (cifar stem)': ['densenet121', { numClasses: 100, stem: 'cifar' }],
  'wrn-16-8': ['wrn-16-8', { numClasses: 100 }],
  googlenet: ['googlenet', { numClasses: 100 }],
  'inception-v4': ['inception-v4', { numClasses: 100 }],
};

function arg(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1]! : fallback;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function time(steps: number, fn: () => void): Promise<number> {
  fn(); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < steps; i++) {
    const t0 = performance.now();
    fn();
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

export async function main(args: string[]): Promise<void> {
  const backend = arg(args, 'backend', 'cpu');
  const batch = Number(arg(args, 'batch', '32'));
  const steps = Number(arg(args, 'steps', '3'));
  const names = arg(args, 'models', Object.keys(MODELS).join(',')).split(',');
  const trainNames = new Set(arg(args, 'train-models', names.join(',')).split(','));
  if (backend === 'wasm') {
    // Optional: the sibling workspace package, imported by path (models must not depend on it).
    const { useWasmTraining } = await import('../../backend-wasm/src/index');
    await useWasmTraining();
  } else {
    await tf.setBackend('cpu');
  }
  console.log(`backend ${tf.getBackend()}, batch ${batch}, median of ${steps} (after 1 warm-up)`);
  console.log('| model | params | GFLOPs/img (fwd) | forward ms | train step ms | train GFLOP/s |');
  console.log('|---|---|---|---|---|---|');
  for (const label of names) {
    const entry = MODELS[label];
    if (entry === undefined) throw new Error(`bench-models: unknown model ${label}; known: ${Object.keys(MODELS).join(', ')}`);
    const model = createModel(entry[0], entry[1]);
    const x = tf.randomNormal([batch, ...model.inputShape]);
    const y = tf.oneHot(
      tf.tensor1d(
        Array.from({ length: batch }, (_, i) => i % model.numClasses),
        'int32',
      ),
      model.numClasses,
    );
    const leak0 = tf.memory().numTensors;
    const forwardMs = await time(steps, () =>
      tf.tidy(() => {
        model.forward(x, { training: false }).logits.dataSync();
      }),
    );
    let trainMs = NaN;
    if (trainNames.has(label)) {
      trainMs = await time(steps, () =>
        tf.tidy(() => {
          const { value, grads } = tf.variableGrads(
            () => tf.losses.softmaxCrossEntropy(y, model.forward(x, { training: true }).logits) as tf.Scalar,
            model.trainableVariables as tf.Variable[],
          );
          for (const v of model.trainableVariables) v.assign(tf.sub(v, tf.mul(grads[v.name]!, 0.01)));
          value.dataSync();
        }),
      );
    }
    const leaked = tf.memory().numTensors - leak0;
    const flops = model.forwardFlops();
    const gflops = Number.isNaN(trainMs) ? '–' : ((3 * flops * batch) / (trainMs * 1e6)).toFixed(2);
    console.log(
      `| ${label} | ${countParameters(model).toLocaleString('en-US')} | ${(flops / 1e9).toFixed(3)} | ${forwardMs.toFixed(0)} | ${Number.isNaN(trainMs) ? 'not run' : trainMs.toFixed(0)} | ${gflops} |${leaked === 0 ? '' : ` LEAK ${leaked}`}`,
    );
    tf.dispose([x, y]);
    model.dispose();
  }
}
