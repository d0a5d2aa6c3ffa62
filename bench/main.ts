// The benchmark driver: one table of model × engine → ms/step, images/s, GFLOP/s, leak check, ratios.
import '@tensorflow/tfjs-backend-cpu';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';
// Relative import: the private root package does not depend on the workspace packages.
import { registerWasmTrainingKernels, unregisterWasmTrainingKernels, useWasmTraining } from '@mia/backend-wasm';
import { benchModels, type BenchModel } from './models';
import { xnnpackRate } from './probe';
import { profileStep } from './profile';
import { childPrototype, prototypePath, runPrototype, usePrototypeKernels } from './prototype-engine';
import { pinToOneCore } from './pin';
import { oursEngine, render, type Row } from './render';
import { timeTraining } from './train-step';
import { torchStep, torchVersion } from './torch-anchor';

interface Options {
  models: string[];
  steps: number;
  quick: boolean;
  profile: boolean;
  /** Engine profiled by --profile: ours, or the reference prototype. */
  engine: 'ours' | 'prototype';
  /** Results file name (without .md) under bench/results/. */
  out: string | undefined;
  /** Fresh processes per engine for ours and the prototype (alternating); undefined = 3 for the MLP and small CNN, 1 for ResNet-18. */
  rounds: number | undefined;
  /** Pin the single-threaded engines to one core (`taskset`); --no-pin turns it off. */
  pin: boolean;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = { models: ['purchase', 'smallcnn', 'resnet18'], steps: 10, quick: false, profile: false, engine: 'ours', out: undefined, rounds: undefined, pin: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string => {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      if (v === undefined) throw new Error(`bench: ${a} needs a value`);
      return v;
    };
    if (a === '--quick') opts.quick = true;
    else if (a === '--no-pin') opts.pin = false;
    else if (a === '--profile') opts.profile = true;
    else if (a.startsWith('--models')) opts.models = value().split(',').filter(Boolean);
    else if (a.startsWith('--steps')) opts.steps = Number(value());
    else if (a.startsWith('--out')) opts.out = value();
    else if (a.startsWith('--rounds')) {
      opts.rounds = Number(value());
      if (!Number.isInteger(opts.rounds) || opts.rounds < 1) throw new Error(`bench: --rounds must be a positive integer, got ${opts.rounds}`);
    }
    else if (a.startsWith('--engine')) {
      const e = value();
      if (e !== 'ours' && e !== 'prototype') throw new Error(`bench: --engine must be ours or prototype, got ${e}`);
      opts.engine = e;
    } else throw new Error(`bench: unknown flag ${a} (known: --models a,b --steps N --quick --profile [--engine ours|prototype] --rounds N --out name --no-pin)`);
  }
  for (const m of opts.models) if (!(m in benchModels)) throw new Error(`bench: unknown model ${m} (known: ${Object.keys(benchModels).join(', ')})`);
  if (!Number.isInteger(opts.steps) || opts.steps < 1) throw new Error(`bench: --steps must be a positive integer, got ${opts.steps}`);
  if (opts.quick) opts.steps = Math.min(opts.steps, 3);
  return opts;
}

async function runTf(model: BenchModel, engine: string, steps: number, warmup: number, microBatches = 1): Promise<Row> {
  try {
    const timing = timeTraining(model, steps, warmup, microBatches);
    return { model: model.name, batch: model.batch, engine, timing };
  } catch (error) {
    return { model: model.name, batch: model.batch, engine, note: `fails: ${(error as Error).name}: ${(error as Error).message.split('\n')[0]!.slice(0, 160)}` };
  }
}

