/**
 * Compares every baseline of @mia/defense-baselines at its default setting on one overfit tabular
 * setting: the `purchaseLike` stand-in (600 binary features, 20 of its 100 classes by default) from @mia/data, disjoint
 * member / test / reference splits, and the Purchase MLP of @mia/models narrowed to [256, 128].
 * Reports test accuracy, train accuracy and the loss-attack advantage (max over thresholds of
 * TPR − FPR on the score −CE, members vs test; docs/protocol.md §5).
 *
 *   pnpm --filter @mia/defense-baselines compare-baselines
 *   MIA_EPOCHS=30 MIA_SPLIT=600 MIA_CLASSES=20 MIA_BACKEND=wasm pnpm --filter @mia/defense-baselines compare-baselines
 *
 * Runs on the wasm backend (`MIA_BACKEND=cpu` for cpu); a few minutes on a 2-core machine.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { crossEntropyPerExample, predictLogits, seededRandom, sgd, subsetData, train, type Classifier, type LabeledData, type TrainingPlugin } from '@mia/core';
import { useWasmTraining } from '@mia/backend-wasm';
import { purchaseLike } from '@mia/data';
import { attackAdvantage } from '@mia/metrics';
import { createMlp } from '@mia/models';
import {
  baselineDefaults,
  confidencePenaltyPlugin,
  earlyStopping,
  l1Plugin,
  l2SgdOptions,
  labelSmoothingPlugin,
  memGuard,
  relaxLossPlugin,
  trainAdvReg,
  trainDmp,
  trainMemGuardAttackModel,
  trainMixupMmd,
  trainSelena,
} from '../src/index';

// wasm (via @mia/backend-wasm) is ~10× faster than cpu here; MIA_BACKEND=cpu forces the cpu backend.
const BACKEND = process.env.MIA_BACKEND ?? 'wasm';
if (BACKEND === 'wasm') await useWasmTraining();
else await tf.setBackend('cpu');
const EPOCHS = Number(process.env.MIA_EPOCHS ?? 30);
const SPLIT = Number(process.env.MIA_SPLIT ?? 600);
// 20 classes (30 members each) overfit clearly but still generalise a little; 100 classes at this size do not.
const CLASSES = Number(process.env.MIA_CLASSES ?? 20);
const BATCH = 64;
const data = purchaseLike({ size: 3 * SPLIT, seed: 0, overrides: { numClasses: CLASSES, groups: Math.max(1, Math.round(CLASSES / 5)) } });
const order = seededRandom(1).permutation(data.size);
const members = subsetData(data, order.subarray(0, SPLIT));
const test = subsetData(data, order.subarray(SPLIT, 2 * SPLIT));
const reference = subsetData(data, order.subarray(2 * SPLIT, 3 * SPLIT));
let modelSeed = 100;
const createModel = (dropout = 0): Classifier => createMlp({ inputDim: 600, hidden: [256, 128], numClasses: CLASSES, dropout, seed: modelSeed++ });
// RL tabular optimizer (docs/protocol.md §2.3) with a constant LR over the short run.
const optimizerOptions = { lr: 0.1, momentum: 0.9, weightDecay: 1e-4 } as const;
const trainOptions = (optimizer = sgd(optimizerOptions)) => ({ epochs: EPOCHS, batchSize: BATCH, optimizer, seed: 7, progressBar: false }) as const;

interface Row {
  name: string;
  setting: string;
  testAccuracy: number;
  trainAccuracy: number;
  advantage: number;
  seconds: number;
}
const rows: Row[] = [];

function accuracy(logits: tf.Tensor2D, set: LabeledData): number {
  const predicted = Array.from(tf.tidy(() => tf.argMax(logits, 1).dataSync()));
  return predicted.reduce((hits, p, i) => hits + (p === set.y[i] ? 1 : 0), 0) / set.size;
}

function negLoss(logits: tf.Tensor2D, set: LabeledData): number[] {
  return tf.tidy(() => Array.from(tf.neg(crossEntropyPerExample(logits, tf.tensor1d(set.y, 'int32'))).dataSync()));
}

/** Scores the released logits of members and test examples. */
function report(name: string, setting: string, started: number, memberLogits: tf.Tensor2D, testLogits: tf.Tensor2D): void {
  const scores = [...negLoss(memberLogits, members), ...negLoss(testLogits, test)];
  const isMember = scores.map((_, i) => i < members.size);
  rows.push({
    name,
    setting,
    testAccuracy: accuracy(testLogits, test),
    trainAccuracy: accuracy(memberLogits, members),
    advantage: attackAdvantage(scores, isMember),
    seconds: (Date.now() - started) / 1000,
  });
  const r = rows.at(-1)!;
  console.error(`${name}: test ${r.testAccuracy.toFixed(3)} train ${r.trainAccuracy.toFixed(3)} adv ${r.advantage.toFixed(3)} (${r.seconds.toFixed(0)} s)`);
  memberLogits.dispose();
  testLogits.dispose();
}

