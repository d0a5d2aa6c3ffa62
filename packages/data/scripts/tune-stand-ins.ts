/**
 * Trains the Purchase MLP (600-1024-512-256-128-100 tanh, SGD lr 0.1 momentum 0.9, batch 128) on
 * 10 000 stand-in records and reports train/test accuracy per epoch.
 *
 *   cd packages/data && pnpm tune:stand-ins purchaseLike 20 [keep]
 * Environment: BACKEND (default wasm), TRAIN_SIZE (default 10000), CHUNK (epochs between test evaluations, default 4).
 * Each chunk prints one JSON line (running train accuracy of the last epoch, test accuracy on 5 000 held-out records).
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-wasm';
import { evaluate, sgd, subsetData, train } from '@mia/core';
import { tinyMlp } from '@mia/core/testing';
import { purchaseLike, texasLike, STAND_IN_PARAMETERS } from '../src/datasets/stand-ins';

const kind = (process.argv[2] ?? 'purchaseLike') as 'purchaseLike' | 'texasLike';
const epochs = Number(process.argv[3] ?? 30);
const keep = process.argv[4] === undefined ? STAND_IN_PARAMETERS[kind].keep : Number(process.argv[4]);
const trainSize = Number(process.env['TRAIN_SIZE'] ?? 10_000);
const testSize = 5_000;

await tf.setBackend(process.env['BACKEND'] ?? 'wasm');
const make = kind === 'purchaseLike' ? purchaseLike : texasLike;
const data = make({ size: trainSize + testSize, seed: 1, overrides: { keep } });
const ones = data.features.reduce((a, b) => a + b, 0) / data.features.length;
const members = subsetData(
  data,
  Array.from({ length: trainSize }, (_, i) => i),
);
const others = subsetData(
  data,
  Array.from({ length: testSize }, (_, i) => trainSize + i),
);
const model = tinyMlp({ inputDim: data.numFeatures, hidden: [1024, 512, 256, 128], numClasses: 100, activation: 'tanh', seed: 0 });
console.log(`${kind} keep=${keep} density(ones)=${ones.toFixed(3)} backend=${tf.getBackend()} train=${trainSize}`);
const started = Date.now();
const optimizer = sgd({ lr: 0.1, momentum: 0.9 });
const chunk = Number(process.env['CHUNK'] ?? 4);
for (let done = 0; done < epochs; done += chunk) {
  // Training in chunks with one optimizer keeps the momentum buffers, so this equals one long run
  // (up to the shuffling seeds), and gives test accuracy along the way.
  const result = await train(model, members, { epochs: Math.min(chunk, epochs - done), batchSize: 128, optimizer, seed: done, progressBar: false });
  const last = result.history.at(-1)!;
  const testAcc = evaluate(model, others).accuracy;
  console.log(
    JSON.stringify({
      kind,
      keep,
      epoch: done + result.history.length,
      loss: Number(last.loss.toFixed(4)),
      trainAccRunning: Number(last.accuracy.toFixed(4)),
      testAcc,
      seconds: (Date.now() - started) / 1000,
    }),
  );
}
console.log(JSON.stringify({ kind, keep, epochs, final: true, trainAcc: evaluate(model, members).accuracy, testAcc: evaluate(model, others).accuracy }));
model.dispose();
