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
    const torch = rows
      .filter((r) => r.model === model && r.batch === batch && r.torch !== undefined && r.engine.includes('2 threads'))
      .sort((a, b) => a.torch!.msStep - b.torch!.msStep)[0];
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
  const onePass = rows.filter((r) => r.model === 'resnet18' && r.batch === 128);
  for (const r of onePass)
    out.push(
      '',
      `ResNet-18 at batch 128 in one pass, ${r.engine}: ${r.timing ? `trains (${fmt(r.timing.msStep)} ms/step, heap ${fmt(r.timing.heapMb, 0)} MB)` : `fails (${r.note ?? ''})`}.`,
    );
  return out;
}