function reportModel(name: string, setting: string, started: number, model: Classifier): void {
  report(name, setting, started, predictLogits(model, members), predictLogits(model, test));
}

async function plain(name: string, setting: string, plugins: TrainingPlugin[], options: { dropout?: number; weightDecay?: number } = {}) {
  const started = Date.now();
  const model = createModel(options.dropout);
  const optimizer = sgd(options.weightDecay === undefined ? optimizerOptions : l2SgdOptions(options.weightDecay, optimizerOptions));
  await train(model, members, { ...trainOptions(optimizer), plugins });
  optimizer.dispose();
  reportModel(name, setting, started, model);
  return model;
}

const vanilla = await plain('none', '-', []);
const relax = baselineDefaults.relaxLoss.purchase;
(await plain('RelaxLoss', `α=${relax.alpha}, upper=${relax.upper}, tabular`, [relaxLossPlugin(relax)])).dispose();
(await plain('Label smoothing', 'ε=0.1 (RL form)', [labelSmoothingPlugin(baselineDefaults.labelSmoothing)])).dispose();
(await plain('Confidence penalty', 'β=0.1', [confidencePenaltyPlugin(baselineDefaults.confidencePenalty)])).dispose();
(await plain('Dropout', 'p=0.5 (before the last layer)', [], { dropout: baselineDefaults.dropout.p })).dispose();
(await plain('L1', 'λ=1e-3', [l1Plugin(baselineDefaults.l1)])).dispose();
(await plain('L2', 'wd=5e-4', [], { weightDecay: baselineDefaults.l2.weightDecay })).dispose();

