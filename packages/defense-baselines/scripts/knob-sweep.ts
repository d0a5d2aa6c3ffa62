/**
 * Sweeps the knob of Mixup+MMD (λ_mmd) or AdvReg (α) on the setting of the CCL Fig. 2 cpu reference
 * run: purchaseLike (5000 records, 100 classes), disjoint member / inference / test sets of MIA_SPLIT
 * (default 1200), MLP [256, 128], 20 epochs, batch 128. Prints per knob value the train and test
 * accuracy, the loss-attack advantage (members vs test, best threshold) and the weight distance
 * to the first value's model (same seed).
 *
 *   MIA_DEFENSE=mixup-mmd MIA_VALUES=0,0.1,1,8 node --conditions=@mia/source --import tsx scripts/knob-sweep.ts
 *   MIA_DEFENSE=advreg MIA_VALUES=0,1,10 MIA_OPT=run node --conditions=@mia/source --import tsx scripts/knob-sweep.ts
 *
 * MIA_OPT=run passes the run's optimizer (SGD 0.1, momentum 0.9, wd 5e-4, ×0.1 at 8 and 17) as the
 * experiments runner does; MIA_OPT=default uses the function's default (MLHospital SGD 0.01, cosine).
 * MIA_ATTACK=adam:0.001 (or sgd:LR) sets AdvReg's attack optimizer. Numbers: docs/protocol.md §4.6–4.7.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { adam, crossEntropyPerExample, evaluate, multiStep, predictLogits, seededRandom, sgd, subsetData, type LabeledData } from '@mia/core';
import { useWasmTraining } from '@mia/backend-wasm';
import { purchaseLike } from '@mia/data';
import { attackAdvantage } from '@mia/metrics';
import { createMlp } from '@mia/models';
import { trainAdvReg, trainMixupMmd } from '../src/index';

if ((process.env.MIA_BACKEND ?? 'wasm') === 'wasm') await useWasmTraining();
else await tf.setBackend('cpu');
const DEFENSE = process.env.MIA_DEFENSE ?? 'mixup-mmd';
const VALUES = (process.env.MIA_VALUES ?? '0,1').split(',').map(Number);
const EPOCHS = Number(process.env.MIA_EPOCHS ?? 20);
const SPLIT = Number(process.env.MIA_SPLIT ?? 1200);
const OPT = process.env.MIA_OPT ?? 'default';
const LR = Number(process.env.MIA_LR ?? 0.1);
const EXTRA = JSON.parse(process.env.MIA_EXTRA ?? '{}') as Record<string, unknown>;
const data = purchaseLike({ size: 5000, seed: 0 });
const order = seededRandom(1).permutation(data.size);
const members = subsetData(data, order.subarray(0, SPLIT));
const inference = subsetData(data, order.subarray(SPLIT, 2 * SPLIT));
const test = subsetData(data, order.subarray(2 * SPLIT, 3 * SPLIT));

function negLoss(set: LabeledData, model: ReturnType<typeof createMlp>): number[] {
  const logits = predictLogits(model, set);
  const out = tf.tidy(() => Array.from(tf.neg(crossEntropyPerExample(logits, tf.tensor1d(set.y, 'int32'))).dataSync()));
  logits.dispose();
  return out;
}

let first: Float32Array | undefined;
for (const value of VALUES) {
  const started = Date.now();
  const model = createMlp({ inputDim: 600, hidden: [256, 128], numClasses: 100, seed: 11 });
  const run = OPT === 'run' ? { optimizer: sgd({ lr: LR, momentum: 0.9, weightDecay: 5e-4 }), schedule: multiStep([8, 17], 0.1) } : {};
  const common = { epochs: EPOCHS, batchSize: 128, seed: 5, ...run, ...EXTRA };
  let log = '';
  if (DEFENSE === 'mixup-mmd') {
    const h = await trainMixupMmd(model, members, inference, { ...common, lambdaMmd: value });
    log = `mmd passes ${h.filter((e) => e.mmdPass).length}/${h.length}; gap per epoch ${h.map((e) => (100 * (e.trainAccuracy - e.validationAccuracy)).toFixed(0)).join(' ')}`;
  } else {
    const [kind, lr] = (process.env.MIA_ATTACK ?? 'default').split(':');
    const attackOptimizer = kind === 'adam' ? adam({ lr: Number(lr) }) : kind === 'sgd' ? sgd({ lr: Number(lr), momentum: 0.9, weightDecay: 5e-4 }) : undefined;
    const h = await trainAdvReg(model, members, inference, { ...common, alpha: value, ...(attackOptimizer === undefined ? {} : { attackOptimizer }) });
    attackOptimizer?.dispose();
    log = `attack loss per epoch ${h.map((e) => e.attackLoss.toFixed(3)).join(' ')}`;
  }
  run.optimizer?.dispose();
  const weights = new Float32Array(model.trainableVariables.flatMap((v) => Array.from(v.dataSync())));
  first ??= weights;
  let d = 0;
  let n = 0;
  for (let i = 0; i < weights.length; i++) {
    d += (weights[i]! - first[i]!) ** 2;
    n += first[i]! ** 2;
  }
  const scores = [...negLoss(members, model), ...negLoss(test, model)];
  const adv = attackAdvantage(
    scores,
    scores.map((_, i) => i < members.size),
  );
  const trainAcc = evaluate(model, members).accuracy;
  const testAcc = evaluate(model, test).accuracy;
  console.log(
    `${DEFENSE} ${value}: train ${(100 * trainAcc).toFixed(1)} test ${(100 * testAcc).toFixed(1)} lossAdv ${(100 * adv).toFixed(1)} ‖Δw‖/‖w₀‖ ${Math.sqrt(d / n).toExponential(2)} (${((Date.now() - started) / 1000).toFixed(0)} s)\n   ${log}`,
  );
  model.dispose();
}
