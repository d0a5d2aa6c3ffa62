// Batch norm kernels of the native addon on the activations of a SmallCNN and a ResNet-18 (width 32)
// training step at batch 128, against the memory traffic they need: the measurement behind
// `native/batch_norm.cc`'s loops.
//
//   node --conditions=@mia/source --import tsx bench/batch-norm.ts [--threads 2] [--rounds 9]
//
// For each activation shape it times the fused forward (statistics + normalise + ReLU) and the fused
// gradient (ReLU mask folded), and, as the bandwidth yardstick, `reluGrad` (two arrays read, one
// written: the cheapest pass over the same data). GB/s counts the traffic any two-pass algorithm needs
// (forward: x read twice, y written once; gradient: dy, y, x read twice, dx written once), so a kernel
// that makes extra passes shows a lower figure.
import { loadNativeAddon } from '../packages/backend-native/src/load-native-addon';
import { median } from './stats';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}

const threads = Number(arg('threads', '2'));
const rounds = Number(arg('rounds', '9'));
const addon = loadNativeAddon();
addon.setNumThreads(threads);
addon.keepFreedMemory(true);

/** [name, rows (batch·h·w), channels]. */
const shapes: [string, number, number][] = [
  ['smallcnn 32×32×32', 128 * 32 * 32, 32],
  ['smallcnn 16×16×64', 128 * 16 * 16, 64],
  ['smallcnn 8×8×128', 128 * 8 * 8, 128],
  ['resnet18-w32 32×32×32', 128 * 32 * 32, 32],
  ['resnet18-w32 4×4×256', 128 * 4 * 4, 256],
];

const time = (f: () => void): number => {
  const t0 = process.hrtime.bigint();
  f();
  return Number(process.hrtime.bigint() - t0) / 1e6;
};
const random = (n: number): Float32Array => new Float32Array(n).map(() => Math.random() * 2 - 1);

const info = addon.info();
console.log(
  `# Batch norm kernels — ${new Date().toISOString()}\n\noneDNN ${info.onednn} (ISA ${info.isa}), ${threads} threads, median of ${rounds} calls after one untimed call.\n`,
);
console.log('| activation | elements | forward ms | forward GB/s | gradient ms | gradient GB/s | reluGrad ms | reluGrad GB/s |');
console.log('|---|---|---|---|---|---|---|---|');
let total = { fwd: 0, grad: 0, relu: 0 };
for (const [name, rows, channels] of shapes) {
  const size = rows * channels;
  const x = random(size);
  const dy = random(size);
  const y = new Float32Array(size);
  const dx = new Float32Array(size);
  const scale = random(channels);
  const offset = random(channels);
  const mean = new Float32Array(channels);
  const variance = new Float32Array(channels);
  const dScale = new Float32Array(channels);
  const dOffset = new Float32Array(channels);
  const fwd = () => addon.batchNormTrain(x, scale, offset, y, mean, variance, rows, channels, 1e-5, true);
  const grad = () => addon.batchNormTrainGrad(dy, x, mean, variance, scale, dx, dScale, dOffset, rows, channels, 1e-5, y);
  const relu = () => addon.reluGrad(dy, x, dx, size);
  const runs = { fwd: [] as number[], grad: [] as number[], relu: [] as number[] };
  fwd();
  grad();
  relu();
  for (let r = 0; r < rounds; r++) {
    runs.fwd.push(time(fwd));
    runs.grad.push(time(grad));
    runs.relu.push(time(relu));
  }
  const bytes = size * 4;
  const gbs = (passes: number, ms: number) => ((passes * bytes) / ms / 1e6).toFixed(1);
  const m = { fwd: median(runs.fwd), grad: median(runs.grad), relu: median(runs.relu) };
  if (name.startsWith('smallcnn')) {
    // SmallCNN has two 32×32×32 layers: count the first shape twice in its total.
    const times = name.includes('32×32×32') ? 2 : 1;
    total = { fwd: total.fwd + times * m.fwd, grad: total.grad + times * m.grad, relu: total.relu + times * m.relu };
  }
  console.log(
    `| ${name} | ${size.toLocaleString('en')} | ${m.fwd.toFixed(2)} | ${gbs(3, m.fwd)} | ${m.grad.toFixed(2)} | ${gbs(7, m.grad)} | ${m.relu.toFixed(2)} | ${gbs(3, m.relu)} |`,
  );
}
console.log(
  `\nSmallCNN step (its four batch norms): forward ${total.fwd.toFixed(1)} ms, gradient ${total.grad.toFixed(1)} ms; reluGrad over the same data ${total.relu.toFixed(1)} ms.`,
);
