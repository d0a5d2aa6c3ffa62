import * as tf from '@tensorflow/tfjs-core';
import {
  attackNetworkSpec,
  check,
  checkPositiveInteger,
  createAttackNetwork,
  type AttackNetworkInit,
  type AttackNetworkSpec,
  type Classifier,
} from '@mia/core';

/** Architecture of a {@link TwoBranchAttackModel}. */
export interface TwoBranchAttackOptions {
  readonly numClasses: number;
  /** Hidden widths of the branch on the target's outputs (ReLU after each; at least one). */
  readonly outputBranch: readonly number[];
  /** Hidden widths of the branch on the label code (ReLU after each; at least one). */
  readonly labelBranch: readonly number[];
  /** Hidden widths of the combining MLP; a final `Linear(·, 1)` follows. */
  readonly combine: readonly number[];
  /** `@mia/core`'s `AttackNetworkInit`: `'pytorch'`, `'glorot'` or `{ normalStd }`. */
  readonly init: AttackNetworkInit;
  /** @default 0 */
  readonly seed?: number;
}

/** The attack network spec of two-branch options: branches on columns `[0, C)` and `[C, 2C)` of `outputs ⊕ labelCode`. */
function twoBranchSpec(options: TwoBranchAttackOptions): AttackNetworkSpec {
  checkPositiveInteger('TwoBranchAttackModel', 'numClasses', options.numClasses);
  const c = options.numClasses;
  const layers = (widths: readonly number[]) => widths.map((units) => ({ units }));
  return {
    inputDim: 2 * c,
    branches: [
      { start: 0, end: c, layers: layers(options.outputBranch) },
      { start: c, end: 2 * c, layers: layers(options.labelBranch) },
    ],
    layers: layers([...options.combine, 1]),
    init: options.init,
    seed: options.seed ?? 0,
  };
}

/**
 * The two-branch membership attack of Nasr et al. (AdvReg) and SEL: one MLP on the target's
 * output vector, one on the label code, concatenated and combined to one logit
 * (`sigmoid(logit)` = member probability). Built by `@mia/core`'s `createAttackNetwork`, from
 * {@link TwoBranchAttackOptions} or from a spec with two branches on `[0, C)` and `[C, 2C)` and a
 * one-unit last layer (NN-SEL's `attackNetworkSpec('nn-sel', 2C)`).
 * @see docs/protocol.md §4.7, §3.2 (NN-SEL).
 */
export class TwoBranchAttackModel {
  readonly numClasses: number;
  private readonly network: Classifier;

  /** @throws InvalidArgumentError on a bad width or a spec that is not two branches on `[0, C)`, `[C, 2C)` with one output. */
  constructor(architecture: TwoBranchAttackOptions | AttackNetworkSpec) {
    const spec = 'inputDim' in architecture ? architecture : twoBranchSpec(architecture);
    const c = spec.inputDim / 2;
    const [outputs, labels] = spec.branches ?? [];
    const twoBranches = spec.branches?.length === 2 && outputs!.start === 0 && outputs!.end === c && labels!.start === c && labels!.end === 2 * c;
    check(twoBranches && spec.layers.at(-1)?.units === 1, 'TwoBranchAttackModel', 'architecture', 'two branches on [0, C) and [C, 2C) and one output', spec);
    this.numClasses = c;
    this.network = createAttackNetwork(spec);
  }

  /** Every variable, weights and biases: the output branch's, the label branch's, then the combining layers'. */
  get variables(): tf.Variable[] {
    return [...this.network.trainableVariables];
  }

  /**
   * Member logits `[n]` for target outputs `[n, C]` and label codes `[n, C]`; differentiable in both.
   * The caller disposes the result.
   */
  forward(outputs: tf.Tensor2D, labelCode: tf.Tensor2D): tf.Tensor1D {
    return tf.tidy(() => {
      // A one-unit network's logits are [0, z]: z is the member logit.
      const logits = this.network.forward(tf.concat([outputs, labelCode], 1), { training: false }).logits;
      return tf.reshape(tf.slice(logits, [0, 1], [-1, 1]), [-1]) as tf.Tensor1D;
    });
  }

  dispose(): void {
    this.network.dispose();
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
 * The SEL attack model NN-SEL (`@mia/core`'s `attackNetworkSpec('nn-sel', 2C)`: the same branches,
 * `combine = Linear(128,512)-…-Linear(64,1)` (512-256-128-64), weights N(0, 0.01²) and zero
 * biases); used on logits/posteriors + one-hot labels.
 * @see docs/protocol.md §3.2 (NN-SEL), §4.7 (SEL).
 */
export function selAttackModel(numClasses: number, seed = 0): TwoBranchAttackModel {
  checkPositiveInteger('selAttackModel', 'numClasses', numClasses);
  return new TwoBranchAttackModel(attackNetworkSpec('nn-sel', 2 * numClasses, seed));
}
