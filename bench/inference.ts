// `pnpm bench --inference` (and a section of every full `pnpm bench`): how fast a trained model answers
// an attack's queries. The logits of 10,000 CIFAR-10-shaped images with a ResNet-18 (CIFAR stem) of
// width 32 and of full width 64, in eval mode, against PyTorch's eval-mode forward of the same network
// in the same run. Every attack queries its models many times (LiRA and RMIA: every reference model on
// every target record, once per augmentation), so this is the cost that scales with an audit.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';
import { labeledData, predictLogits } from '@mia/core';
import { createResNet } from '@mia/models';
import { MALLOC_KEPT, engineById, setupEngine } from './engines';
import { allCores } from './pin';
import { median } from './stats';

/** The images of one timed pass. */
export const INFERENCE_IMAGES = 10_000;
/** Images per forward pass, on both sides. */
export const INFERENCE_BATCH = 500;
/** The widths timed: `createResNet({ width })` (64 is the standard ResNet-18). */
export const INFERENCE_WIDTHS = [32, 64] as const;

/** One timed pass over the images: wall and process CPU seconds (every thread). */
export interface InferenceTiming {
  readonly wall: number;
  readonly cpu: number;
}

/** One row: an engine (ours or PyTorch) on one width; the median of `passes` timed passes. */
export interface InferenceRow {
  readonly engine: string;
  readonly width: number;
  readonly passes?: readonly InferenceTiming[];
  /** Tensors back to their count after the passes (ours only). */
  readonly leakFree?: boolean;
  readonly load?: number;
  readonly note?: string;
}

/** Median wall seconds of a row's passes (undefined when it failed). */
export const medianWall = (row: InferenceRow): number | undefined =>
  row.passes === undefined || row.passes.length === 0 ? undefined : median(row.passes.map((p) => p.wall));

/**
 * Child process: `createResNet({ width, stem: 'cifar' })` on `engineId`, a warm-up pass over one batch
 * and `passes` timed passes of {@link predictLogits} over {@link INFERENCE_IMAGES} images (random
 * normal pixels: the time does not depend on them), logits read into JavaScript as an attack reads them.
 */
export async function childInference(engineId: string, width: number, passes: number): Promise<void> {
  const engine = engineById(engineId);
  await setupEngine(engine);
  const x = tf.randomNormal([INFERENCE_IMAGES, 32, 32, 3], 0, 1, 'float32', 7);
  const y = Int32Array.from({ length: INFERENCE_IMAGES }, (_, i) => i % 10);
  const data = labeledData({ x, y, numClasses: 10 });
  const model = createResNet({ numClasses: 10, width, stem: 'cifar', seed: 0 });
  const logits = (indices?: Int32Array) => {
    const out = predictLogits(model, data, { batchSize: INFERENCE_BATCH, indices });
    out.dataSync();
    out.dispose();
  };
  logits(Int32Array.from({ length: INFERENCE_BATCH }, (_, i) => i));
  const tensors = tf.memory().numTensors;
  const timed: InferenceTiming[] = [];
  for (let p = 0; p < passes; p++) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    logits();
    const used = process.cpuUsage(cpu);
    timed.push({ wall: (performance.now() - start) / 1000, cpu: (used.user + used.system) / 1e6 });
  }
  const row: InferenceRow = { engine: engine.label, width, passes: timed, leakFree: tf.memory().numTensors === tensors, load: loadavg()[0] };
  model.dispose();
  x.dispose();
  process.stdout.write(`${JSON.stringify(row)}\n`);
}

/** {@link childInference} in a fresh process on every core. */
export function runInference(engineId: string, width: number, passes: number): InferenceRow {
  const run = fileURLToPath(new URL('./run.ts', import.meta.url));
  const engine = engineById(engineId);
  const wrap = engine.allCores ? allCores() : [];
  const [cmd, ...rest] = [...wrap, process.execPath, ...process.execArgv, run, '--child-inference', engineId, String(width), String(passes)];
  const r = spawnSync(cmd!, rest, { encoding: 'utf8', timeout: 3_600_000, maxBuffer: 64 * 2 ** 20 });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status === 0 && last.startsWith('{')) return JSON.parse(last) as InferenceRow;
  return { engine: engine.label, width, note: `fails: exit ${r.status ?? r.signal}: ${(r.stderr.trim().split('\n').pop() ?? '').slice(0, 200)}` };
}

