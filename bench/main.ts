// The benchmark driver: one table of model × engine → ms/step, images/s, GFLOP/s, leak check, and the
// speed targets against PyTorch measured in the same run.
import '@tensorflow/tfjs-backend-cpu';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import * as tf from '@tensorflow/tfjs-core';
import { nativeBackendInfo, nativeUnavailableReason } from '@mia/backend-native';
import { registerWasmTrainingKernels, unregisterWasmTrainingKernels, useWasmTraining } from '@mia/backend-wasm';
import { childMemory, memoryTable } from './memory';
import { childRun, engineById, engines, medianProcess, runEngine, setupEngine, type Engine } from './engines';
import { childDp, dpBenchModels, renderDp, runDp, type DpRow } from './dp-step';
import { childAudit, renderAudit, runAudit, type AuditSettings } from './audit';
import { childInference, inferenceRows, renderInference } from './inference';
import { benchModels, type BenchModel } from './models';
import { profileStep } from './profile';
import { pinToOneCore } from './pin';
import { render, type Row } from './render';
import { timeTraining } from './train-step';
import { torchStep, torchVersion } from './torch-anchor';

interface Options {
  models: string[];
  steps: number;
  quick: boolean;
  profile: boolean;
  /** Engine profiled by --profile. */
  engine: string;
  /** Results file name (without .md) under bench/results/. */
  out: string | undefined;
  /** Fresh processes per engine (alternating); undefined = 3 for the MLP and small CNN, 1 for ResNet-18. */
  rounds: number | undefined;
  /** Pin the single-threaded engines to one core (`taskset`); --no-pin turns it off. */
  pin: boolean;
  /** Also time stock tfjs-wasm and tfjs-cpu (slow). */
  stock: boolean;
  /** Only the DP-SGD rows (a DP step against a non-private step; always part of a full run). */
  dp: boolean;
  /** The engine of the DP rows: --engine with --dp, else one native thread. */
  dpEngine: string;
  /** Only the inference rows (ResNet-18 logits of 10,000 images against PyTorch; always part of a full run). */
  inference: boolean;
  /** Only the audit row (`auditModel` against the logits of a ResNet-18 width 32 on CIFAR-10). */
  audit: boolean;
  /** Records of the audit row (half members, half non-members). */
  records: number;
  /** Bootstrap resamples of the audit row. */
  resamples: number;
  /** ResNet-18 stem of the audit row. */
  stem: 'imagenet' | 'cifar';
}

export const USAGE =
  '--memory | --models a,b --steps N --quick --profile [--engine native|native-1|wasm] --rounds N --out name --no-pin --stock --dp | --inference | --audit [--records N] [--resamples R] [--stem imagenet|cifar]';

function parseArgs(argv: string[]): Options {
  const opts: Options = {
    models: ['purchase', 'smallcnn', 'resnet18'],
    steps: 10,
    quick: false,
    profile: false,
    engine: 'native',
    out: undefined,
    rounds: undefined,
    pin: true,
    stock: false,
    dp: false,
    dpEngine: 'native-1',
    inference: false,
    audit: false,
    records: 50_000,
    resamples: 1000,
    stem: 'imagenet',
  };
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
    else if (a === '--stock') opts.stock = true;
    else if (a === '--dp') opts.dp = true;
    else if (a === '--audit') opts.audit = true;
    else if (a === '--inference') opts.inference = true;
    else if (a.startsWith('--records')) opts.records = Number(value());
    else if (a.startsWith('--resamples')) opts.resamples = Number(value());
    else if (a.startsWith('--stem')) {
      const stem = value();
      if (stem !== 'imagenet' && stem !== 'cifar') throw new Error(`bench: --stem must be imagenet or cifar, got ${stem}`);
      opts.stem = stem;
    } else if (a.startsWith('--models')) opts.models = value().split(',').filter(Boolean);
    else if (a.startsWith('--steps')) opts.steps = Number(value());
    else if (a.startsWith('--out')) opts.out = value();
    else if (a.startsWith('--engine')) opts.engine = opts.dpEngine = engineById(value()).id;
    else if (a.startsWith('--rounds')) {
      opts.rounds = Number(value());
      if (!Number.isInteger(opts.rounds) || opts.rounds < 1) throw new Error(`bench: --rounds must be a positive integer, got ${opts.rounds}`);
    } else throw new Error(`bench: unknown flag ${a} (known: ${USAGE})`);
  }
  for (const m of opts.models) if (!(m in benchModels)) throw new Error(`bench: unknown model ${m} (known: ${Object.keys(benchModels).join(', ')})`);
  if (!Number.isInteger(opts.steps) || opts.steps < 1) throw new Error(`bench: --steps must be a positive integer, got ${opts.steps}`);
  if (!Number.isInteger(opts.records) || opts.records < 4) throw new Error(`bench: --records must be an integer ≥ 4, got ${opts.records}`);
  if (!Number.isInteger(opts.resamples) || opts.resamples < 1) throw new Error(`bench: --resamples must be a positive integer, got ${opts.resamples}`);
  if (opts.quick) opts.steps = Math.min(opts.steps, 3);
  return opts;
}

