// The three benchmark models, written with plain tf ops so that they match bench/pytorch/models_torch.py
// layer for layer (same shapes, explicit PyTorch padding, BN in training mode, biases where PyTorch has them).
import { batchNormTraining, conv2dBias, denseBias, type DenseActivation } from '@mia/core';
import * as tf from '@tensorflow/tfjs-core';

/** A benchmark model: parameter shapes, a forward pass, and its forward FLOPs (2·MAC of conv and linear layers). */
export interface BenchModel {
  name: string;
  batch: number;
  inputShape: number[];
  numClasses: number;
  shapes: Map<string, number[]>;
  forward(params: Map<string, tf.Tensor>, x: tf.Tensor): tf.Tensor2D;
  forwardFlops: number;
  /** Forward FLOPs of the first layer, whose input gradient a training step does not compute. */
  inputLayerFlops: number;
}

/** FLOPs of a training step's convolutions and matrix products: forward, weight gradient, and input gradient of every layer but the first. */
export function trainingFlops(model: BenchModel): number {
  return 3 * model.forwardFlops - model.inputLayerFlops;
}

type Params = Map<string, tf.Tensor>;
const get = (p: Params, name: string): tf.Tensor => {
  const t = p.get(name);
  if (t === undefined) throw new Error(`bench model: no parameter ${name}`);
  return t;
};

// Training-mode batch norm as the models of @mia/models run it (tf.moments + tf.batchNorm, or one
// fused kernel when the backend has it), with the ReLU that follows it in the same kernel when `relu`.
function batchNorm(p: Params, name: string, x: tf.Tensor4D, relu = false): tf.Tensor4D {
  return batchNormTraining(x, get(p, `${name}.gamma`), get(p, `${name}.beta`), 1e-5, { activation: relu ? 'relu' : 'linear' }).y;
}

/** Builds shapes and FLOP counts while a model definition declares its layers. */
class Builder {
  shapes = new Map<string, number[]>();
  flops = 0;
  /** FLOPs of the first conv or dense layer declared. */
  inputLayerFlops = 0;
  constructor(readonly batch: number) {}
  private add(flops: number): void {
    if (this.flops === 0) this.inputLayerFlops = flops;
    this.flops += flops;
  }
  conv(name: string, cin: number, cout: number, k: number, outHw: number, bias: boolean): void {
    this.shapes.set(`${name}.w`, [k, k, cin, cout]);
    if (bias) this.shapes.set(`${name}.b`, [cout]);
    this.add(2 * this.batch * outHw * outHw * cout * cin * k * k);
  }
  bn(name: string, c: number): void {
    this.shapes.set(`${name}.gamma`, [c]);
    this.shapes.set(`${name}.beta`, [c]);
  }
  dense(name: string, cin: number, cout: number): void {
    this.shapes.set(`${name}.w`, [cin, cout]);
    this.shapes.set(`${name}.b`, [cout]);
    this.add(2 * this.batch * cin * cout);
  }
}

// As @mia/models' denseLayer: denseBias, the activation included (one kernel each way where the backend has it).
function dense(p: Params, name: string, x: tf.Tensor2D, activation: DenseActivation = 'linear'): tf.Tensor2D {
  return denseBias(x, get(p, `${name}.w`), get(p, `${name}.b`), activation);
}

function conv(p: Params, name: string, x: tf.Tensor4D, stride: number, pad: number): tf.Tensor4D {
  const explicit: [[number, number], [number, number], [number, number], [number, number]] = [
    [0, 0],
    [pad, pad],
    [pad, pad],
    [0, 0],
  ];
  const bias = p.get(`${name}.b`);
  // As @mia/models' conv2dLayer: with a bias, conv2dBias (one kernel where the backend has it).
  if (bias !== undefined) return conv2dBias(x, get(p, `${name}.w`) as tf.Tensor4D, bias, stride, pad === 0 ? 'valid' : explicit);
  return tf.conv2d(x, get(p, `${name}.w`) as tf.Tensor4D, stride, pad === 0 ? 'valid' : explicit);
}

/** Purchase100 MLP of docs/protocol.md: 600-1024-512-256-128-100, tanh. */
export function purchaseMlp(batch = 128): BenchModel {
  const widths = [600, 1024, 512, 256, 128, 100];
  const b = new Builder(batch);
  for (let i = 0; i + 1 < widths.length; i++) b.dense(`l${i}`, widths[i]!, widths[i + 1]!);
  return {
    name: 'purchase',
    batch,
    inputShape: [600],
    numClasses: 100,
    shapes: b.shapes,
    forwardFlops: b.flops,
    inputLayerFlops: b.inputLayerFlops,
    forward(p, x) {
      let h = x as tf.Tensor2D;
      for (let i = 0; i + 1 < widths.length; i++) h = dense(p, `l${i}`, h, i + 2 < widths.length ? 'tanh' : 'linear');
      return h;
    },
  };
}

