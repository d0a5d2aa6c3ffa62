// The results table of `pnpm bench` (markdown) and the speed targets against PyTorch in the same run.
import { cpus, loadavg } from 'node:os';
import * as tf from '@tensorflow/tfjs-core';
import { engines } from './engines';
import { benchModels } from './models';
import type { StepTiming } from './train-step';
import type { TorchTiming } from './torch-anchor';

export interface Row {
  model: string;
  batch: number;
  engine: string;
  timing?: StepTiming | undefined;
  torch?: TorchTiming | undefined;
  note?: string | undefined;
}

export interface RenderOptions {
  steps: number;
  quick: boolean;
  simd: boolean;
  command: string;
  /** How the single-threaded engines were placed on cores (see pin.ts). */
  pinning: string;
  /** The native build in use, or why there is none. */
  native: string;
}

/** The speed target of the native kernels: native wall time per step ÷ the faster PyTorch 2-thread run (plain or malloc kept). */
const TARGET = 0.85;
const MOONSHOT = 0.7;
const BATCHES: Record<string, number> = { purchase: 128, smallcnn: 128, resnet18: 64 };
const nativeEngine = engines.find((e) => e.id === 'native')!.label;
const bf16Engine = engines.find((e) => e.id === 'native-bf16')!.label;
const oneThread = engines.find((e) => e.id === 'native-1')!.label;
const oneThreadBf16 = engines.find((e) => e.id === 'native-1-bf16')!.label;
/** The bf16 targets against PyTorch 2-thread fp32 and bf16 autocast (AVX-512 BF16 or AMX CPUs). */
const BF16_TARGETS: Record<string, { fp32?: number; bf16?: number }> = { smallcnn: { fp32: 0.6 }, resnet18: { fp32: 0.5, bf16: 0.85 } };

const fmt = (v: number | undefined, digits = 1): string => (v === undefined ? '—' : v.toFixed(digits));

export function render(rows: Row[], opts: RenderOptions): string {
  const flops = new Map(Object.keys(benchModels).map((n) => [n, benchModels[n]!()]));
  const key = (r: Row): string => `${r.model}:${r.batch}`;
  const native = new Map(rows.filter((r) => r.engine === nativeEngine).map((r) => [key(r), r.timing]));
  const lines = [
    `# pnpm bench — ${new Date().toISOString()}`,
    '',
    `\`${opts.command}\` — Node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? 'cpu'}, tfjs ${tf.version_core}, wasm SIMD ${opts.simd}.`,
    opts.native,
    `Steps ${opts.steps}${opts.quick ? ', --quick' : ''}, after an untimed warm-up of ≥ 4 s (≤ 30 steps; count in the note) while V8 compiles the JS. Medians per full training step`,
    '(forward + backward + SGD momentum): wall ms, and process CPU ms (user + system, all threads of the process). GFLOP/s = 3 × forward conv/linear',
    'FLOPs per wall second. "native ÷ this" = the native engine (all cores) divided by this engine, by wall time: < 1 means native is faster.',
    '"malloc kept" = `MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_TRIM_THRESHOLD_=68719476736`: glibc keeps freed memory mapped instead of',
    'returning it each step (first-touch page faults are expensive on this VM; PyTorch gains 1.5–3×, the wasm heap never returns memory anyway).',
    `Load average at the end of the run: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')} on ${cpus().length} cores; above the core count, timings are inflated and noisy.`,
    opts.pinning,
    '',
    '| model | batch | engine | ms/step | CPU ms/step | fastest ms | images/s | GFLOP/s | no leak | native ÷ this | note |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const ms = r.timing?.msStep ?? r.torch?.msStep;
    const cpu = r.timing?.cpuMsStep ?? r.torch?.cpuMsStep;
    const min = r.timing?.minMs ?? r.torch?.minMs;
    const model = flops.get(r.model);
    const gflops = ms !== undefined && model !== undefined ? ((3 * model.forwardFlops * (r.batch / model.batch)) / (ms / 1000) / 1e9).toFixed(1) : '';
    const base = native.get(key(r));
    const ratio = ms !== undefined && base !== undefined && r.engine !== nativeEngine ? (base.msStep / ms).toFixed(2) : '';
    const leak = r.timing ? (r.timing.leakFree ? 'yes' : `NO (${r.timing.leakDetail})`) : '';
    const heapGrowth = r.timing?.heapGrowthMb ? `heap grew ${r.timing.heapGrowthMb.toFixed(0)} MB after warm-up` : undefined;
    const heap = r.timing?.heapMb !== undefined ? `heap ${r.timing.heapMb.toFixed(0)} MB` : undefined;
    const warm = r.timing ? `warm-up ${r.timing.warmupSteps}` : undefined;
    const note = [r.note, warm, heapGrowth, heap].filter(Boolean).join('; ');
    const imgs = ms === undefined ? '' : ((r.batch * 1000) / ms).toFixed(0);
    lines.push(`| ${r.model} | ${r.batch} | ${r.engine} | ${fmt(ms)} | ${fmt(cpu)} | ${fmt(min)} | ${imgs} | ${gflops} | ${leak} | ${ratio} | ${note} |`);
  }
  lines.push('', ...targetLines(rows));
  return `${lines.join('\n')}\n`;
}

