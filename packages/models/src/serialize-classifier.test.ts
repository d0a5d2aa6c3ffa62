import * as tf from '@tensorflow/tfjs-core';
import { CheckpointError, InvalidArgumentError } from '@mia/core';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModel, modelNames } from './create-model';
import { loadClassifier, saveClassifier } from './save-classifier';
import { deserializeClassifier, serializeClassifier } from './serialize-classifier';
import { randomBatch, useCpu } from './test-utils/classifier-checks';
import type { ModelClassifier } from './model-classifier';

let dir = '';
beforeAll(async () => {
  await useCpu();
  dir = await mkdtemp(join(tmpdir(), 'mia-models-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const logits = (model: ModelClassifier, x: tf.Tensor) => tf.tidy(() => model.forward(x, { training: false }).logits.arraySync());

/** A small BN model whose running statistics have moved away from their initial values. */
function trainedSmallCnn(seed: number): ModelClassifier {
  const model = createModel('small-cnn', { numClasses: 3, inputShape: [6, 6, 3], seed });
  const x = randomBatch(4, [6, 6, 3], seed);
  tf.tidy(() => {
    model.forward(x, { training: true });
  });
  x.dispose();
  return model;
}

describe('saveClassifier / loadClassifier', () => {
  it('round-trips architecture, options, weights and BN statistics: identical logits', async () => {
    const model = trainedSmallCnn(1);
    await saveClassifier(model, join(dir, 'a'));
    expect((await readdir(join(dir, 'a'))).sort()).toEqual(['model.json', 'weights.bin']); // no temp files left
    const manifest = JSON.parse(await readFile(join(dir, 'a', 'model.json'), 'utf8'));
    expect(manifest).toMatchObject({
      format: 'mia-classifier',
      formatVersion: 1,
      architecture: 'small-cnn',
      config: { numClasses: 3, inputShape: [6, 6, 3], seed: 1 },
    });
    expect(manifest.weightSpecs.map((s: { name: string }) => s.name)).toContain('f.1.running_var');
    const loaded = await loadClassifier(join(dir, 'a'));
    const x = randomBatch(2, [6, 6, 3], 7);
    const before = tf.memory().numTensors;
    expect(logits(loaded, x)).toEqual(logits(model, x));
    expect(tf.memory().numTensors).toBe(before);
    expect(Array.from(loaded.stateVariables[1]!.dataSync())).toEqual(Array.from(model.stateVariables[1]!.dataSync()));
    [x, model, loaded].forEach((t) => t.dispose());
  });

  it('reports missing, corrupted, truncated and foreign files as CheckpointError', async () => {
    const model = trainedSmallCnn(2);
    const path = join(dir, 'b');
    await saveClassifier(model, path);
    model.dispose();
    await expect(loadClassifier(join(dir, 'missing'))).rejects.toThrow(/loadClassifier: cannot read model.json and weights.bin/);
    const weights = await readFile(join(path, 'weights.bin'));
    const flipped = Uint8Array.from(weights);
    flipped[100] = flipped[100]! ^ 0xff;
    await writeFile(join(path, 'weights.bin'), flipped);
    await expect(loadClassifier(path)).rejects.toThrow(/weights are corrupted or truncated/);
    await writeFile(join(path, 'weights.bin'), weights.subarray(0, 1000));
    await expect(loadClassifier(path)).rejects.toThrow(/corrupted or truncated \(1000 bytes/);
    await writeFile(join(path, 'weights.bin'), weights);
    await writeFile(join(path, 'model.json'), '{"format": "mia-classifier", "formatVer');
    await expect(loadClassifier(path)).rejects.toThrow('loadClassifier: manifest is not valid JSON');
    await expect(loadClassifier(path)).rejects.toSatisfy((e) => CheckpointError.isInstance(e));
  });
});

describe('serializeClassifier / deserializeClassifier', () => {
  it('round-trips through bytes and rejects bytes of another architecture or shape', async () => {
    const mlp = createModel('mlp', { numClasses: 5, inputDim: 12, hidden: [8], seed: 3 });
    const bytes = await serializeClassifier(mlp);
    const copy = deserializeClassifier(bytes);
    const x = randomBatch(2, [12]);
    expect(logits(copy, x)).toEqual(logits(mlp, x));
    expect(copy.config).toEqual(mlp.config);
    // Same weight bytes, manifest edited to claim other shapes or another architecture.
    const json = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + new DataView(bytes.buffer).getUint32(8, true))));
    const reencode = (manifest: unknown) => {
      const m = new TextEncoder().encode(JSON.stringify(manifest));
      const out = new Uint8Array(12 + m.length + json.weightsByteLength);
      out.set(bytes.subarray(0, 8));
      new DataView(out.buffer).setUint32(8, m.length, true);
      out.set(m, 12);
      out.set(bytes.subarray(bytes.length - json.weightsByteLength), 12 + m.length);
      return out;
    };
    expect(() => deserializeClassifier(reencode({ ...json, config: { ...json.config, hidden: [9] } }))).toThrow(
      /weight features.0.weight must be float32 \[12, 9\], got float32 \[12, 8\]/,
    );
    expect(() => deserializeClassifier(reencode({ ...json, architecture: 'small-cnn' }))).toThrow(CheckpointError);
    expect(() => deserializeClassifier(reencode({ ...json, architecture: 'nope' }))).toThrow(/cannot rebuild architecture "nope"/);
    expect(() => deserializeClassifier(reencode({ ...json, formatVersion: 2 }))).toThrow('decodeClassifier: formatVersion must be 1, got 2');
    expect(() => deserializeClassifier(new Uint8Array(20))).toThrow(/MIACLS01 magic/);
    expect(() => deserializeClassifier(bytes.subarray(0, bytes.length - 4))).toThrow(CheckpointError);
    [x, mlp, copy].forEach((t) => t.dispose());
  });

  it('rejects a classifier not built by @mia/models', async () => {
    await expect(serializeClassifier({} as ModelClassifier)).rejects.toThrow(InvalidArgumentError);
  });
});

describe('createModel', () => {
  it('lists every architecture and builds each one deterministically from its seed', () => {
    expect(modelNames).toEqual([
      'mlp',
      'resnet18',
      'resnet34',
      'resnet-narrow',
      'small-cnn',
      'vgg11-bn',
      'densenet121',
      'wrn',
      'wrn-16-8',
      'googlenet',
      'inception-v4',
      'nn-rl',
      'nn-mlh',
      'nn-sel',
      'nn-crl',
    ]);
    const a = createModel('resnet-narrow', { numClasses: 10, seed: 9 });
    const b = createModel('resnet-narrow', { numClasses: 10, seed: 9 });
    expect(a.config).toMatchObject({ width: 16, depth: 18, stem: 'cifar' });
    expect(a.trainableVariables.map((v) => v.name)).not.toEqual(b.trainableVariables.map((v) => v.name)); // unique engine names
    expect(Array.from(a.trainableVariables[0]!.dataSync())).toEqual(Array.from(b.trainableVariables[0]!.dataSync()));
    a.dispose();
    b.dispose();
    const texas = createModel('mlp', { numClasses: 100, inputShape: [6169] });
    expect(texas.inputShape).toEqual([6169]);
    texas.dispose();
    expect(() => createModel('resnet50', { numClasses: 10 })).toThrow(/createModel: name must be one of mlp, resnet18, .*got "resnet50"/);
  });
});