const python = '/usr/bin/python3';
const script = fileURLToPath(new URL('./pytorch/infer_torch.py', import.meta.url));

/** PyTorch's eval-mode forward of the same network (2 threads, channels-last), plain or with freed memory kept. */
export function runTorchInference(torch: string, width: number, passes: number, mallocKept: boolean): InferenceRow {
  const engine = `PyTorch ${torch} CPU, 2 threads${mallocKept ? ', malloc kept' : ''}`;
  const [cmd, ...rest] = [...allCores(), python, script, String(width), '2', String(passes), String(INFERENCE_IMAGES), String(INFERENCE_BATCH)];
  const r = spawnSync(cmd!, rest, { encoding: 'utf8', timeout: 3_600_000, env: { ...process.env, ...(mallocKept ? MALLOC_KEPT : {}) } });
  if (r.status !== 0) return { engine, width, note: `fails: ${r.stderr.trim().split('\n').pop()?.slice(0, 200) ?? ''}` };
  const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { passes: InferenceTiming[] };
  return { engine, width, passes: out.passes, load: loadavg()[0] };
}

/** Every width on the native engine (all cores) and on PyTorch (plain and malloc kept), when torch is there. */
export function inferenceRows(torch: string | undefined, passes: number, log: (line: string) => void): InferenceRow[] {
  const rows: InferenceRow[] = [];
  for (const width of INFERENCE_WIDTHS) {
    const group = [runInference('native', width, passes)];
    if (torch !== undefined) for (const kept of [false, true]) group.push(runTorchInference(torch, width, passes, kept));
    for (const row of group) {
      const wall = medianWall(row);
      log(`inference w${width} ${row.engine}: ${wall === undefined ? row.note : `${(INFERENCE_IMAGES / wall).toFixed(0)} images/s`}`);
    }
    rows.push(...group);
  }
  return rows;
}

/** The inference section of the results: images/s per engine and width, and native ÷ the faster PyTorch run. */
export function renderInference(rows: readonly InferenceRow[]): string {
  const lines = [
    '## Inference: logits of 10,000 CIFAR-10-shaped images',
    '',
    `ResNet-18 with the CIFAR stem (3×3 conv, no max pool) at width 32 and 64 (full), eval mode (batch norm with running statistics), batches of ${INFERENCE_BATCH}:`,
    '`predictLogits` of @mia/core on `createResNet` of @mia/models, logits read into JavaScript, against `bench/pytorch/infer_torch.py`',
    '(the same network in `torch.inference_mode()`, channels-last, logits copied to NumPy). One fresh process per row, one warm-up batch, then',
    'timed passes over all images (median). Ratio = native wall ÷ the faster PyTorch run of the same width (< 1: native is faster).',
    '',
    '| width | engine | passes (wall s) | images/s | CPU s per pass (median) | native ÷ PyTorch | no leak | load | note |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  const verdicts: string[] = [];
  for (const width of INFERENCE_WIDTHS) {
    const group = rows.filter((r) => r.width === width);
    const torchWalls = group
      .filter((r) => r.engine.startsWith('PyTorch'))
      .map(medianWall)
      .filter((w): w is number => w !== undefined);
    const bestTorch = torchWalls.length === 0 ? undefined : Math.min(...torchWalls);
    for (const r of group) {
      const wall = medianWall(r);
      const ours = !r.engine.startsWith('PyTorch');
      const ratio = ours && wall !== undefined && bestTorch !== undefined ? wall / bestTorch : undefined;
      lines.push(
        `| ${width} | ${r.engine} | ${r.passes?.map((p) => p.wall.toFixed(2)).join(', ') ?? ''} | ${wall === undefined ? '' : (INFERENCE_IMAGES / wall).toFixed(0)} | ${r.passes === undefined ? '' : median(r.passes.map((p) => p.cpu)).toFixed(2)} | ${ratio === undefined ? '' : `${ratio.toFixed(2)}×`} | ${r.leakFree === undefined ? '' : r.leakFree ? 'yes' : 'NO'} | ${r.load?.toFixed(1) ?? ''} | ${r.note ?? ''} |`,
      );
      if (ratio !== undefined) verdicts.push(`- ResNet-18 width ${width}, inference: native ÷ PyTorch = ${ratio.toFixed(2)}×.`);
    }
  }
  return `${[...lines, '', ...verdicts].join('\n')}\n`;
}
