/**
 * Why PAST acts like plain L1 on purchaseLike: how concentrated PAST's per-weight penalty
 * multiplier `min(γ^α, clamp)` is, per batch and averaged over the batches of a tuning epoch, on an
 * overfit model. If the per-batch γ is dominated by sampling noise, every weight gets about the
 * same time-averaged multiplier and PAST reduces to L1 with a rescaled λ. The last column is the
 * top-20 % share of the multiplier of the exact full-set γ (all members vs the whole inference set).
 *
 *   cd packages/defense-past && nice -n 10 node --conditions=@mia/source --import tsx scripts/gamma-concentration.ts [purchase|synthetic]
 *
 * purchase: purchaseLike (seed 1), 100 classes, 2000/2000 members/inference, MLP 600-256-128-100,
 * phase 1 as in purchase-study.ts. synthetic: the task of src/past-tune.test.ts (300/300, 20-128-64-10).
 */
import * as tf from '@tensorflow/tfjs-core';
import { useWasmTraining } from '@mia/backend-wasm';
import { cosine, crossEntropy, seededRandom, sgd, subsetData, train, type Classifier, type LabeledData } from '@mia/core';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';
import { purchaseLike } from '@mia/data';
import { createMlp } from '@mia/models';
import { privacySensitivity } from '../src/privacy-sensitivity';
import { computeSensitivity } from '../src/compute-sensitivity';
import { sensitivityTopShare } from '@mia/metrics';

await useWasmTraining();
const task = process.argv[2] ?? 'purchase';
const alpha = 2.5;
const batches = 40;
let model: Classifier;
let members: LabeledData;
let inference: LabeledData;
let batchSize: number;
if (task === 'purchase') {
  const all = purchaseLike({ size: 4000, seed: 1 });
  members = subsetData(
    all,
    Array.from({ length: 2000 }, (_, i) => i),
  );
  inference = subsetData(
    all,
    Array.from({ length: 2000 }, (_, i) => 2000 + i),
  );
  model = createMlp({ numClasses: 100, hidden: [256, 128], seed: 1 });
  const opt = sgd({ lr: 0.1, momentum: 0.9, weightDecay: 5e-4 });
  await train(model, members, { epochs: 30, batchSize: 128, optimizer: opt, schedule: cosine(30), seed: 2, progressBar: false });
  opt.dispose();
  batchSize = 128;
} else {
  const all = syntheticClassification({ size: 600, numFeatures: 20, numClasses: 10, noise: 2.5, seed: 1 });
  members = subsetData(
    all,
    Array.from({ length: 300 }, (_, i) => i),
  );
  inference = subsetData(
    all,
    Array.from({ length: 300 }, (_, i) => 300 + i),
  );
  model = tinyMlp({ inputDim: 20, hidden: [128, 64], numClasses: 10, seed: 2 });
  const opt = sgd({ lr: 0.05, momentum: 0.9, weightDecay: 5e-4 });
  await train(model, members, { epochs: 30, batchSize: 32, optimizer: opt, schedule: cosine(30), seed: 3, progressBar: false });
  opt.dispose();
  batchSize = 32;
}

const grads = (data: LabeledData, idx: Int32Array) =>
  tf.variableGrads(
    () =>
      crossEntropy(
        model.forward(data.gather(idx), { training: true }).logits,
        tf.tensor1d(
          Int32Array.from(idx, (i) => data.y[i]!),
          'int32',
        ),
      ),
    model.parameterGroups.map((g) => g.weight),
  ).grads;
const random = seededRandom(7);
const pick = (n: number) => random.permutation(n).slice(0, batchSize);
const sums = model.parameterGroups.map((g) => new Float64Array(g.weight.size));
const perBatchTop: number[][] = model.parameterGroups.map(() => []);
const perBatchMean: number[][] = model.parameterGroups.map(() => []);
for (let b = 0; b < batches; b++) {
  const gm = grads(members, pick(members.size));
  const gn = grads(inference, pick(inference.size));
  model.parameterGroups.forEach((g, k) => {
    const name = g.weight.name;
    const mult = tf.tidy(() => tf.minimum(tf.pow(privacySensitivity(gm[name]!, gn[name]!), alpha), 1e4));
    const values = mult.dataSync() as Float32Array;
    mult.dispose();
    const sum = sums[k]!;
    values.forEach((v, i) => (sum[i] = sum[i]! + v / batches));
    perBatchTop[k]!.push(sensitivityTopShare(values, 0.2));
    perBatchMean[k]!.push(values.reduce((a, c) => a + c, 0) / values.length);
  });
  tf.dispose([...Object.values(gm), ...Object.values(gn)]);
}
const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`task ${task}: min(γ^${alpha}, 1e4) over ${batches} member/non-member batch pairs of ${batchSize}`);
const full = computeSensitivity(model, members, inference);
console.log(
  '| module | weights | mean multiplier | top-20 % share, per batch | top-20 % share, averaged over batches | CV of averaged | max averaged / mean | top-20 % share, full-set γ |',
);
console.log('|---|---|---|---|---|---|---|---|');
model.parameterGroups.forEach((g, k) => {
  const r = Float32Array.from(sums[k]!);
  const mean = r.reduce((a, b) => a + b, 0) / r.length;
  const sd = Math.sqrt(r.reduce((a, b) => a + (b - mean) ** 2, 0) / r.length);
  const fullMult = full.groups[k]!.gamma.map((x) => Math.min(x ** alpha, 1e4));
  const max = r.reduce((a, b) => Math.max(a, b), 0);
  console.log(
    `| ${g.name} | ${r.length} | ${avg(perBatchMean[k]!).toFixed(2)} | ${avg(perBatchTop[k]!).toFixed(3)} | ${sensitivityTopShare(r, 0.2).toFixed(3)} | ${(sd / mean).toFixed(2)} | ${(max / mean).toFixed(1)} | ${sensitivityTopShare(fullMult, 0.2).toFixed(3)} |`,
  );
});