/** One line per model: native wall ms/step ÷ the faster PyTorch 2-thread wall ms/step, this run. */
function targetLines(rows: Row[]): string[] {
  const out = [
    '## Speed targets of the native kernels (all cores, against PyTorch 2 threads in this run)',
    '',
    `Ratio = native wall ms/step ÷ the faster of PyTorch's two 2-thread runs (plain and malloc kept). Target ≤ ${TARGET}×; moonshot ≤ ${MOONSHOT}×.`,
    'Both medians are over the same number of timed steps; "fastest" compares the fastest steps (the least disturbed by other processes).',
    '',
    `| model | batch | native ms | PyTorch 2t ms (which) | ratio | ≤ ${TARGET}× | ≤ ${MOONSHOT}× | fastest-step ratio |`,
    '|---|---|---|---|---|---|---|---|',
  ];
  const yes = (ok: boolean): string => (ok ? 'met' : 'NOT met');
  for (const [model, batch] of Object.entries(BATCHES)) {
    const mine = rows.find((r) => r.model === model && r.batch === batch && r.engine === nativeEngine)?.timing;
    const torch = fasterTorch(rows, model, batch, 'fp32');
    if (mine === undefined || torch?.torch === undefined) {
      if (rows.some((r) => r.model === model))
        out.push(`| ${model} | ${batch} | ${fmt(mine?.msStep)} | ${torch === undefined ? 'not measured' : fmt(torch.torch?.msStep)} | n/a | n/a | n/a | |`);
      continue;
    }
    const ratio = mine.msStep / torch.torch.msStep;
    const which = torch.engine.includes('malloc kept') ? 'malloc kept' : 'plain';
    const fastest = mine.minMs / torch.torch.minMs;
    out.push(
      `| ${model} | ${batch} | ${fmt(mine.msStep)} | ${fmt(torch.torch.msStep)} (${which}) | ${ratio.toFixed(2)}× | ${yes(ratio <= TARGET)} | ${yes(ratio <= MOONSHOT)} | ${fastest.toFixed(2)}× |`,
    );
  }
  out.push(...bf16Lines(rows));
  const onePass = rows.filter((r) => r.model === 'resnet18' && r.batch === 128);
  for (const r of onePass)
    out.push(
      '',
      `ResNet-18 at batch 128 in one pass, ${r.engine}: ${r.timing ? `trains (${fmt(r.timing.msStep)} ms/step, heap ${fmt(r.timing.heapMb, 0)} MB)` : `fails (${r.note ?? ''})`}.`,
    );
  return out;
}

/** The faster of PyTorch's two 2-thread runs (plain and malloc kept) of a model, fp32 or bf16 autocast. */
function fasterTorch(rows: Row[], model: string, batch: number, precision: 'fp32' | 'bf16'): Row | undefined {
  return rows
    .filter(
      (r) =>
        r.model === model &&
        r.batch === batch &&
        r.torch !== undefined &&
        r.engine.includes('2 threads') &&
        r.engine.includes('bf16') === (precision === 'bf16'),
    )
    .sort((a, b) => a.torch!.msStep - b.torch!.msStep)[0];
}

/** The native bf16 row against PyTorch 2-thread fp32 and bf16 autocast, this run (none without bf16 rows). */
function bf16Lines(rows: Row[]): string[] {
  if (!rows.some((r) => r.engine === bf16Engine)) return [];
  const out = [
    '',
    '## bf16 (native `precision: bf16` against PyTorch 2 threads, fp32 and `torch.autocast` bf16, this run)',
    '',
    "Ratio = native bf16 wall ms/step ÷ the faster of PyTorch's two 2-thread runs (plain and malloc kept) of each precision; targets where the CPU has bf16 dot products:",
    'ResNet-18 ≤ 0.5× PyTorch fp32 and ≤ 0.85× PyTorch bf16, SmallCNN ≤ 0.6× PyTorch fp32. "native fp32 ÷ bf16" is the speed-up over the native fp32 row',
    '(all cores; "1 thread": the same on one pinned core, as the reproductions\' one-thread workers train).',
    '',
    '| model | batch | native bf16 ms | native fp32 ÷ bf16 | 1 thread: fp32 ÷ bf16 | PyTorch fp32 ms | ÷ PyTorch fp32 | target | PyTorch bf16 ms | ÷ PyTorch bf16 | target |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const verdict = (ratio: number | undefined, target: number | undefined): string =>
    target === undefined ? '—' : ratio === undefined ? 'n/a' : `≤ ${target}× ${ratio <= target ? 'met' : 'NOT met'}`;
  for (const [model, batch] of Object.entries(BATCHES)) {
    const mine = rows.find((r) => r.model === model && r.batch === batch && r.engine === bf16Engine)?.timing;
    if (mine === undefined) continue;
    const timing = (engine: string): StepTiming | undefined => rows.find((r) => r.model === model && r.batch === batch && r.engine === engine)?.timing;
    const fp32 = timing(nativeEngine);
    const one = timing(oneThread);
    const oneBf16 = timing(oneThreadBf16);
    const tf32 = fasterTorch(rows, model, batch, 'fp32')?.torch;
    const tbf16 = fasterTorch(rows, model, batch, 'bf16')?.torch;
    const r32 = tf32 === undefined ? undefined : mine.msStep / tf32.msStep;
    const r16 = tbf16 === undefined ? undefined : mine.msStep / tbf16.msStep;
    const ratio = (r: number | undefined): string => (r === undefined ? 'n/a' : `${r.toFixed(2)}×`);
    out.push(
      `| ${model} | ${batch} | ${fmt(mine.msStep)} | ${fp32 === undefined ? 'n/a' : `${(fp32.msStep / mine.msStep).toFixed(2)}×`} | ${one === undefined || oneBf16 === undefined ? 'n/a' : `${(one.msStep / oneBf16.msStep).toFixed(2)}×`} | ${fmt(tf32?.msStep)} | ${ratio(r32)} | ${verdict(r32, BF16_TARGETS[model]?.fp32)} | ${fmt(tbf16?.msStep)} | ${ratio(r16)} | ${verdict(r16, BF16_TARGETS[model]?.bf16)} |`,
    );
  }
  return out;
}