async function runInProcess(model: BenchModel, engine: string, steps: number, warmup: number): Promise<Row> {
  try {
    return { model: model.name, batch: model.batch, engine, timing: timeTraining(model, steps, warmup) };
  } catch (error) {
    return {
      model: model.name,
      batch: model.batch,
      engine,
      note: `fails: ${(error as Error).name}: ${(error as Error).message.split('\n')[0]!.slice(0, 160)}`,
    };
  }
}

export async function main(argv: string[]): Promise<void> {
  if (argv[0] === '--child') return childRun(argv[1]!, argv[2]!, Number(argv[3]), Number(argv[4]), Number(argv[5]), Number(argv[6] ?? 1));
  if (argv[0] === '--child-memory') return childMemory(argv[1]!, argv[2]!, Number(argv[3]));
  if (argv[0] === '--child-dp') return childDp(argv[1]!, argv[2]!, Number(argv[3]), Number(argv[4]));
  if (argv[0] === '--child-inference') return childInference(argv[1]!, Number(argv[2]), Number(argv[3]));
  if (argv[0] === '--child-audit') {
    return childAudit({ records: Number(argv[1]), resamples: Number(argv[2]), stem: argv[3] as AuditSettings['stem'], engine: argv[4]! });
  }
  if (argv[0] === '--memory') {
    const table = memoryTable((line) => process.stdout.write(`${line}\n`));
    const text = `# pnpm bench --memory — ${new Date().toISOString()}\n\nOne training step per architecture and batch in a fresh process (the 4 GB wasm heap never shrinks).\n\n${table}\n`;
    process.stdout.write(`\n${text}`);
    const dir = new URL('./results/', import.meta.url);
    mkdirSync(dir, { recursive: true });
    writeFileSync(new URL(`memory-${new Date().toISOString().slice(0, 10)}.md`, dir), text);
    return;
  }
  const opts = parseArgs(argv);
  const native = nativeUnavailableReason();
  if (opts.profile) {
    const engine = engineById(opts.engine);
    if (engine.backend === 'native' && native !== undefined) throw new Error(`bench: native kernels unavailable: ${native}`);
    await setupEngine(engine);
    for (const name of opts.models) {
      process.stdout.write(`\n${name}: one training step on ${engine.label}, by kernel\n`);
      for (const line of await profileStep(benchModels[name]!())) process.stdout.write(`  ${line}\n`);
    }
    return;
  }
  const pinning = opts.pin ? pinToOneCore() : 'Not pinned to a core (--no-pin); single-thread timings may be bimodal.';
  if (opts.dp) return dpOnly(opts, argv, native);
  if (opts.audit) return auditOnly(opts, argv, native);
  if (opts.inference) return inferenceOnly(opts, argv, native);
  const info = await useWasmTraining();
  const torch = torchVersion();
  // The bf16 row only where the CPU has bf16 dot products (elsewhere useNativeTraining refuses it).
  const bf16 = native === undefined && nativeBackendInfo().bf16;
  const ours: Engine[] = engines.filter((e) => e.backend === 'wasm' || (native === undefined && (e.precision !== 'bf16' || bf16)));
  const rows: Row[] = [];
  const log = (r: Row): void => {
    rows.push(r);
    const t = r.timing ?? r.torch;
    process.stdout.write(`${r.model} b${r.batch} ${r.engine}: ${t ? `${t.msStep.toFixed(1)} ms/step` : r.note}\n`);
  };
  for (const name of opts.models) {
    const model = benchModels[name]!();
    const warmup = opts.quick ? 1 : 2;
    const rounds = opts.rounds ?? (name === 'resnet18' || opts.quick ? 1 : 3);
    // One process is not representative (the step time of a process can be bimodal): alternate fresh
    // processes of every engine and report the median process.
    const byEngine = new Map<string, Row[]>(ours.map((e) => [e.id, []]));
    for (let r = 0; r < rounds; r++) for (const e of ours) byEngine.get(e.id)!.push(runEngine(e, name, model.batch, opts.steps, warmup));
    for (const e of ours) log(medianProcess(byEngine.get(e.id)!));
    if (torch !== undefined) {
      for (const mallocKept of [false, true]) {
        for (const threads of [1, 2]) {
          const t = torchStep(name, threads, Math.max(opts.steps, 5), model.batch, mallocKept);
          const engine = `PyTorch ${torch} CPU, ${threads} thread${threads > 1 ? 's' : ''}${mallocKept ? ', malloc kept' : ''}`;
          log({ model: name, batch: model.batch, engine, torch: t, note: t ? undefined : 'failed' });
        }
      }
      // PyTorch's mixed precision (torch.autocast to bfloat16), against the native bf16 row.
      for (const mallocKept of bf16 ? [false, true] : []) {
        const t = torchStep(name, 2, Math.max(opts.steps, 5), model.batch, mallocKept, 'bf16');
        const engine = `PyTorch ${torch} CPU, 2 threads, bf16 autocast${mallocKept ? ', malloc kept' : ''}`;
        log({ model: name, batch: model.batch, engine, torch: t, note: t ? undefined : 'failed' });
      }
    }
    if (opts.stock) {
      // Stock tfjs-wasm: conv nets fail (no Conv2DBackpropFilter); the MLP runs at its own (slow) speed.
      unregisterWasmTrainingKernels();
      await tf.setBackend('wasm');
      log(await runInProcess(model, 'tfjs-wasm (stock)', name === 'purchase' ? Math.min(opts.steps, 3) : 1, name === 'purchase' ? 1 : 0));
      registerWasmTrainingKernels();
      await tf.setBackend('cpu');
      if (name === 'purchase') log(await runInProcess(model, 'tfjs-cpu (stock)', Math.min(opts.steps, 2), 1));
      else log({ model: name, batch: model.batch, engine: 'tfjs-cpu (stock)', note: 'skipped: minutes to hours per step' });
      await tf.setBackend('wasm');
    }
  }
  if (opts.models.includes('resnet18') && !opts.quick) {
    // Batch 128 in fresh processes: the 4 GB wasm heap must hold it (the heap never shrinks).
    for (const e of ours.filter((x) => x.id === 'native' || x.id === 'wasm')) {
      log(runEngine(e, 'resnet18', 128, 1, 1, 1, `${e.label}, one pass (own process)`));
    }
  }
  const header = native === undefined ? describeNative() : `Native kernels unavailable (${native}): native rows skipped.`;
  const dpSection = native === undefined ? `\n${renderDp(dpRows(opts))}` : '';
  const inferenceSection =
    native === undefined && !opts.quick && opts.models.includes('resnet18')
      ? `\n${renderInference(inferenceRows(torch, opts.rounds ?? 1, (line) => process.stdout.write(`${line}\n`)))}`
      : '';
  const table = render(rows, {
    steps: opts.steps,
    quick: opts.quick,
    simd: info.simd,
    command: `pnpm bench ${argv.join(' ')}`.trim(),
    pinning,
    native: header,
  });
  write(`${table}${dpSection}${inferenceSection}`, opts);
}