{
  const started = Date.now();
  const model = createModel();
  const stopper = earlyStopping({ validation: reference });
  const optimizer = sgd(optimizerOptions);
  await train(model, members, { ...trainOptions(optimizer), plugins: [stopper] });
  await stopper.restore(model, 'best');
  reportModel('Early stopping', `best validation epoch (${stopper.bestEpoch}/${EPOCHS})`, started, model);
  stopper.dispose();
  optimizer.dispose();
  model.dispose();
}
{
  const started = Date.now();
  const model = createModel();
  const optimizer = sgd(optimizerOptions);
  const history = await trainMixupMmd(model, members, reference, { epochs: EPOCHS, batchSize: BATCH, optimizer, schedule: (_e, lr) => lr, seed: 7 });
  reportModel('Mixup+MMD', `λ_mmd=3, shared optimizer (MMD passes: ${history.filter((h) => h.mmdPass).length})`, started, model);
  optimizer.dispose();
  model.dispose();
}
{
  // Its protocol optimizer (docs/protocol.md §4.6: SGD 0.01, momentum 0.9, wd 5e-4, cosine): at the shared
  // lr 0.1 the pure-MMD pass drives the outputs to a constant.
  const started = Date.now();
  const model = createModel();
  const history = await trainMixupMmd(model, members, reference, { epochs: EPOCHS, batchSize: BATCH, seed: 7 });
  reportModel('Mixup+MMD', `λ_mmd=3, own optimizer SGD 0.01 cosine (MMD passes: ${history.filter((h) => h.mmdPass).length})`, started, model);
  model.dispose();
}
{
  const started = Date.now();
  const model = createModel();
  const optimizer = sgd(optimizerOptions);
  await trainAdvReg(model, members, reference, { epochs: EPOCHS, batchSize: BATCH, optimizer, schedule: (_e, lr) => lr, alpha: 1, seed: 7 });
  reportModel('AdvReg', 'MLHospital, α=1', started, model);
  optimizer.dispose();
  model.dispose();
}
{
  const started = Date.now();
  const optimizer = sgd(optimizerOptions);
  const { model } = await trainDmp(() => createModel(), members, reference, {
    unprotected: vanilla,
    temperature: 1,
    unprotectedTraining: trainOptions(),
    protectedTraining: trainOptions(optimizer),
  });
  reportModel('DMP', "τ=1, kl_div 'mean' (CRLr), teacher = the undefended model", started, model);
  optimizer.dispose();
  model.dispose();
}
{
  const started = Date.now();
  const optimizer = sgd(optimizerOptions);
  const { model } = await trainDmp(() => createModel(), members, reference, {
    unprotected: vanilla,
    temperature: 1,
    reduction: 'batchmean',
    unprotectedTraining: trainOptions(),
    protectedTraining: trainOptions(optimizer),
  });
  reportModel('DMP', "τ=1, kl_div 'batchmean'", started, model);
  optimizer.dispose();
  model.dispose();
}
{
  const started = Date.now();
  const optimizer = sgd(optimizerOptions);
  const { model } = await trainSelena(() => createModel(), members, {
    numModels: 5,
    numExcluded: 2,
    splitAiTraining: { epochs: EPOCHS, batchSize: BATCH, seed: 7, progressBar: false },
    createOptimizer: () => sgd(optimizerOptions),
    distillationTraining: trainOptions(optimizer),
  });
  reportModel('SELENA', 'K=5, L=2 (paper: 25, 10)', started, model);
  optimizer.dispose();
  model.dispose();
}
{
  const started = Date.now();
  const memberLogits = predictLogits(vanilla, members);
  const referenceLogits = predictLogits(vanilla, reference);
  const testLogits = predictLogits(vanilla, test);
  const attack = trainMemGuardAttackModel(memberLogits, referenceLogits, { epochs: 100, seed: 7 });
  const onMembers = memGuard(memberLogits, attack);
  const onTest = memGuard(testLogits, attack);
  report('MemGuard', 'on the undefended model; c3 0.1→1e5, 300 it.', started, onMembers.logits, onTest.logits);
  for (const t of [memberLogits, referenceLogits, testLogits, onMembers.probabilities, onTest.probabilities]) t.dispose();
  attack.dispose();
}
vanilla.dispose();

console.log(
  `purchaseLike stand-in (${CLASSES} classes), ${SPLIT} members / ${SPLIT} test / ${SPLIT} reference, MLP 600-256-128-${CLASSES} (tanh), SGD lr 0.1 momentum 0.9 wd 1e-4, ${EPOCHS} epochs, batch ${BATCH}, ${tf.getBackend()} backend.`,
);
console.log('Loss attack: advantage = max over thresholds of TPR − FPR on −CE (members vs test).\n');
console.log('| defense | setting | test acc | train acc | loss-attack adv | time (s) |');
console.log('|---|---|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.name} | ${r.setting} | ${r.testAccuracy.toFixed(3)} | ${r.trainAccuracy.toFixed(3)} | ${r.advantage.toFixed(3)} | ${r.seconds.toFixed(0)} |`,
  );