/** SmallCNN: conv32-conv32-pool-conv64-pool-conv128-GAP-fc10, BN + ReLU after every conv (3×3, pad 1, bias). */
export function smallCnn(batch = 128): BenchModel {
  const b = new Builder(batch);
  const convs: [string, number, number, number][] = [
    ['c1', 3, 32, 32],
    ['c2', 32, 32, 32],
    ['c3', 32, 64, 16],
    ['c4', 64, 128, 8],
  ];
  for (const [name, cin, cout, hw] of convs) {
    b.conv(name, cin, cout, 3, hw, true);
    b.bn(`${name}.bn`, cout);
  }
  b.dense('fc', 128, 10);
  const cbr = (p: Params, name: string, x: tf.Tensor4D): tf.Tensor4D => batchNorm(p, `${name}.bn`, conv(p, name, x, 1, 1), true);
  return {
    name: 'smallcnn',
    batch,
    inputShape: [32, 32, 3],
    numClasses: 10,
    shapes: b.shapes,
    forwardFlops: b.flops,
    inputLayerFlops: b.inputLayerFlops,
    forward(p, x) {
      let h = cbr(p, 'c2', cbr(p, 'c1', x as tf.Tensor4D));
      h = cbr(p, 'c3', tf.maxPool(h, 2, 2, 'valid'));
      h = cbr(p, 'c4', tf.maxPool(h, 2, 2, 'valid'));
      return dense(p, 'fc', tf.mean(h, [1, 2]) as tf.Tensor2D);
    },
  };
}

/** ResNet-18, CIFAR stem (3×3 conv, no max pool), BasicBlocks [2,2,2,2], widths 64–512, no conv biases. */
export function resnet18(batch = 64): BenchModel {
  const b = new Builder(batch);
  b.conv('stem', 3, 64, 3, 32, false);
  b.bn('stem.bn', 64);
  const blocks: { name: string; cin: number; cout: number; stride: number; hw: number }[] = [];
  let cin = 64;
  let hw = 32;
  for (const [width, stride] of [
    [64, 1],
    [128, 2],
    [256, 2],
    [512, 2],
  ] as const) {
    for (let i = 0; i < 2; i++) {
      const s = i === 0 ? stride : 1;
      hw /= s;
      const name = `b${width}_${i}`;
      blocks.push({ name, cin, cout: width, stride: s, hw });
      b.conv(`${name}.c1`, cin, width, 3, hw, false);
      b.bn(`${name}.bn1`, width);
      b.conv(`${name}.c2`, width, width, 3, hw, false);
      b.bn(`${name}.bn2`, width);
      if (s !== 1 || cin !== width) {
        b.conv(`${name}.sc`, cin, width, 1, hw, false);
        b.bn(`${name}.scbn`, width);
      }
      cin = width;
    }
  }
  b.dense('fc', 512, 10);
  return {
    name: 'resnet18',
    batch,
    inputShape: [32, 32, 3],
    numClasses: 10,
    shapes: b.shapes,
    forwardFlops: b.flops,
    inputLayerFlops: b.inputLayerFlops,
    forward(p, x) {
      let h = batchNorm(p, 'stem.bn', conv(p, 'stem', x as tf.Tensor4D, 1, 1), true);
      for (const blk of blocks) {
        const o = batchNorm(p, `${blk.name}.bn1`, conv(p, `${blk.name}.c1`, h, blk.stride, 1), true);
        const o2 = batchNorm(p, `${blk.name}.bn2`, conv(p, `${blk.name}.c2`, o, 1, 1));
        const shortcut = p.has(`${blk.name}.sc.w`) ? batchNorm(p, `${blk.name}.scbn`, conv(p, `${blk.name}.sc`, h, blk.stride, 0)) : h;
        h = tf.relu(tf.add(o2, shortcut)) as tf.Tensor4D;
      }
      return dense(p, 'fc', tf.mean(h, [1, 2]) as tf.Tensor2D);
    },
  };
}

/** The models `pnpm bench` knows, by name. */
export const benchModels: Record<string, (batch?: number) => BenchModel> = { purchase: purchaseMlp, smallcnn: smallCnn, resnet18 };