/** The DP rows of the models asked for, each in a fresh process (median of `--rounds` processes by the DP step time). */
function dpRows(opts: Options): DpRow[] {
  const rows: DpRow[] = [];
  for (const name of opts.models.filter((m) => m in dpBenchModels)) {
    const runs = Array.from({ length: opts.rounds ?? 1 }, () => runDp(name, opts.dpEngine, opts.steps, opts.quick ? 1 : 2));
    const timed = runs.filter((r) => r.variants !== undefined);
    const dpMs = (r: DpRow) => r.variants!.find((v) => v.step === 'DP-SGD')!.msStep;
    const row = timed.length === 0 ? runs[0]! : [...timed].sort((a, b) => dpMs(a) - dpMs(b))[(timed.length - 1) >> 1]!;
    process.stdout.write(`${name} DP: ${row.variants?.map((v) => `${v.step} ${v.norm} ${v.msStep.toFixed(1)} ms`).join(', ') ?? row.note}\n`);
    rows.push(row);
  }
  return rows;
}

/** `--dp`: the DP section alone. */
function dpOnly(opts: Options, argv: string[], native: string | undefined): void {
  if (native !== undefined) throw new Error(`bench --dp: native kernels unavailable: ${native}`);
  const header = [
    `# pnpm bench --dp — ${new Date().toISOString()}`,
    '',
    `\`pnpm bench ${argv.join(' ')}\` — Node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? 'cpu'}. ${describeNative()}`,
    `Steps ${opts.steps} per variant after a warm-up; load average at the start: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')} on ${cpus().length} cores.`,
    '',
  ].join('\n');
  write(`${header}\n${renderDp(dpRows(opts))}`, opts);
}

