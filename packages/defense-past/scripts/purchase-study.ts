/**
 * PAST on an overfit purchaseLike MLP: a λ × tuning-epochs sweep of PAST against a control of the
 * same tuning epochs with λ = 0 (plain SGD tuning, same fresh optimizer and cosine schedule).
 * Split PAST6-like: members | inference set (PAST's non-member batches) | held-out test set
 * (non-members for the measurements and test accuracy), disjoint, equal sizes.
 *
 *   cd packages/defense-past && nice -n 10 node --conditions=@mia/source --import tsx scripts/purchase-study.ts
 *
 * Environment (defaults in brackets): MEMBERS [2000] (per split), CLASSES [100], HIDDEN [256,128]
 * ('purchase' = 1024,512,256,128), P1_EPOCHS [30], P1_LR [0.1], ALPHA [2.5], LAMBDAS [1e-5,…],
 * TUNE_EPOCHS [10,20], L1_LAMBDAS [] (plain L1 tuning rows, γ ≡ 1), BATCH [128], SEED [1], KEEP
 * (purchaseLike `keep` override), BACKEND [wasm].
 * Prints a markdown table; every number is measured by this run.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { useWasmTraining } from '@mia/backend-wasm';
import { cosine, sgd, subsetData, train, type Classifier } from '@mia/core';
import { purchaseLike } from '@mia/data';
import { createMlp } from '@mia/models';
import { pastTune } from '../src/past-tune';
import { measurePrivacy, type PrivacyMeasurement } from '../src/test-utils/loss-advantage';

const env = process.env;
const list = (s: string | undefined, d: string) =>
  (s ?? d)
    .split(',')
    .filter((x) => x !== '')
    .map(Number);
const members_ = Number(env['MEMBERS'] ?? 2000);
const classes = Number(env['CLASSES'] ?? 100);
const hidden = env['HIDDEN'] === 'purchase' ? [1024, 512, 256, 128] : list(env['HIDDEN'], '256,128');
const p1Epochs = Number(env['P1_EPOCHS'] ?? 30);
const p1Lr = Number(env['P1_LR'] ?? 0.1);
const alpha = Number(env['ALPHA'] ?? 2.5);
const lambdas = list(env['LAMBDAS'], '1e-5,1e-4,3e-4,1e-3,3e-3');
const tuneEpochs = list(env['TUNE_EPOCHS'], '10,20');
const l1Lambdas = list(env['L1_LAMBDAS'], '');
const batchSize = Number(env['BATCH'] ?? 128);
const seed = Number(env['SEED'] ?? 1);
const keep = env['KEEP'] === undefined ? undefined : Number(env['KEEP']);

if ((env['BACKEND'] ?? 'wasm') === 'wasm') await useWasmTraining();
else await tf.setBackend(env['BACKEND']!);

const all = purchaseLike({ size: 3 * members_, seed, overrides: { numClasses: classes, ...(keep === undefined ? {} : { keep }) } });
const range = (a: number) => Array.from({ length: members_ }, (_, i) => a + i);
const [members, inference, test] = [subsetData(all, range(0)), subsetData(all, range(members_)), subsetData(all, range(2 * members_))];

const started = Date.now();
const base = createMlp({ numClasses: classes, hidden, seed });
const p1 = sgd({ lr: p1Lr, momentum: 0.9, weightDecay: 5e-4 });
await train(base, members, { epochs: p1Epochs, batchSize, optimizer: p1, schedule: cosine(p1Epochs), seed: seed + 1, progressBar: false });
p1.dispose();
const snapshot = base.trainableVariables.map((v) => v.dataSync().slice());
const fresh = (): Classifier => {
  const m = createMlp({ numClasses: classes, hidden, seed });
  m.trainableVariables.forEach((v, k) => tf.tidy(() => v.assign(tf.tensor(snapshot[k]!, v.shape))));
  return m;
};

const f = (x: number, d = 3) => x.toFixed(d);
const rows: string[] = [];
const row = (method: string, lambda: string, epochs: string, r: PrivacyMeasurement, ref?: PrivacyMeasurement) => {
  const delta = ref === undefined ? '' : ` | ${f(r.lossGap - ref.lossGap)} | ${f(r.advantage - ref.advantage)} | ${f(r.testAccuracy - ref.testAccuracy)}`;
  const line = `| ${method} | ${lambda} | ${epochs} | ${f(r.lossGap)} | ${f(r.advantage)} | ${f(r.testAccuracy)} | ${f(r.trainAccuracy)}${delta === '' ? ' | | | ' : delta} |`;
  rows.push(line);
  console.error(line, `(${((Date.now() - started) / 1000).toFixed(0)} s)`);
};
const baseline = measurePrivacy(base, members, test);
row('base (phase 1 only)', '–', '0', baseline);

const tuned = async (lambda: number, epochs: number, adaptive: boolean) => {
  const model = fresh();
  await pastTune(model, {
    members,
    nonMembers: inference,
    lambda,
    alpha: adaptive ? alpha : 0,
    adaptive,
    epochs,
    batchSize,
    seed: seed + 2,
    progressBar: false,
  });
  const r = measurePrivacy(model, members, test);
  model.dispose();
  return r;
};
for (const epochs of tuneEpochs) {
  const control = await tuned(0, epochs, false);
  row('control: SGD tuning (λ = 0)', '0', `${epochs}`, control);
  for (const lambda of lambdas) row(`PAST α = ${alpha}`, `${lambda}`, `${epochs}`, await tuned(lambda, epochs, true), control);
  for (const lambda of l1Lambdas) row('plain L1 tuning (γ ≡ 1)', `${lambda}`, `${epochs}`, await tuned(lambda, epochs, false), control);
}

console.log(`# PAST on an overfit purchaseLike MLP (stand-in data, reduced scale)

- Data: \`purchaseLike\` (synthetic stand-in for Purchase100, seed ${seed}${keep === undefined ? '' : `, keep ${keep}`}), ${classes} classes; PAST6-like disjoint splits of ${members_} each: members, inference set (PAST's non-member batches), held-out test set (all measurements).
- Model: MLP 600-${hidden.join('-')}-${classes} tanh (\`@mia/models\` createMlp), backend ${tf.getBackend()}.
- Phase 1: SGD lr ${p1Lr}, momentum 0.9, wd 5e-4, cosine, batch ${batchSize}, ${p1Epochs} epochs (paper: lr 0.01, 100 epochs on 32 887 members; our lr makes the small model overfit in fewer steps).
- Phase 2 (\`pastTune\`, docs/protocol.md §4.1): fresh SGD lr 0.01, momentum 0.9, wd 5e-4, cosine over the tuning epochs, batch ${batchSize}, α = ${alpha}, clamp 1e4. Control = the same tuning with λ = 0. ${Math.ceil(members_ / batchSize)} steps per epoch (paper: 257).
- gap = mean held-out CE − mean member CE; adv = loss-threshold attack advantage max(TPR − FPR) members vs held-out; Δ columns = PAST − control of the same tuning epochs.
- Command: \`${Object.entries(env)
  .filter(([k]) =>
    ['MEMBERS', 'CLASSES', 'HIDDEN', 'P1_EPOCHS', 'P1_LR', 'ALPHA', 'LAMBDAS', 'TUNE_EPOCHS', 'L1_LAMBDAS', 'BATCH', 'SEED', 'KEEP', 'BACKEND'].includes(k),
  )
  .map(([k, v]) => `${k}=${v} `)
  .join('')}nice -n 10 node --conditions=@mia/source --import tsx scripts/purchase-study.ts\`; ${((Date.now() - started) / 1000).toFixed(0)} s.

| method | λ | tuning epochs | gap | adv | test acc | train acc | Δgap | Δadv | Δtest acc |
|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}
`);
base.dispose();
