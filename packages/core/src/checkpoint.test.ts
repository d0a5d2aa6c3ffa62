import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCheckpoint, encodeCheckpoint, readCheckpointFile, writeCheckpointFile } from './checkpoint';
import { CheckpointError } from './errors';

beforeAll(async () => {
  await tf.setBackend('cpu');
});
const dir = mkdtempSync(join(tmpdir(), 'mia-ckpt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('checkpoint files', () => {
  it('round-trips tensors and metadata; writes leave no temporary file', async () => {
    const a = tf.tensor2d([
      [1.5, -2],
      [3, 4],
    ]);
    const b = tf.tensor1d([7, 8, 9], 'int32');
    const path = join(dir, 'x.ckpt');
    await writeCheckpointFile(path, {
      meta: { epochsDone: 3 },
      tensors: [
        { name: 'a', tensor: a },
        { name: 'b', tensor: b },
      ],
    });
    expect(readdirSync(dir)).toEqual(['x.ckpt']);
    const back = (await readCheckpointFile(path))!;
    expect(back.meta.epochsDone).toBe(3);
    expect(Array.from(back.tensors[0]!.tensor.dataSync())).toEqual([1.5, -2, 3, 4]);
    expect(back.tensors[1]!.tensor.dtype).toBe('int32');
    expect(await readCheckpointFile(join(dir, 'missing.ckpt'))).toBeUndefined();
    tf.dispose([a, b, ...back.tensors.map((t) => t.tensor)]);
  });

  it('rejects truncated and foreign files with a CheckpointError naming the file', async () => {
    const t = tf.ones([10]);
    const bytes = await encodeCheckpoint({ meta: {}, tensors: [{ name: 't', tensor: t }] });
    t.dispose();
    expect(() => decodeCheckpoint(bytes.subarray(0, bytes.length - 8), 'cut.ckpt')).toThrow(/cut.ckpt is not a valid checkpoint \(tensor t is truncated\)/);
    expect(() => decodeCheckpoint(new TextEncoder().encode('hello world, not a checkpoint'), 'foreign')).toThrow(/bad magic header/);
    const path = join(dir, 'bad.ckpt');
    writeFileSync(path, bytes.subarray(0, 20));
    await expect(readCheckpointFile(path)).rejects.toSatisfy((e: unknown) => CheckpointError.isInstance(e));
  });
});
