// Runs bench/pytorch/bench_torch.py with Debian's /usr/bin/python3 (where python3-torch lives).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MALLOC_KEPT } from './engines';
import { allCores } from './pin';

const python = '/usr/bin/python3';
const script = fileURLToPath(new URL('./pytorch/bench_torch.py', import.meta.url));

export interface TorchTiming {
  msStep: number;
  /** Median process CPU time per step (all threads), ms. */
  cpuMsStep: number;
  minMs: number;
  torch: string;
}

/** The torch version, or undefined when `/usr/bin/python3 -c "import torch"` fails. */
export function torchVersion(): string | undefined {
  const r = spawnSync(python, ['-c', 'import torch; print(torch.__version__)'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/**
 * Median ms/step of PyTorch CPU (channels-last) for the model, or undefined on failure. With
 * `mallocKept`, glibc keeps freed memory mapped (see {@link MALLOC_KEPT}): on VMs where first-touch
 * page faults are expensive that makes PyTorch 1.5–3× faster. `bf16`: the forward pass and the loss
 * under `torch.autocast('cpu', dtype=torch.bfloat16)`.
 */
export function torchStep(
  model: string,
  threads: number,
  steps: number,
  batch: number,
  mallocKept: boolean,
  precision: 'fp32' | 'bf16' = 'fp32',
): TorchTiming | undefined {
  const args = [script, model, String(threads), String(steps), 'cl', String(batch), precision];
  // One thread stays on the pinned core (see pin.ts); more threads get every core.
  const wrap = threads > 1 ? allCores() : [];
  const [cmd, ...rest] = [...wrap, python, ...args];
  const env = { ...process.env, ...(mallocKept ? MALLOC_KEPT : {}) };
  const r = spawnSync(cmd!, rest, { encoding: 'utf8', timeout: 1_800_000, env });
  if (r.status !== 0) {
    process.stderr.write(`bench: PyTorch ${model} failed: ${r.stderr.slice(-400)}\n`);
    return undefined;
  }
  const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { ms_step: number; cpu_ms_step: number; min_ms: number; torch: string };
  return { msStep: out.ms_step, cpuMsStep: out.cpu_ms_step, minMs: out.min_ms, torch: out.torch };
}
