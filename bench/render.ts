// The results table of `pnpm bench` (markdown), with the issue's speed targets checked by wall and CPU time.
import { cpus, loadavg } from 'node:os';
import * as tf from '@tensorflow/tfjs-core';
import { benchModels, trainingFlops } from './models';
import type { XnnpackRate } from './probe';
import type { StepTiming } from './train-step';
import type { TorchTiming } from './torch-anchor';
import { prototypeEngine } from './prototype-engine';

export const oursEngine = 'tfjs-wasm + @mia/backend-wasm';

export interface Row {
  model: string;
  batch: number;
  engine: string;
  timing?: StepTiming | undefined;
  torch?: TorchTiming | undefined;
  note?: string;
  estimated?: boolean;
}

export interface RenderOptions {
  steps: number;
  quick: boolean;
  simd: boolean;
  command: string;
  /** How the single-threaded engines were placed on cores (see pin.ts). */
  pinning: string;
  /** XNNPACK's best GEMM / convolution rate in this run (see probe.ts). */
  rate: XnnpackRate;
}

/** Issue #3 targets: absolute ms/step (one wasm thread) and the ratio to PyTorch CPU with 2 threads. */
const targets: Record<string, { batch: number; ms: number; torchRatio: number }> = {
  purchase: { batch: 128, ms: 45, torchRatio: 2 },
  smallcnn: { batch: 128, ms: 1200, torchRatio: 6 },
  resnet18: { batch: 64, ms: 9500, torchRatio: 6 },
};

const fmt = (v: number | undefined, digits = 1): string => (v === undefined ? '—' : v.toFixed(digits));

export function render(rows: Row[], opts: RenderOptions): string {
  const flops = new Map(Object.keys(benchModels).map((n) => [n, benchModels[n]!()]));
  const key = (r: Row): string => `${r.model}:${r.batch}`;
  const ours = new Map(rows.filter((r) => r.engine === oursEngine).map((r) => [key(r), r.timing]));
  const lines = [
    `# pnpm bench — ${new Date().toISOString()}`,
    '',
    `\`${opts.command}\` — Node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? 'cpu'}, tfjs ${tf.version_core}, wasm SIMD ${opts.simd}, 1 wasm thread.`,
    `Steps ${opts.steps}${opts.quick ? ', --quick' : ''}, after an untimed warm-up of ≥ 4 s (≤ 30 steps; count in the note) while V8 compiles the JS. Medians per full training step (forward + backward + SGD momentum): wall ms, and process CPU ms`,
    '(user + system, all threads of the process; less inflated than wall time when other processes share the cores, but not immune:',
    'they share caches and, with hyper-threading, execution units). GFLOP/s = 3 × forward conv/linear FLOPs per wall second.',
    '"ours ÷ this" = ours divided by this engine (for PyTorch: how many times faster PyTorch is; for stock tfjs: < 1 means ours is faster);',
    "by CPU it divides CPU times (PyTorch's CPU time sums its threads).",
    `Load average at the end of the run: ${loadavg().map((l) => l.toFixed(1)).join(', ')} on ${cpus().length} cores; above the core count, timings are inflated and noisy.`,
    opts.pinning,
    `XNNPACK's own rate in this run, weights pre-packed (the ceiling of any wasm engine here): GEMM 128×600·600×1024 ${opts.rate.gemm.toFixed(1)} GFLOP/s,`,
    `3×3 convolution 16×32×32×64 → 64 ${opts.rate.conv.toFixed(1)} GFLOP/s. (docs/performance.md, measured on another day: GEMM ~36, stride-1 convolution 34–39.)`,
    '',
    '| model | batch | engine | ms/step | CPU ms/step | images/s | GFLOP/s | no tensor leak | ours ÷ this (wall) | ours ÷ this (CPU) | note |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const ms = r.timing?.msStep ?? r.torch?.msStep;
    const cpu = r.timing?.cpuMsStep ?? r.torch?.cpuMsStep;
    const model = flops.get(r.model);
    const gflops = ms !== undefined && model !== undefined ? ((3 * model.forwardFlops * (r.batch / model.batch)) / (ms / 1000) / 1e9).toFixed(1) : '';
    const base = ours.get(key(r));
    const mine = !r.engine.includes('@mia');
    const ratio = ms !== undefined && base !== undefined && mine ? (base.msStep / ms).toFixed(2) : '';
    const cpuRatio = cpu !== undefined && base !== undefined && mine ? (base.cpuMsStep / cpu).toFixed(2) : '';
    const leak = r.timing ? (r.timing.leakFree ? 'yes' : `NO (${r.timing.leakDetail})`) : '';
    const heapGrowth = r.timing?.heapGrowthMb ? `heap grew ${r.timing.heapGrowthMb.toFixed(0)} MB after warm-up (no tensor leak)` : undefined;
    const heap = r.timing?.heapMb !== undefined && r.engine.includes('@mia') ? `heap ${r.timing.heapMb.toFixed(0)} MB` : undefined;
    const warm = r.timing ? `warm-up ${r.timing.warmupSteps}` : undefined;
    const note = [r.note, r.estimated ? 'estimate' : undefined, warm, heapGrowth, heap].filter(Boolean).join('; ');
    const imgs = ms === undefined ? '' : ((r.batch * 1000) / ms).toFixed(0);
    lines.push(`| ${r.model} | ${r.batch} | ${r.engine} | ${fmt(ms)} | ${fmt(cpu)} | ${imgs} | ${gflops} | ${leak} | ${ratio} | ${cpuRatio} | ${note} |`);
  }
  lines.push('', ...targetLines(rows, opts.rate));
  return `${lines.join('\n')}\n`;
}

