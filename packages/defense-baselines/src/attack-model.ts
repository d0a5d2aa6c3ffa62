import * as tf from '@tensorflow/tfjs-core';
import { checkPositiveInteger, seededRandom } from '@mia/core';
import { DenseNetwork, type DenseInit } from './dense-network';

/** Architecture of a {@link TwoBranchAttackModel}. */
export interface TwoBranchAttackOptions {
  readonly numClasses: number;
  /** Hidden widths of the branch on the target's outputs (ReLU after each). */
  readonly outputBranch: readonly number[];
  /** Hidden widths of the branch on the label code (ReLU after each). */
  readonly labelBranch: readonly number[];
  /** Hidden widths of the combining MLP; a final `Linear(·, 1)` follows. */
  readonly combine: readonly number[];
  readonly init: DenseInit;
  /** @default 0 */
  readonly seed?: number;
}

/**
 * The two-branch membership attack of Nasr et al. (AdvReg) and SEL: one MLP on the target's
 * output vector, one on the label code, concatenated and combined to one logit
 * (`sigmoid(logit)` = member probability).
 * @see docs/protocol.md §4.7, §3.2 (NN-SEL).
 */
export class TwoBranchAttackModel {
  readonly numClasses: number;
  private readonly output: DenseNetwork;
  private readonly label: DenseNetwork;
  private readonly combine: DenseNetwork;

  constructor(options: TwoBranchAttackOptions) {
    checkPositiveInteger('TwoBranchAttackModel', 'numClasses', options.numClasses);
    const random = seededRandom(options.seed ?? 0);
    const c = options.numClasses;
    this.numClasses = c;
    this.output = new DenseNetwork([c, ...options.outputBranch], { init: options.init, random, reluLast: true });
    this.label = new DenseNetwork([c, ...options.labelBranch], { init: options.init, random, reluLast: true });
    const joined = (options.outputBranch.at(-1) ?? c) + (options.labelBranch.at(-1) ?? c);
    this.combine = new DenseNetwork([joined, ...options.combine, 1], { init: options.init, random });
  }

  get variables(): tf.Variable[] {
    return [...this.output.variables, ...this.label.variables, ...this.combine.variables];
  }

  /**
   * Member logits `[n]` for target outputs `[n, C]` and label codes `[n, C]`.
   * The caller disposes the result.
   */
  forward(outputs: tf.Tensor2D, labelCode: tf.Tensor2D): tf.Tensor1D {
    return tf.tidy(() => tf.reshape(this.combine.apply(tf.concat([this.output.apply(outputs), this.label.apply(labelCode)], 1)), [-1]) as tf.Tensor1D);
  }

  dispose(): void {
    this.output.dispose();
    this.label.dispose();
    this.combine.dispose();
  }
}

/**
 * The MLHospital AdvReg attack (PASTr/CCL `AdvReg.py`): `Linear(C,1024)-ReLU-Linear(1024,512)-ReLU-
 * Linear(512,64)-ReLU` on raw logits, `Linear(C,128)-ReLU-Linear(128,64)-ReLU` on the ±1 label
 * code, `Linear(128,256)-ReLU-Linear(256,128)-ReLU-Linear(128,64)-ReLU-Linear(64,1)`; PyTorch init.
 * @see docs/protocol.md §4.7.
 */
export function mlhAdvRegAttackModel(numClasses: number, seed = 0): TwoBranchAttackModel {
  return new TwoBranchAttackModel({ numClasses, outputBranch: [1024, 512, 64], labelBranch: [128, 64], combine: [256, 128, 64], init: 'pytorch', seed });
}

/**
 * The SEL attack model NN-SEL: the same branches, `combine = Linear(128,512)-…-Linear(64,1)`
 * (512-256-128-64), weights N(0, 0.01²) and zero biases; used on logits/posteriors + one-hot labels.
 * @see docs/protocol.md §3.2 (NN-SEL), §4.7 (SEL).
 */
export function selAttackModel(numClasses: number, seed = 0): TwoBranchAttackModel {
  return new TwoBranchAttackModel({ numClasses, outputBranch: [1024, 512, 64], labelBranch: [128, 64], combine: [512, 256, 128, 64], init: 'normal', seed });
}
