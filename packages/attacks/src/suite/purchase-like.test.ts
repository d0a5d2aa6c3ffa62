import * as tf from '@tensorflow/tfjs-core';
import { adam, subsetData, train, type Classifier, type LabeledData } from '@mia/core';
import { tinyMlp } from '@mia/core/testing';
import { CCL4, purchaseLike } from '@mia/data';
import { beforeAll, describe, expect, it } from 'vitest';
import { metricAttack } from '../attacks/metric-attack';
import { nnMlhAttack } from '../attacks/nn-presets';
import { useCpu } from '../test-utils/setup';
import type { ShadowAttack } from '../attacks/attack';
import { auditClassifier } from './audit-classifier';

beforeAll(useCpu);

// The end-to-end case: an overfit MLP on a CCL4 split of the Purchase100 stand-in
// (600 binary features, 100 classes), audited with an adaptive shadow trained the same way.
async function trainMlp(data: LabeledData, seed: number): Promise<Classifier> {
  const model = tinyMlp({ inputDim: 600, hidden: [64], numClasses: 100, seed });
  const optimizer = adam({ lr: 0.003 });
  await train(model, data, { epochs: 12, batchSize: 32, optimizer, seed, progressBar: false });
  optimizer.dispose();
  return model;
}

describe('auditClassifier on a purchaseLike split', () => {
  it('every attack scores every example; the loss attack is clearly above chance; no leaks', async () => {
    const dataset = purchaseLike({ size: 1600, seed: 3 });
    const split = CCL4.split(dataset.size, 7);
    const role = (name: string) => subsetData(dataset, split.roles[name]!);
    const target = await trainMlp(role('target_train'), 1);
    const before = tf.memory().numTensors;
    const attacks: ShadowAttack[] = [
      ...(['correctness', 'loss', 'confidence', 'entropy', 'modifiedEntropy'] as const).map((s) => metricAttack(s)),
      nnMlhAttack({ epochs: 10 }),
    ];
    const result = await auditClassifier(target, {
      targetMembers: role('target_train'),
      targetNonMembers: role('target_test'),
      shadowMembers: role('shadow_train'),
      shadowNonMembers: role('shadow_test'),
      trainShadow: (data, _role, seed) => trainMlp(data, seed),
      attacks,
      seed: 11,
    });
    for (const a of attacks) a.dispose();
    expect(tf.memory().numTensors).toBe(before);
    expect(result.attacks.map((a) => a.name)).toEqual(['correctness', 'loss', 'confidence', 'entropy', 'modifiedEntropy', 'nn-mlh']);
    for (const a of result.attacks) expect(a.numMembers + a.numNonMembers).toBe(800);
    const lossAuc = result.attacks.find((a) => a.name === 'loss')!.auc;
    console.log(`purchaseLike loss-attack AUC ${lossAuc.toFixed(3)}`);
    expect(lossAuc).toBeGreaterThan(0.75);
    target.dispose();
  }, 300_000);
});
