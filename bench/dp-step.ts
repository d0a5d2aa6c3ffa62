// `pnpm bench --dp` (and a section of every full `pnpm bench`): a DP-SGD step of @mia/defense-dp against
// a non-private step of the same @mia/models network, timed interleaved in one process on the native
// engine (all cores), so that both see the same machine load. Targets: DP ≤ 3× for the
// Purchase MLP, ≤ 6× for SmallCNN and ResNet-18 width 32.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';
import { crossEntropy, seededRandom, type Classifier } from '@mia/core';
import { createMlp, createResNet, createSmallCnn } from '@mia/models';
// The repository root does not depend on @mia/defense-dp (bench/ is not a package): its sources directly.
import { classifierTapedForward, dpSgdTapedGradients } from '../packages/defense-dp/src/index';
import { engineById, setupEngine } from './engines';
import { allCores } from './pin';
import { minWarmupMs } from './train-step';
import { median } from './stats';

type Norm = 'group' | 'batch' | 'none';
interface DpBenchModel {
  batch: number;
  /** The ratio DP ÷ non-private (same network) must stay at or below this. */
  target: number;
  inputShape: number[];
  numClasses: number;
  build(norm: Norm): Classifier;
  /** The norms of the non-private rows: the DP network's own, then the papers' (BatchNorm) when it differs. */
  plainNorms: Norm[];
  /** The norm of the DP row. */
  dpNorm: Norm;
}

/** The networks of the DP rows, by the `pnpm bench` model names. */
export const dpBenchModels: Record<string, DpBenchModel> = {
  purchase: {
    batch: 128,
    target: 3,
    inputShape: [600],
    numClasses: 100,
    build: () => createMlp({ numClasses: 100, seed: 1 }),
    plainNorms: ['none'],
    dpNorm: 'none',
  },
  smallcnn: {
    batch: 128,
    target: 6,
    inputShape: [32, 32, 3],
    numClasses: 10,
    build: (norm) => createSmallCnn({ numClasses: 10, norm, seed: 1 }),
    plainNorms: ['group', 'batch'],
    dpNorm: 'group',
  },
  resnet18: {
    batch: 64,
    target: 6,
    inputShape: [32, 32, 3],
    numClasses: 10,
    build: (norm) => createResNet({ numClasses: 10, width: 32, norm, seed: 1 }),
    plainNorms: ['group', 'batch'],
    dpNorm: 'group',
  },
};

export interface DpVariant {
  step: 'DP-SGD' | 'non-private';
  norm: Norm;
  msStep: number;
  cpuMsStep: number;
  minMs: number;
}
export interface DpRow {
  model: string;
  batch: number;
  engine?: string;
  variants?: DpVariant[];
  warmupSteps?: number;
  leakFree?: boolean;
  note?: string;
}

/** SGD with momentum 0.9 (PyTorch semantics), lr 0.01, as bench/train-step.ts. */
function momentumSgd(variables: readonly tf.Variable[]): { update(grads: Record<string, tf.Tensor>): void; dispose(): void } {
  const buffers = variables.map((v) => {
    const zeros = tf.zerosLike(v);
    const buffer = tf.variable(zeros, false);
    zeros.dispose();
    return buffer;
  });
  return {
    update: (grads) =>
      tf.tidy(() => {
        variables.forEach((v, i) => {
          const next = tf.add(tf.mul(buffers[i]!, 0.9), grads[v.name]!);
          buffers[i]!.assign(next);
          v.assign(tf.sub(v, tf.mul(next, 0.01)));
        });
      }),
    dispose: () => tf.dispose(buffers),
  };
}

/** One training step of `model` on (x, y): a plain gradient, or DP-SGD's (C = 1, σ = 1, fixed batch), then the SGD update. */
function stepOf(model: Classifier, dp: boolean, x: tf.Tensor, y: tf.Tensor1D): { run: () => void; dispose: () => void } {
  const sgd = momentumSgd(model.trainableVariables);
  const random = seededRandom(1);
  const options = { variables: model.trainableVariables, clipNorm: 1, noiseMultiplier: 1, expectedBatchSize: x.shape[0]!, random };
  const run = () => {
    let grads: Record<string, tf.Tensor>;
    let loss: tf.Scalar;
    if (dp) ({ grads, loss } = dpSgdTapedGradients((xb, tape) => classifierTapedForward(model, xb, tape, { seed: 0 }), { x, y }, options));
    else
      ({ value: loss, grads } = tf.variableGrads(() => crossEntropy(model.forward(x, { training: true, seed: 0 }).logits, y), [...model.trainableVariables]));
    sgd.update(grads);
    const value = loss.dataSync()[0]!;
    tf.dispose([loss, ...Object.values(grads)]);
    if (!Number.isFinite(value)) throw new Error('bench --dp: non-finite loss');
  };
  return { run, dispose: () => sgd.dispose() };
}