export async function main(argv: string[]): Promise<void> {
  if (argv[0] === '--child-resnet128') return childResnet128(argv[1] === 'accumulated' ? 2 : 1);
  if (argv[0] === '--child-prototype') return childPrototype(argv[1]!, Number(argv[2]), Number(argv[3]));
  if (argv[0] === '--child-ours') return childOurs(argv[1]!, Number(argv[2]), Number(argv[3]));
  const opts = parseArgs(argv);
  const pinning = opts.pin ? pinToOneCore() : 'Not pinned to a core (--no-pin); single-thread timings may be bimodal.';
  if (opts.profile && opts.engine === 'prototype') {
    // Profiling is one process anyway: stock tfjs-wasm + the prototype's patches, no @mia kernels.
    await usePrototypeKernels();
    for (const name of opts.models) {
      process.stdout.write(`\n${name}: one training step on tfjs-wasm + ${prototypePath}, by kernel\n`);
      for (const line of await profileStep(benchModels[name]!())) process.stdout.write(`  ${line}\n`);
    }
    return;
  }
  const info = await useWasmTraining();
  const torch = torchVersion();
  if (opts.profile) {
    for (const name of opts.models) {
      process.stdout.write(`\n${name}: one training step on tfjs-wasm + @mia/backend-wasm, by kernel\n`);
      for (const line of await profileStep(benchModels[name]!())) process.stdout.write(`  ${line}\n`);
    }
    return;
  }
  await tf.setBackend('wasm');
  const rate = xnnpackRate();
  process.stdout.write(`XNNPACK today: GEMM ${rate.gemm.toFixed(1)} GFLOP/s, 3×3 convolution ${rate.conv.toFixed(1)} GFLOP/s\n`);
  const rows: Row[] = [];
  const log = (r: Row): void => {
    rows.push(r);
    const t = r.timing ?? r.torch;
    process.stdout.write(`${r.model} b${r.batch} ${r.engine}: ${t ? `${t.msStep.toFixed(1)} ms/step` : r.note}\n`);
  };
  for (const name of opts.models) {
    const make = benchModels[name]!;
    const model = make();
    const warmup = opts.quick ? 1 : 2;
    await tf.setBackend('wasm');
    const rounds = opts.rounds ?? (name === 'resnet18' || opts.quick ? 1 : 3);
    if (rounds === 1) {
      log(await runTf(model, oursEngine, opts.steps, warmup));
      log(runPrototype(name, model.batch, opts.steps, warmup));
    } else {
      // The step time of one process is bimodal (e.g. the MLP: ~60 or ~85 ms in fresh processes, same
      // code): alternate fresh processes of both engines and report the median process.
      const ours: Row[] = [];
      const proto: Row[] = [];
      for (let r = 0; r < rounds; r++) {
        ours.push(runOurs(name, model.batch, opts.steps, warmup));
        proto.push(runPrototype(name, model.batch, opts.steps, warmup));
      }
      log(medianProcess(ours));
      log(medianProcess(proto));
    }
    if (torch !== undefined) {
      for (const threads of [1, 2]) {
        const t = torchStep(name, threads, Math.max(opts.steps, 5), model.batch);
        log({ model: name, batch: model.batch, engine: `PyTorch ${torch} CPU, ${threads} thread${threads > 1 ? 's' : ''}`, torch: t, note: t ? undefined : 'failed' });
      }
    }
    // Stock tfjs-wasm: conv nets fail (no Conv2DBackpropFilter); the MLP runs at its own (slow) speed.
    unregisterWasmTrainingKernels();
    await tf.setBackend('wasm');
    const stockSteps = name === 'purchase' ? Math.min(opts.steps, 3) : 1;
    log(await runTf(model, 'tfjs-wasm (stock)', stockSteps, name === 'purchase' ? 1 : 0));
    registerWasmTrainingKernels();
    // Stock tfjs-cpu: the MLP in a few steps; the small CNN estimated from one step at batch 8; ResNet-18 skipped.
    await tf.setBackend('cpu');
    if (name === 'purchase') log(await runTf(model, 'tfjs-cpu (stock)', Math.min(opts.steps, 2), 1));
    else if (name === 'smallcnn' && !opts.quick) {
      const small = make(8);
      const r = await runTf(small, 'tfjs-cpu (stock), est. from 1 step at batch 8', 1, 0);
      const scale = model.batch / small.batch;
      if (r.timing) r.timing = { ...r.timing, msStep: r.timing.msStep * scale, cpuMsStep: r.timing.cpuMsStep * scale };
      log({ ...r, batch: model.batch, estimated: true });
    } else log({ model: name, batch: model.batch, engine: 'tfjs-cpu (stock)', note: opts.quick ? 'skipped (--quick)' : 'skipped: hours per step' });
    await tf.setBackend('wasm');
  }
  if (opts.models.includes('resnet18') && !opts.quick) {
    // Batch 128 in a fresh process (the heap never shrinks; after the batch-64 run it is fragmented).
    // One pass does not fit the 4 GB heap; 2 × 64 with gradient accumulation does.
    log(inChild('accumulated', 'tfjs-wasm + @mia/backend-wasm, 2 × 64 accumulated (own process)'));
    log(inChild('one-pass', 'tfjs-wasm + @mia/backend-wasm, one pass (own process)'));
  }
  const table = render(rows, { steps: opts.steps, quick: opts.quick, simd: info.simd, command: `pnpm bench ${argv.join(' ')}`.trim(), pinning, rate });
  process.stdout.write(`\n${table}\n`);
  const dir = new URL('./results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  const name = opts.out ?? freeName(dir, new Date().toISOString().slice(0, 10));
  writeFileSync(new URL(`${name}.md`, dir), table);
  process.stdout.write(`written to bench/results/${name}.md\n`);
}

/** Child process: our engine on one model (fresh heap and JIT); prints the Row as JSON. */
async function childOurs(model: string, steps: number, warmup: number): Promise<void> {
  await useWasmTraining();
  await tf.setBackend('wasm');
  const m = benchModels[model]!();
  process.stdout.write(`${JSON.stringify(await runTf(m, oursEngine, steps, warmup))}\n`);
}

/** Runs our engine for `model` in a fresh child process. */
function runOurs(model: string, batch: number, steps: number, warmup: number): Row {
  const run = fileURLToPath(new URL('./run.ts', import.meta.url));
  const r = spawnSync(process.execPath, [...process.execArgv, run, '--child-ours', model, String(steps), String(warmup)], { encoding: 'utf8', timeout: 3_600_000, maxBuffer: 64 * 2 ** 20 });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status === 0 && last.startsWith('{')) return JSON.parse(last) as Row;
  return { model, batch, engine: oursEngine, note: `fails: exit ${r.status ?? r.signal}: ${(r.stderr.trim().split('\n').pop() ?? '').slice(0, 160)}` };
}

