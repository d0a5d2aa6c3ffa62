import * as tf from '@tensorflow/tfjs';
import { auditModel, checkLeakage } from '@mia/attacks';

// Page glue of audit.html: an overfit tfjs model audited in the page (cpu backend), the report's
// numbers and scores written into the DOM for the headless-Chromium test.
const $ = (id: string): HTMLElement => document.querySelector(`[data-testid="${id}"]`)!;

async function main(): Promise<void> {
  const status = $('status');
  try {
    await tf.setBackend('cpu');
    const data = (seed: number) => ({
      x: tf.randomNormal([100, 20], 0, 1, 'float32', seed),
      y: Array.from({ length: 100 }, (_, i) => (i * 7 + seed) % 10),
    });
    const [members, nonMembers] = [data(1), data(2)];
    const init = (seed: number) => tf.initializers.glorotUniform({ seed });
    const model = tf.sequential({
      layers: [
        tf.layers.dense({ inputShape: [20], units: 64, activation: 'relu', kernelInitializer: init(3) }),
        tf.layers.dense({ units: 10, kernelInitializer: init(4) }),
      ],
    });
    model.compile({ optimizer: tf.train.adam(0.01), loss: (y: tf.Tensor, z: tf.Tensor) => tf.losses.softmaxCrossEntropy(y, z) });
    await model.fit(members.x, tf.oneHot(members.y, 10), { epochs: 200, batchSize: 100, shuffle: false, verbose: 0 });
    const before = tf.memory().numTensors;
    const report = await auditModel(model, { members, nonMembers }, { resamples: 200 });
    const leakedTensors = tf.memory().numTensors - before;
    const verdict = checkLeakage(report, { advantage: 0.1 });
    $('summary').textContent = JSON.stringify({
      backend: tf.getBackend(),
      leakedTensors,
      numMembers: report.numMembers,
      attacks: report.attacks.map((a) => ({
        name: a.name,
        auc: a.auc.estimate,
        advantage: a.advantage.estimate,
        memberScores: Array.from(a.memberScores),
        nonMemberScores: Array.from(a.nonMemberScores),
      })),
      top: report.exposure.top.map((r) => r.index),
      markdown: report.toMarkdown(),
      verdict: { pass: verdict.pass, message: verdict.message },
    });
    $('report').innerHTML = report.toHTML().replace(/^[\s\S]*<body>|<\/body>[\s\S]*$/g, '');
    status.textContent = 'done';
    status.dataset.state = 'done';
  } catch (error) {
    status.textContent = `error: ${error instanceof Error ? error.message : String(error)}`;
    status.dataset.state = 'error';
  }
}

void main();