/** `--inference`: the inference rows alone. */
function inferenceOnly(opts: Options, argv: string[], native: string | undefined): void {
  if (native !== undefined) throw new Error(`bench --inference: native kernels unavailable: ${native}`);
  const header = [
    `# pnpm bench --inference — ${new Date().toISOString()}`,
    '',
    `\`pnpm bench ${argv.join(' ')}\` — Node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? 'cpu'}. ${describeNative()}`,
    `Load average at the start: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')} on ${cpus().length} cores.`,
    '',
  ].join('\n');
  const rows = inferenceRows(torchVersion(), opts.rounds ?? 1, (line) => process.stdout.write(`${line}\n`));
  write(`${header}\n${renderInference(rows)}`, opts);
}

/** `--audit`: the audit row alone, in a fresh process. */
function auditOnly(opts: Options, argv: string[], native: string | undefined): void {
  if (engineById(opts.dpEngine).backend === 'native' && native !== undefined) throw new Error(`bench --audit: native kernels unavailable: ${native}`);
  const header = [
    `# pnpm bench --audit — ${new Date().toISOString()}`,
    '',
    `\`pnpm bench ${argv.join(' ')}\` — Node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? 'cpu'}. ${native === undefined ? describeNative() : ''}`,
    `Load average at the start: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')} on ${cpus().length} cores.`,
    '',
  ].join('\n');
  const row = runAudit({ records: opts.records, resamples: opts.resamples, stem: opts.stem, engine: opts.dpEngine });
  write(`${header}\n${renderAudit([row])}`, opts);
}

function write(text: string, opts: Options): void {
  process.stdout.write(`\n${text}\n`);
  const dir = new URL('./results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  const name = opts.out ?? freeName(dir, new Date().toISOString().slice(0, 10));
  writeFileSync(new URL(`${name}.md`, dir), text);
  process.stdout.write(`written to bench/results/${name}.md\n`);
}

function describeNative(): string {
  const i = nativeBackendInfo();
  // This parent process may be pinned to one core (pin.ts), so its own OpenMP count says 1: the rows of
  // multi-threaded engines run in children given every core.
  const bf16 = i.bf16 ? 'the CPU has bf16 dot products (bf16 rows: native and PyTorch autocast)' : 'no bf16 dot products on this CPU (no bf16 rows)';
  return `Native kernels: oneDNN ${i.onednn} (${i.cpuRuntime}, ISA ${i.isa}; ${bf16}), convolution layout ${i.convLayout}; multi-threaded rows run on all ${cpus().length} cores.`;
}

/** `<date>`, or `<date>-b`, `<date>-c`, … when earlier results of the day exist (never overwritten). */
function freeName(dir: URL, date: string): string {
  for (let i = 0; i < 26; i++) {
    const name = i === 0 ? date : `${date}-${String.fromCharCode(97 + i)}`;
    if (!existsSync(new URL(`${name}.md`, dir))) return name;
  }
  return `${date}-${Date.now()}`;
}
