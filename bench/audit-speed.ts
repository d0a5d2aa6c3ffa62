// How much `auditModel` costs beyond the model's own forward passes: the time of computing the logits
// of N CIFAR-10-shaped records with a ResNet-18 of width 32, and the time of auditing the same records
// (N/2 members, N/2 non-members; logits included), on the default backend (native when it loads).
//
//   node --conditions=@mia/source --import tsx bench/audit-speed.ts [--records 50000] [--resamples 1000] [--backend native]
//
// The model is untrained and the images are synthetic: the cost of both parts does not depend on the
// weights or pixel values. `--score-records M` also times the model-free part alone (`auditScores` of
// the five metric attacks on M synthetic records), so the overhead at 50,000 records can be measured
// without 50,000 forward passes. Prints one Markdown table row.
import * as tf from '@tensorflow/tfjs-core';
// The repository root does not depend on @mia/attacks (bench/ is not a package): its sources directly.
import { auditModel, auditScores } from '../packages/attacks/src/index';
import { predictLogits, type BackendName, type LabeledData } from '@mia/core';
import { initDefaultBackend } from '@mia/experiments';
import { createResNet } from '@mia/models';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
};
const records = Number(arg('--records', '50000'));
const resamples = Number(arg('--resamples', '1000'));
if (!Number.isInteger(records) || records < 4) throw new Error(`audit-speed: --records must be an integer ≥ 4, got ${arg('--records', '')}`);

const backend = await initDefaultBackend({ prefer: process.argv.includes('--backend') ? [arg('--backend', 'native') as BackendName] : undefined });
const model = createResNet({ numClasses: 10, width: 32, seed: 0 });

// 512 distinct synthetic images, repeated: gathering per batch keeps memory flat for 50,000 records.
const pool = tf.tidy(() => tf.randomUniform([512, 32, 32, 3], 0, 1, 'float32', 1));
const dataset = (offset: number, size: number): LabeledData => ({
  size,
  numClasses: 10,
  inputShape: [32, 32, 3],
  y: Int32Array.from({ length: size }, (_, i) => (offset + i) % 10),
  gather: (indices) =>
    tf.tidy(() =>
      tf.gather(
        pool,
        Int32Array.from(indices, (i) => (offset + i) % 512),
      ),
    ),
});
const members = dataset(0, records >> 1);
const nonMembers = dataset(records >> 1, records - (records >> 1));

const seconds = async (work: () => unknown | Promise<unknown>): Promise<number> => {
  const start = performance.now();
  await work();
  return (performance.now() - start) / 1000;
};
// Warm-up: one untimed pass over the same batch shapes (oneDNN creates its primitives per shape).
for (const data of [members, nonMembers]) predictLogits(model, data, { batchSize: 256 }).dispose();
const logits = await seconds(() => {
  for (const data of [members, nonMembers]) predictLogits(model, data, { batchSize: 256 }).dispose();
});
const audit = await seconds(() => auditModel(model, { members, nonMembers }, { resamples, batchSize: 256 }));
const scoreRecords = Number(arg('--score-records', String(records)));
const u = tf.randomUniform([5, scoreRecords], 0, 1, 'float32', 2).arraySync() as number[][];
const half = scoreRecords >> 1;
const labels = Array.from({ length: scoreRecords }, (_, i) => i % 10);
const scoresOnly = await seconds(() =>
  auditScores(
    {
      attacks: u.map((row, k) => ({ name: `attack${k}`, memberScores: row.slice(0, half).map((v) => v + 0.1), nonMemberScores: row.slice(half) })),
      memberLabels: labels.slice(0, half),
      nonMemberLabels: labels.slice(half),
    },
    { resamples },
  ),
);
process.stdout.write(
  `| ${backend.name} | ${records} | ${resamples} | ${logits.toFixed(1)} s | ${audit.toFixed(1)} s | ${(audit / logits).toFixed(2)}× | ${scoreRecords} | ${scoresOnly.toFixed(1)} s |\n`,
);
model.dispose();
pool.dispose();
