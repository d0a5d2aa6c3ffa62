import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidDatasetError } from '@mia/core';
import { parseNpy } from '@mia/attacks';
import { afterAll, describe, expect, it } from 'vitest';
import type { PreparedData } from '../data/prepare-data';
import { npyBytes } from './npy-bytes';
import { importReferences, parseReferenceHparams, parseReferenceModel } from './reference-import';

const dir = mkdtempSync(join(tmpdir(), 'mia-reference-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const errorOf = (f: () => unknown): Error => {
  try {
    f();
  } catch (error) {
    expect(InvalidDatasetError.isInstance(error)).toBe(true);
    return error as Error;
  }
  throw new Error('expected an error');
};

describe('npyBytes', () => {
  it('writes what np.save writes: parseNpy reads it back, the header padded to 64 bytes', () => {
    const f4 = npyBytes('<f4', [2, 1, 1, 3], Float32Array.from([1, 2, 3, 4.5, NaN, -1]));
    expect(f4.length % 64).toBe((2 * 3 * 4) % 64); // header + magic is a multiple of 64
    const back = parseNpy(f4);
    expect(back.shape).toEqual([2, 1, 1, 3]);
    expect(back.dtype).toBe('<f4');
    expect([...back.data].slice(0, 4)).toEqual([1, 2, 3, 4.5]);
    expect(Number.isNaN(back.data[4])).toBe(true);
    const b1 = parseNpy(npyBytes('|b1', [4], Uint8Array.from([1, 0, 0, 1])));
    expect([...b1.data]).toEqual([1, 0, 0, 1]);
    expect(b1.shape).toEqual([4]);
    expect(() => npyBytes('<f4', [2, 2], new Float32Array(3))).toThrow('npyBytes: shape (2, 2) needs 4 values, got 3');
  });
});

describe('parseReferenceModel', () => {
  const keep = npyBytes('|b1', [3], Uint8Array.from([1, 0, 1]));
  const logits = npyBytes('<f4', [3, 2, 2], Float32Array.from([1, 2, 9, 9, 3, 4, 9, 9, 5, 6, 9, 9]));
  it("reads Carlini et al.'s keep.npy and logits.npy ([n, C], [n, A, C], [n, 1, A, C]), taking the first query", () => {
    const model = parseReferenceModel(keep, logits, 3, 2, 'exp-0');
    expect([...model.keep]).toEqual([1, 0, 1]);
    expect([...model.logits]).toEqual([1, 2, 3, 4, 5, 6]);
    const four = npyBytes('<f4', [3, 1, 2, 2], Float32Array.from([1, 2, 9, 9, 3, 4, 9, 9, 5, 6, 9, 9]));
    expect([...parseReferenceModel(keep, four, 3, 2, 'exp-0').logits]).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('refuses corrupted or mismatched files with an error naming the file, the expected and the actual value', () => {
    const truncated = logits.subarray(0, logits.length - 4);
    expect(errorOf(() => parseReferenceModel(keep, truncated, 3, 2, 'exp-0')).message).toBe(
      'parseNpy: exp-0/logits.npy is not a supported .npy file: shape (3, 2, 2) of <f4 needs 48 data bytes, found 44',
    );
    expect(errorOf(() => parseReferenceModel(Uint8Array.from([1, 2, 3]), logits, 3, 2, 'exp-0')).message).toMatch(
      /^parseNpy: exp-0\/keep\.npy is not a supported \.npy file: missing the/,
    );
    expect(errorOf(() => parseReferenceModel(keep, logits, 4, 2, 'exp-0')).message).toBe(
      'exp-0/keep.npy must have shape (4,), one entry per dataset example, got (3)',
    );
    expect(errorOf(() => parseReferenceModel(npyBytes('<f4', [3], Float32Array.from([1, 0.5, 0])), logits, 3, 2, 'exp-0')).message).toBe(
      'exp-0/keep.npy must hold booleans (0/1), got 0.5 at example 1',
    );
    expect(errorOf(() => parseReferenceModel(keep, logits, 3, 10, 'exp-0')).message).toBe(
      'exp-0/logits.npy must have shape (3, 10), (3, A, 10) or (3, 1, A, 10), got (3, 2, 2)',
    );
  });
});

describe('importReferences', () => {
  // 8 examples of 2 classes: audit = target_train ∪ target_test, population = shadow roles.
  const roles = { target_train: [0, 1], target_test: [2, 3], shadow_train: [4, 5], shadow_test: [6, 7] };
  const data = { dataset: { size: 8, numClasses: 2, y: Int32Array.from([0, 1, 0, 1, 0, 1, 0, 1]) }, partition: { roles } } as unknown as PreparedData;
  const write = (root: string, name: string, keep: number[], logits: number[]) => {
    mkdirSync(join(root, name), { recursive: true });
    writeFileSync(join(root, name, 'keep.npy'), npyBytes('|b1', [8], Uint8Array.from(keep)));
    writeFileSync(join(root, name, 'logits.npy'), npyBytes('<f4', [8, 1, 1, 2], Float32Array.from(logits)));
  };
  const logits = (k: number) => Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? k : -k));

  it('reads every model directory in numeric order, over the audit examples then the population', async () => {
    const root = join(dir, 'ok');
    for (const k of [0, 1, 2, 10]) write(root, `experiment-${k}`, [k % 2, 1 - (k % 2), 1, 0, 0, 0, 1, 0], logits(k + 1));
    mkdirSync(join(root, 'not-a-model'));
    const refs = await importReferences(root, data);
    expect(refs.models).toHaveLength(4);
    expect(refs.models.map((m) => m.logits![0])).toEqual([1, 2, 3, 11]); // experiment-2 before experiment-10
    expect([...refs.keep[1]!]).toEqual([1, 0, 1, 0, 0, 0, 1, 0]);
    expect([refs.auditSize, refs.populationSize, refs.population]).toEqual([4, 4, [4, 5, 6, 7]]);
    expect(refs.cache).toEqual(['imported', 'imported', 'imported', 'imported']);
  });

  it("reads each model's hparams.json when there is one (without its format tag), and refuses one that is not a JSON object, naming the file", async () => {
    const root = join(dir, 'hparams');
    write(root, 'experiment-0', [1, 0, 1, 0, 0, 0, 0, 0], logits(1));
    write(root, 'experiment-1', [0, 1, 0, 1, 0, 0, 0, 0], logits(2));
    writeFileSync(
      join(root, 'experiment-0', 'hparams.json'),
      JSON.stringify({ format: 'mia-reference-hparams-1', architecture: { name: 'mlp', options: {} } }),
    );
    const refs = await importReferences(root, data);
    expect(refs.settings).toEqual([{ architecture: { name: 'mlp', options: {} } }, undefined]);
    writeFileSync(join(root, 'experiment-1', 'hparams.json'), '{"architecture": ');
    await expect(importReferences(root, data)).rejects.toThrow(
      `${join(root, 'experiment-1')}/hparams.json must be JSON (how the reference model was trained), got "{\\"architecture\\": "`,
    );
    expect(() => parseReferenceHparams('[1, 2]', 'x/hparams.json')).toThrow(
      'x/hparams.json must be a JSON object (architecture, training, data), got an array',
    );
    expect(() => parseReferenceHparams('3', 'x/hparams.json')).toThrow('x/hparams.json must be a JSON object (architecture, training, data), got 3');
  });

  it('refuses a model without logits for an audited example, a model without logits, and an empty directory', async () => {
    const nan = join(dir, 'nan');
    const values = logits(1);
    values[6] = NaN; // example 3, a target non-member
    write(nan, 'experiment-0', [1, 0, 1, 0, 0, 0, 0, 0], values);
    await expect(importReferences(nan, data)).rejects.toThrow(
      `${join(nan, 'experiment-0')}/logits.npy has no finite logits for dataset example 3, which the run audits; export logits for every example`,
    );
    const missing = join(dir, 'missing');
    mkdirSync(join(missing, 'experiment-0'), { recursive: true });
    writeFileSync(join(missing, 'experiment-0', 'keep.npy'), npyBytes('|b1', [8], new Uint8Array(8)));
    await expect(importReferences(missing, data)).rejects.toThrow(
      `references.import: ${join(missing, 'experiment-0')} has keep.npy but neither logits.npy nor logits/*.npy`,
    );
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    await expect(importReferences(empty, data)).rejects.toThrow(`references.import: ${empty} has no sub-directory with a keep.npy`);
    await expect(importReferences(join(dir, 'absent'), data)).rejects.toThrow(`references.import: cannot read directory ${join(dir, 'absent')}`);
  });
});
