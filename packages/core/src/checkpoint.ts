import * as tf from '@tensorflow/tfjs-core';
import { CheckpointError } from './errors';

/** Contents of a training checkpoint (see {@link writeCheckpointFile}). */
export interface CheckpointData {
  /** Free-form JSON metadata (epochs done, history, config digest). */
  readonly meta: Record<string, unknown>;
  /** Named tensors. */
  readonly tensors: ReadonlyArray<{ name: string; tensor: tf.Tensor }>;
}

const MAGIC = 'MIACKPT1';

/**
 * Serialises tensors and metadata into one buffer:
 * `"MIACKPT1" | uint32 headerLength | header JSON | raw little-endian tensor bytes`.
 */
export async function encodeCheckpoint(data: CheckpointData): Promise<Uint8Array> {
  const specs: Array<{ name: string; shape: number[]; dtype: string; offset: number; length: number }> = [];
  const parts: Uint8Array[] = [];
  let offset = 0;
  for (const { name, tensor } of data.tensors) {
    const values = await tensor.data();
    const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength).slice();
    specs.push({ name, shape: tensor.shape, dtype: tensor.dtype, offset, length: bytes.byteLength });
    parts.push(bytes);
    offset += bytes.byteLength;
  }
  const header = new TextEncoder().encode(JSON.stringify({ meta: data.meta, specs }));
  const out = new Uint8Array(8 + 4 + header.byteLength + offset);
  out.set(new TextEncoder().encode(MAGIC), 0);
  new DataView(out.buffer).setUint32(8, header.byteLength, true);
  out.set(header, 12);
  let at = 12 + header.byteLength;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/**
 * Parses a buffer written by {@link encodeCheckpoint}. The caller owns (and disposes) the tensors.
 * @throws CheckpointError when the buffer is truncated or not a checkpoint.
 */
export function decodeCheckpoint(bytes: Uint8Array, source = 'checkpoint'): CheckpointData {
  const fail = (why: string) => new CheckpointError(`decodeCheckpoint: ${source} is not a valid checkpoint (${why})`);
  if (bytes.byteLength < 12 || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) throw fail('bad magic header');
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true);
  if (12 + headerLength > bytes.byteLength) throw fail('truncated header');
  let header: { meta: Record<string, unknown>; specs: Array<{ name: string; shape: number[]; dtype: tf.DataType; offset: number; length: number }> };
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + headerLength)));
  } catch (cause) {
    throw new CheckpointError(`decodeCheckpoint: ${source} has a corrupted header`, { cause });
  }
  const base = 12 + headerLength;
  const tensors = header.specs.map((s) => {
    if (base + s.offset + s.length > bytes.byteLength) throw fail(`tensor ${s.name} is truncated`);
    // Copy: a Node Buffer's slice is a view into a shared pool with an arbitrary offset.
    const raw = new Uint8Array(bytes.subarray(base + s.offset, base + s.offset + s.length));
    const values = s.dtype === 'int32' ? new Int32Array(raw.buffer) : new Float32Array(raw.buffer);
    if (values.length !== s.shape.reduce((a, b) => a * b, 1)) throw fail(`tensor ${s.name} has the wrong size`);
    return { name: s.name, tensor: tf.tensor(values, s.shape, s.dtype) };
  });
  return { meta: header.meta, tensors };
}

/** Writes a checkpoint atomically (temporary file, then rename) so a crash never leaves half a file. */
export async function writeCheckpointFile(path: string, data: CheckpointData): Promise<void> {
  const fs = await import('node:fs/promises');
  const nodePath = await import('node:path');
  await fs.mkdir(nodePath.dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  await fs.writeFile(tmp, await encodeCheckpoint(data));
  await fs.rename(tmp, path);
}

/** Reads a checkpoint file, or returns `undefined` when it does not exist. */
export async function readCheckpointFile(path: string): Promise<CheckpointData | undefined> {
  const fs = await import('node:fs/promises');
  let bytes: Uint8Array;
  try {
    bytes = await fs.readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CheckpointError(`readCheckpointFile: cannot read ${path}`, { cause: error });
  }
  return decodeCheckpoint(bytes, path);
}