/** One line per model: each target met or not, by wall and by CPU time. */
function targetLines(rows: Row[], rate: XnnpackRate): string[] {
  const out = [
    '## Targets of issue #3 (one wasm thread)',
    '',
    'By wall: our wall ms/step (and ÷ PyTorch 2-thread wall ms/step). By CPU: our CPU ms/step (and ÷ half of PyTorch 1-thread CPU ms/step,',
    'i.e. assuming PyTorch scales perfectly to 2 threads — the conservative estimate of its 2-thread time on an idle machine).',
    "The absolute ms targets are the prototype's figures in docs/performance.md, measured on another day; \"≥ the prototype's speed\"",
    'compares with the reference prototype kernels measured in this run (ratio = ours ÷ prototype; ≤ 1.00 is met), by the median step and by the',
    'fastest step (the least disturbed by other processes: under load the medians of two engines measured a minute apart differ by ±5–30%).',
    '"Floor" is the step\'s convolution and matrix-product FLOPs (forward, weight gradients, input gradients but the first layer\'s) at',
    "XNNPACK's best rate in this run (above), with nothing else counted: no engine built on XNNPACK can step faster on this machine today.",
    '',
    '| model | batch | target | by wall | by CPU |',
    '|---|---|---|---|---|',
  ];
  const yes = (ok: boolean | undefined): string => (ok === undefined ? 'n/a' : ok ? 'met' : 'NOT met');
  for (const [model, t] of Object.entries(targets)) {
    const mine = rows.find((r) => r.model === model && r.batch === t.batch && r.engine === oursEngine)?.timing;
    if (mine === undefined) continue;
    const torchRow = (threads: string): TorchTiming | undefined =>
      rows.find((r) => r.model === model && r.batch === t.batch && r.torch !== undefined && r.engine.endsWith(threads))?.torch;
    const torch1 = torchRow('1 thread');
    const torch2 = torchRow('2 threads');
    out.push(`| ${model} | ${t.batch} | ≤ ${t.ms} ms/step | ${yes(mine.msStep <= t.ms)} (${fmt(mine.msStep)}) | ${yes(mine.cpuMsStep <= t.ms)} (${fmt(mine.cpuMsStep)}) |`);
    const spec = benchModels[model]!(t.batch);
    const floor = (trainingFlops(spec) / (Math.max(rate.gemm, rate.conv) * 1e9)) * 1000;
    out.push(`| ${model} | ${t.batch} | floor: multiply-adds alone at ${Math.max(rate.gemm, rate.conv).toFixed(1)} GFLOP/s | ${fmt(floor)} ms (${t.ms <= floor ? 'the target is below it' : `the target is ${(t.ms / floor).toFixed(2)}× it`}; ours ${(mine.msStep / floor).toFixed(2)}×) | |`);
    const proto = rows.find((r) => r.model === model && r.batch === t.batch && r.engine === prototypeEngine);
    if (proto !== undefined) {
      const p = proto.timing;
      const vs = (ours: number, theirs: number): string => `${yes(ours <= theirs)} (${(ours / theirs).toFixed(2)}×: ${fmt(ours)} vs ${fmt(theirs)})`;
      const why = `n/a (${proto.note ?? 'no timing'})`;
      out.push(`| ${model} | ${t.batch} | ≥ the prototype's speed, this run | ${p ? vs(mine.msStep, p.msStep) : why} | ${p ? vs(mine.cpuMsStep, p.cpuMsStep) : why} |`);
      if (p !== undefined) {
        out.push(`| ${model} | ${t.batch} | ≥ the prototype's speed, this run, fastest step | ${vs(mine.minMs, p.minMs)} | ${vs(mine.minCpuMs, p.minCpuMs)} |`);
      }
    }
    if (torch2 !== undefined || torch1 !== undefined) {
      const wall = torch2 === undefined ? undefined : mine.msStep / torch2.msStep;
      // CPU: our one-thread CPU time against PyTorch's one-thread CPU time halved, i.e. assuming PyTorch
      // scaled perfectly to 2 threads (the conservative reading; its own 2-thread run is inflated by the load).
      const cpu = torch1 === undefined ? undefined : mine.cpuMsStep / (torch1.cpuMsStep / 2);
      const show = (v: number | undefined): string => (v === undefined ? '' : ` (${v.toFixed(2)}×)`);
      out.push(
        `| ${model} | ${t.batch} | ≤ ${t.torchRatio}× PyTorch 2 threads | ${yes(wall === undefined ? undefined : wall <= t.torchRatio)}${show(wall)} | ${yes(cpu === undefined ? undefined : cpu <= t.torchRatio)}${show(cpu)} |`,
      );
    }
  }
  const one = rows.find((r) => r.model === 'resnet18' && r.batch === 128 && r.engine.includes('one pass'));
  if (one !== undefined) out.push(`| resnet18 | 128 | trains in one pass | ${one.timing ? 'met' : `NOT met (${one.note ?? ''})`} | |`);
  const acc = rows.find((r) => r.model === 'resnet18' && r.batch === 128 && r.engine.includes('accumulated'));
  if (acc !== undefined) out.push(`| resnet18 | 128 | trains with 2 × 64 accumulation | ${acc.timing ? 'met' : `NOT met (${acc.note ?? ''})`} | |`);
  return out;
}
