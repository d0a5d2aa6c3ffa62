// The "tfjs-wasm + reference prototype kernels" engine: the team's first prototype of the wasm
// training kernels (a CommonJS file outside this repository, named by MIA_PROTOTYPE_KERNELS; its
// figures are the absolute targets of docs/performance.md) applied to a fresh stock tfjs-wasm in its
// own process, so that its speed is measured in the same run, on the same machine, as ours.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';
import { benchModels } from './models';
import type { Row } from './render';
import { timeTraining } from './train-step';

export const prototypeEngine = 'tfjs-wasm + reference prototype kernels (own process)';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Where the prototype is: the path in `MIA_PROTOTYPE_KERNELS`, resolved from the repo root; '' when unset (the row is skipped). */
export const prototypePath = process.env.MIA_PROTOTYPE_KERNELS ? resolve(repoRoot, process.env.MIA_PROTOTYPE_KERNELS) : '';

interface Prototype {
  applyWasmPatches(opts?: Record<string, unknown>): void;
}

/**
 * Evaluates the prototype's CommonJS source with a `require` whose `@tensorflow/tfjs` is
 * `@tensorflow/tfjs-core` (the union package is not installed, and the prototype only uses tfjs-core
 * symbols: `getKernel`, `registerKernel`, `unregisterKernel`, `backend_util.computeConv2DInfo`).
 * Reading any other member of `tf` throws, naming it, instead of returning undefined.
 */
export function loadPrototype(path: string = prototypePath): Prototype {
  if (path === '') throw new Error('bench: the prototype engine needs MIA_PROTOTYPE_KERNELS=<path to wasm-training-kernels.js>, which is unset');
  const source = readFileSync(path, 'utf8');
  const core = tf as unknown as Record<string | symbol, unknown>;
  const tfShim = new Proxy(core, {
    get(target, key) {
      if (!(key in target)) throw new Error(`bench: the prototype uses tf.${String(key)}, which @tensorflow/tfjs-core does not export`);
      return target[key];
    },
  });
  const shimRequire = (id: string): unknown => {
    if (id === '@tensorflow/tfjs') return tfShim;
    throw new Error(`bench: the prototype requires ${id}; the shim provides only @tensorflow/tfjs (as @tensorflow/tfjs-core)`);
  };
  const cjsModule = { exports: {} as Record<string, unknown> };
  // The CommonJS wrapper Node itself uses: the reference file runs unmodified, with the shimmed require.
  const run = new Function('require', 'module', 'exports', '__filename', '__dirname', 'process', source) as (...args: unknown[]) => void;
  run(shimRequire, cjsModule, cjsModule.exports, path, dirname(path), process);
  const proto = cjsModule.exports as unknown as Partial<Prototype>;
  if (typeof proto.applyWasmPatches !== 'function') throw new Error(`bench: ${path} exports no applyWasmPatches()`);
  return proto as Prototype;
}

/** Sets a fresh stock tfjs-wasm backend and applies the prototype's patches to it (once per process). */
export async function usePrototypeKernels(): Promise<void> {
  await import('@tensorflow/tfjs-backend-wasm');
  if (!(await tf.setBackend('wasm'))) throw new Error('bench: tf.setBackend("wasm") failed');
  loadPrototype().applyWasmPatches(); // after setBackend, as the prototype requires (setupFuncs have run)
}

/** Child process: stock tfjs-wasm + the prototype's patches, one timed run of `model`; prints the Row as JSON. */
export async function childPrototype(model: string, steps: number, warmup: number): Promise<void> {
  await usePrototypeKernels();
  const m = benchModels[model]!();
  let row: Row;
  try {
    row = { model, batch: m.batch, engine: prototypeEngine, timing: timeTraining(m, steps, warmup) };
  } catch (error) {
    row = { model, batch: m.batch, engine: prototypeEngine, note: `fails: ${(error as Error).name}: ${(error as Error).message.split('\n')[0]!.slice(0, 160)}` };
  }
  process.stdout.write(`${JSON.stringify(row)}\n`);
}

/** Runs the prototype engine for `model` in a child process (or a "skipped" row when the file is absent). */
export function runPrototype(model: string, batch: number, steps: number, warmup: number): Row {
  if (prototypePath === '') return { model, batch, engine: prototypeEngine, note: 'skipped: MIA_PROTOTYPE_KERNELS is not set' };
  if (!existsSync(prototypePath)) return { model, batch, engine: prototypeEngine, note: `skipped: prototype not found at ${prototypePath}` };
  const run = fileURLToPath(new URL('./run.ts', import.meta.url));
  const args = [...process.execArgv, run, '--child-prototype', model, String(steps), String(warmup)];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 3_600_000, maxBuffer: 64 * 2 ** 20 });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status === 0 && last.startsWith('{')) return JSON.parse(last) as Row;
  const why = r.status === 0 ? 'no result' : `exit ${r.status ?? r.signal}: ${(r.stderr.trim().split('\n').pop() ?? '').slice(0, 160)}`;
  return { model, batch, engine: prototypeEngine, note: `fails: ${why}` };
}