/** Child process: every variant of one model, interleaved step by step; prints the DpRow as JSON. */
export async function childDp(name: string, engineId: string, steps: number, warmup: number): Promise<void> {
  const engine = engineById(engineId);
  await setupEngine(engine);
  const spec = dpBenchModels[name]!;
  const start = tf.memory().numTensors;
  const x = tf.randomNormal([spec.batch, ...spec.inputShape], 0, 1, 'float32', 1);
  const y = tf.tensor1d(
    Int32Array.from({ length: spec.batch }, (_, i) => (i * 7) % spec.numClasses),
    'int32',
  );
  const plan = [...spec.plainNorms.map((norm) => ({ step: 'non-private' as const, norm })), { step: 'DP-SGD' as const, norm: spec.dpNorm }];
  const runs = plan.map((p) => {
    const model = spec.build(p.norm);
    return { ...p, model, ...stepOf(model, p.step === 'DP-SGD', x, y), wall: [] as number[], cpu: [] as number[] };
  });
  let warmupSteps = 0;
  const t0 = performance.now();
  for (; warmupSteps < warmup || (warmupSteps < 30 && performance.now() - t0 < minWarmupMs * runs.length); warmupSteps++) for (const r of runs) r.run();
  for (let i = 0; i < steps; i++) {
    // Rotate the order so that no variant always follows the same one.
    for (let k = 0; k < runs.length; k++) {
      const r = runs[(i + k) % runs.length]!;
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      r.run();
      r.wall.push(performance.now() - w0);
      const c = process.cpuUsage(c0);
      r.cpu.push((c.user + c.system) / 1000);
    }
  }
  const variants: DpVariant[] = runs.map((r) => ({ step: r.step, norm: r.norm, msStep: median(r.wall), cpuMsStep: median(r.cpu), minMs: Math.min(...r.wall) }));
  for (const r of runs) {
    r.dispose();
    r.model.dispose();
  }
  tf.dispose([x, y]);
  const row: DpRow = { model: name, batch: spec.batch, engine: engine.label, variants, warmupSteps, leakFree: tf.memory().numTensors === start };
  process.stdout.write(`${JSON.stringify(row)}\n`);
}

/** Runs {@link childDp} in a fresh process (on all cores for a multi-threaded engine, else on the pinned core). */
export function runDp(name: string, engineId: string, steps: number, warmup: number): DpRow {
  const run = fileURLToPath(new URL('./run.ts', import.meta.url));
  const wrap = engineById(engineId).allCores ? allCores() : [];
  const [cmd, ...rest] = [...wrap, process.execPath, ...process.execArgv, run, '--child-dp', name, engineId, String(steps), String(warmup)];
  const r = spawnSync(cmd!, rest, { encoding: 'utf8', timeout: 3_600_000, maxBuffer: 64 * 2 ** 20 });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status === 0 && last.startsWith('{')) return JSON.parse(last) as DpRow;
  return {
    model: name,
    batch: dpBenchModels[name]!.batch,
    note: `fails: exit ${r.status ?? r.signal}: ${(r.stderr.trim().split('\n').pop() ?? '').slice(0, 160)}`,
  };
}

const NORM_LABEL: Record<Norm, string> = { group: 'GroupNorm', batch: 'BatchNorm', none: '—' };

/** The DP section of the results: one row per variant, the ratios to the non-private steps, the targets. */
export function renderDp(rows: DpRow[]): string {
  const lines = [
    '## DP-SGD step against a non-private step',
    '',
    'The @mia/models networks (`createMlp`; `createSmallCnn`; `createResNet({ width: 32 })`) with the DP step of @mia/defense-dp',
    '(`dpSgdTapedGradients` + `classifierTapedForward`: per-example norms per layer and the clipped sum from one backward pass;',
    'C = 1, σ = 1, a fixed batch of the expected size) and a plain `tf.variableGrads` step, both followed by SGD with momentum.',
    'The variants of a model run interleaved, step by step, in one fresh process, so they share the machine load; the ratios',
    'are of medians from that same run (on a busy machine only the ratios are meaningful, not the absolute times).',
    "DP ÷ non-private compares the same network (GroupNorm for the CNNs); the BatchNorm row is the papers' network, which DP-SGD cannot train.",
    '',
    '| model | batch | engine | step | norm | ms/step | CPU ms/step | fastest ms | DP ÷ this (wall) | DP ÷ this (CPU) | no leak | note |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const verdicts: string[] = [];
  for (const r of rows) {
    if (r.variants === undefined) {
      lines.push(`| ${r.model} | ${r.batch} | | | | | | | | | | ${r.note ?? ''} |`);
      continue;
    }
    const dp = r.variants.find((v) => v.step === 'DP-SGD')!;
    for (const v of r.variants) {
      const own = v === dp;
      lines.push(
        `| ${r.model} | ${r.batch} | ${r.engine ?? ''} | ${v.step} | ${NORM_LABEL[v.norm]} | ${v.msStep.toFixed(1)} | ${v.cpuMsStep.toFixed(1)} | ${v.minMs.toFixed(1)} | ${own ? '' : `${(dp.msStep / v.msStep).toFixed(2)}×`} | ${own ? '' : `${(dp.cpuMsStep / v.cpuMsStep).toFixed(2)}×`} | ${r.leakFree ? 'yes' : 'NO'} | ${own ? `warm-up ${r.warmupSteps}` : ''} |`,
      );
    }
    const same = r.variants.find((v) => v.step === 'non-private' && v.norm === dp.norm)!;
    const ratio = dp.msStep / same.msStep;
    const target = dpBenchModels[r.model]!.target;
    verdicts.push(
      `- ${r.model}: DP ÷ non-private (${NORM_LABEL[dp.norm] === '—' ? 'no norm' : NORM_LABEL[dp.norm]}) = ${ratio.toFixed(2)}× wall, ${(dp.cpuMsStep / same.cpuMsStep).toFixed(2)}× CPU; target ≤ ${target}×: ${ratio <= target ? 'met' : 'NOT met'}.`,
    );
  }
  return `${[...lines, '', ...verdicts].join('\n')}\n`;
}