/** The row of the process with the median step time (its fastest step: the fastest of all processes), noting every process's median. */
function medianProcess(rows: Row[]): Row {
  const timed = rows.filter((r) => r.timing !== undefined).sort((a, b) => a.timing!.msStep - b.timing!.msStep);
  if (timed.length === 0) return rows[0]!;
  const mid = timed[Math.floor((timed.length - 1) / 2)]!;
  const all = timed.map((r) => r.timing!.msStep.toFixed(1)).join(' / ');
  const note = `median of ${timed.length} fresh processes (${all} ms)${mid.note ? `; ${mid.note}` : ''}`;
  return { ...mid, timing: { ...mid.timing!, minMs: Math.min(...timed.map((r) => r.timing!.minMs)), minCpuMs: Math.min(...timed.map((r) => r.timing!.minCpuMs)) }, note };
}

/** `<date>`, or `<date>-b`, `<date>-c`, … when earlier results of the day exist (never overwritten). */
function freeName(dir: URL, date: string): string {
  for (let i = 0; i < 26; i++) {
    const name = i === 0 ? date : `${date}-${String.fromCharCode(97 + i)}`;
    if (!existsSync(new URL(`${name}.md`, dir))) return name;
  }
  return `${date}-${Date.now()}`;
}

/** Child process: one ResNet-18 batch-128 step (after one warm-up step); prints the Row as JSON. */
async function childResnet128(microBatches: number): Promise<void> {
  await useWasmTraining();
  const row = await runTf(benchModels['resnet18']!(128), '', 1, 1, microBatches);
  process.stdout.write(`${JSON.stringify(row)}\n`);
}

function inChild(mode: 'accumulated' | 'one-pass', engine: string): Row {
  const run = fileURLToPath(new URL('./run.ts', import.meta.url));
  const r = spawnSync(process.execPath, [...process.execArgv, run, '--child-resnet128', mode], { encoding: 'utf8', timeout: 3_600_000 });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status === 0 && last.startsWith('{')) return { ...(JSON.parse(last) as Row), engine };
  const why = r.status === 0 ? 'no result' : `exit ${r.status ?? r.signal}: ${(r.stderr.trim().split('\n').pop() ?? '').slice(0, 160)}`;
  return { model: 'resnet18', batch: 128, engine, note: `fails: ${why}` };
}
