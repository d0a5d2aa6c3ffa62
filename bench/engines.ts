// Our engines, each timed in fresh child processes: the native kernels (all cores with freed memory kept
// mapped, the default; all cores with glibc's defaults; all cores in bf16 precision, where the CPU has
// bf16 dot products; one core, in fp32 and bf16) and the wasm path alone. A child prints its Row as JSON on its last line.
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';
import { nativeKernelStats, resetNativeKernelStats, useNativeTraining } from '@mia/backend-native';
import { useWasmTraining } from '@mia/backend-wasm';
import { benchModels } from './models';
import { allCores } from './pin';
import type { Row } from './render';
import { timeTraining } from './train-step';

/** The glibc settings that keep freed memory mapped (first-touch page faults are expensive on some VMs). */
export const MALLOC_KEPT = { MALLOC_MMAP_THRESHOLD_: '33554432', MALLOC_TRIM_THRESHOLD_: '68719476736' };

export interface Engine {
  id: string;
  label: string;
  backend: 'native' | 'wasm';
  /** Native threads (wasm is always one thread). */
  threads: number;
  /** Run on every core (else on the pinned core). */
  allCores: boolean;
  /** `returned`: `useNativeTraining({ keepFreedMemory: false })` (glibc's defaults) instead of the default. */
  freedMemory?: 'returned';
  /** `bf16`: `useNativeTraining({ precision: 'bf16' })` (only where the CPU has bf16 dot products). */
  precision?: 'bf16';
}

const cores = availableParallelism();

/** The engines `pnpm bench` times, by id. */
export const engines: Engine[] = [
  { id: 'native', label: `native, ${cores} threads`, backend: 'native', threads: cores, allCores: true },
  { id: 'native-glibc', label: `native, ${cores} threads, glibc malloc defaults`, backend: 'native', threads: cores, allCores: true, freedMemory: 'returned' },
  { id: 'native-bf16', label: `native, ${cores} threads, bf16`, backend: 'native', threads: cores, allCores: true, precision: 'bf16' },
  { id: 'native-1', label: 'native, 1 thread', backend: 'native', threads: 1, allCores: false },
  { id: 'native-1-bf16', label: 'native, 1 thread, bf16', backend: 'native', threads: 1, allCores: false, precision: 'bf16' },
  { id: 'wasm', label: 'wasm (@mia/backend-wasm), 1 thread', backend: 'wasm', threads: 1, allCores: false },
];

export const engineById = (id: string): Engine => {
  const e = engines.find((x) => x.id === id);
  if (e === undefined) throw new Error(`bench: unknown engine ${id} (known: ${engines.map((x) => x.id).join(', ')})`);
  return e;
};

/** Sets up an engine in this process. */
export async function setupEngine(engine: Engine): Promise<void> {
  if (engine.backend === 'native')
    await useNativeTraining({ threads: engine.threads, keepFreedMemory: engine.freedMemory !== 'returned', precision: engine.precision ?? 'fp32' });
  else await useWasmTraining();
  await tf.setBackend('wasm');
}

/** Native kernel calls that fell back to wasm in this process, as one note ('' when none). */
export function fallbackNote(): string {
  const fell = Object.entries(nativeKernelStats()).filter(([, c]) => c.fallback > 0);
  return fell.length === 0 ? '' : `fallbacks: ${fell.map(([n, c]) => `${n} ×${c.fallback} (${Object.keys(c.reasons).join('; ')})`).join(', ')}`;
}

/** Child process: one engine on one model; prints the Row as JSON. */
export async function childRun(engineId: string, model: string, steps: number, warmup: number, batch: number, microBatches: number): Promise<void> {
  const engine = engineById(engineId);
  await setupEngine(engine);
  resetNativeKernelStats();
  const m = benchModels[model]!(batch);
  let row: Row;
  try {
    row = { model, batch, engine: engine.label, timing: timeTraining(m, steps, warmup, microBatches) };
    const fb = engine.backend === 'native' ? fallbackNote() : '';
    if (fb) row.note = fb;
  } catch (error) {
    row = { model, batch, engine: engine.label, note: `fails: ${(error as Error).name}: ${(error as Error).message.split('\n')[0]!.slice(0, 160)}` };
  }
  process.stdout.write(`${JSON.stringify(row)}\n`);
}

/** Runs an engine on a model in a fresh child process. */
export function runEngine(engine: Engine, model: string, batch: number, steps: number, warmup: number, microBatches = 1, label = engine.label): Row {
  const run = fileURLToPath(new URL('./run.ts', import.meta.url));
  const args = [...process.execArgv, run, '--child', engine.id, model, String(steps), String(warmup), String(batch), String(microBatches)];
  const wrap = engine.allCores ? allCores() : [];
  const [cmd, ...rest] = [...wrap, process.execPath, ...args];
  const env = { ...process.env };
  const r = spawnSync(cmd!, rest, { encoding: 'utf8', timeout: 3_600_000, maxBuffer: 64 * 2 ** 20, env });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status === 0 && last.startsWith('{')) return { ...(JSON.parse(last) as Row), engine: label };
  return { model, batch, engine: label, note: `fails: exit ${r.status ?? r.signal}: ${(r.stderr.trim().split('\n').pop() ?? '').slice(0, 160)}` };
}

/** The row of the process with the median step time, noting every process's median. */
export function medianProcess(rows: Row[]): Row {
  const timed = rows.filter((r) => r.timing !== undefined).sort((a, b) => a.timing!.msStep - b.timing!.msStep);
  if (timed.length === 0) return rows[0]!;
  const mid = timed[Math.floor((timed.length - 1) / 2)]!;
  if (timed.length === 1) return mid;
  const all = timed.map((r) => r.timing!.msStep.toFixed(1)).join(' / ');
  const note = `median of ${timed.length} fresh processes (${all} ms)${mid.note ? `; ${mid.note}` : ''}`;
  return {
    ...mid,
    timing: { ...mid.timing!, minMs: Math.min(...timed.map((r) => r.timing!.minMs)), minCpuMs: Math.min(...timed.map((r) => r.timing!.minCpuMs)) },
    note,
  };
}
