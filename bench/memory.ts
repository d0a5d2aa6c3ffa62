// `pnpm bench --memory`: which architecture of @mia/models trains at which batch size in the 4 GB
// wasm heap. One training step (forward, backward, SGD) per model and batch, each in a fresh process
// (the heap never shrinks), on the native kernels when they load (else wasm).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';
import { initBackend, sgd } from '@mia/core';
import { createModel } from '@mia/models';

/** Architectures at their CIFAR-10 input (32×32×3, 10 classes) and the options the papers use. */
export const MEMORY_MODELS: Array<{ name: string; options: Record<string, unknown> }> = [
  { name: 'small-cnn', options: {} },
  { name: 'resnet18', options: { stem: 'cifar' } },
  { name: 'resnet18', options: { stem: 'imagenet' } },
  { name: 'resnet34', options: { stem: 'cifar' } },
  { name: 'vgg11-bn', options: {} },
  { name: 'wrn-16-8', options: {} },
  { name: 'densenet121', options: { stem: 'cifar' } },
  { name: 'googlenet', options: {} },
  { name: 'inception-v4', options: {} },
];
export const MEMORY_BATCHES = [16, 32, 64, 128];

export interface MemoryResult {
  model: string;
  batch: number;
  backend: string;
  ok: boolean;
  heapMb?: number;
  seconds?: number;
  error?: string;
}

/** Child: one step of `name` at `batch`; prints a MemoryResult as JSON. */
export async function childMemory(name: string, optionsJson: string, batch: number): Promise<void> {
  const { name: backend } = await initBackend({
    prefer: ['native', 'wasm'],
    loaders: { native: () => import('@mia/backend-native'), wasm: () => import('@mia/backend-wasm') },
  });
  const options = JSON.parse(optionsJson) as Record<string, unknown>;
  const label = `${name}${options['stem'] ? ` (${String(options['stem'])} stem)` : ''}`;
  const heap = (): number => (tf.backend() as unknown as { wasm: { HEAPU8: Uint8Array } }).wasm.HEAPU8.buffer.byteLength / 2 ** 20;
  let result: MemoryResult;
  try {
    const model = createModel(name, { numClasses: 10, inputShape: [32, 32, 3], seed: 1, ...options });
    const x = tf.randomNormal([batch, 32, 32, 3], 0, 1, 'float32', 2);
    const y = tf.oneHot(
      tf.tensor1d(
        Array.from({ length: batch }, (_, i) => i % 10),
        'int32',
      ),
      10,
    );
    const optimizer = sgd({ lr: 0.01, momentum: 0.9 });
    const t0 = performance.now();
    const vars = model.trainableVariables as tf.Variable[];
    const { value, grads } = tf.variableGrads(() => tf.losses.softmaxCrossEntropy(y, model.forward(x, { training: true, seed: 1 }).logits) as tf.Scalar, vars);
    optimizer.applyGradients(vars, grads, 0.01);
    const loss = value.dataSync()[0]!;
    if (!Number.isFinite(loss)) throw new Error(`non-finite loss ${loss}`);
    tf.dispose([value, ...Object.values(grads)]);
    result = { model: label, batch, backend, ok: true, heapMb: heap(), seconds: (performance.now() - t0) / 1000 };
  } catch (error) {
    result = { model: label, batch, backend, ok: false, heapMb: heap(), error: (error as Error).message.split('\n')[0]!.slice(0, 200) };
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** Runs every model × batch in fresh processes; a batch is skipped once a smaller one failed. */
export function memoryTable(log: (line: string) => void): string {
  const run = fileURLToPath(new URL('./run.ts', import.meta.url));
  const lines = [
    '| model (CIFAR-10 input) | ' + MEMORY_BATCHES.map((b) => `batch ${b}`).join(' | ') + ' |',
    '|---|' + MEMORY_BATCHES.map(() => '---|').join(''),
  ];
  for (const m of MEMORY_MODELS) {
    const cells: string[] = [];
    let failed = false;
    let label = m.name;
    for (const batch of MEMORY_BATCHES) {
      if (failed) {
        cells.push('(not tried)');
        continue;
      }
      const r = spawnSync(process.execPath, [...process.execArgv, run, '--child-memory', m.name, JSON.stringify(m.options), String(batch)], {
        encoding: 'utf8',
        timeout: 3_600_000,
        maxBuffer: 64 * 2 ** 20,
      });
      const last = r.stdout.trim().split('\n').pop() ?? '';
      const res: MemoryResult =
        r.status === 0 && last.startsWith('{')
          ? (JSON.parse(last) as MemoryResult)
          : {
              model: m.name,
              batch,
              backend: '?',
              ok: false,
              error: `process died (exit ${r.status ?? r.signal}): ${(r.stderr.trim().split('\n').pop() ?? '').slice(0, 160)}`,
            };
      label = res.model;
      log(
        `${res.model} b${batch} (${res.backend}): ${res.ok ? `trains, heap ${res.heapMb?.toFixed(0)} MB, ${res.seconds?.toFixed(1)} s/step` : `fails: ${res.error}`}`,
      );
      cells.push(res.ok ? `trains (heap ${res.heapMb?.toFixed(0)} MB, ${res.seconds?.toFixed(1)} s/step)` : `fails: ${res.error ?? ''}`);
      failed = !res.ok;
    }
    lines.push(`| ${label} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
