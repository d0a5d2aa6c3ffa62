import { adam, attackNetworkSpec, sgd } from '@mia/core';
import type { SplitSignals } from '../signals/model-signals';
import type { ShadowAttack } from './attack';
import { nnAttack } from './nn-attack';

/** Options shared by the NN-attack presets; anything omitted keeps the reference value. */
export interface NnPresetOptions {
  /** Training epochs. */
  readonly epochs?: number;
  /** Seed of initialisation, shuffling and dropout. @default 0 */
  readonly seed?: number;
  /** Report name. */
  readonly name?: string;
}

/** Options of {@link nnSelAttack}. */
export interface NnSelOptions extends NnPresetOptions {
  /** SEL reproduction: keep the epoch with the best accuracy on these (evaluation) signals; optimistic (A9). */
  readonly selectBestOn?: SplitSignals;
}

/**
 * NN-MLH (CCL, PAST; CCLr `black_box_attack.py`, PASTr `MLP_BLACKBOX`): unsorted posterior →
 * Linear(C,64)-ReLU-Linear(64,32)-ReLU-Linear(32,2), CE, Adam 1e-3, 100 epochs, batch 128.
 * @see docs/protocol.md §3.2.
 */
export function nnMlhAttack(options: NnPresetOptions = {}): ShadowAttack {
  return nnAttack({
    name: options.name ?? 'nn-mlh',
    features: { kind: 'posterior' },
    network: (inputDim, seed) => attackNetworkSpec('nn-mlh', inputDim, seed),
    epochs: options.epochs ?? 100,
    batchSize: 128,
    seed: options.seed,
  });
}

/**
 * NN-RL (RelaxLoss `run_nn_attack`): logits sorted ascending → Linear(C,100)-ReLU-Linear(100,1),
 * sigmoid + BCE, Adam 1e-3, 200 epochs, batch 256.
 * @see docs/protocol.md §3.2; §6 item 18.
 */
export function nnRlAttack(options: NnPresetOptions = {}): ShadowAttack {
  return nnAttack({
    name: options.name ?? 'nn-rl',
    features: { kind: 'sortedLogits' },
    network: (inputDim, seed) => attackNetworkSpec('nn-rl', inputDim, seed),
    epochs: options.epochs ?? 200,
    batchSize: 256,
    seed: options.seed,
  });
}

/**
 * NN-SEL (SELENA `InferenceAttack_HZ`, used by the SharpReg paper): posterior branch
 * C-1024-512-64 and one-hot-label branch C-128-64, combined 128-512-256-128-64-1, sigmoid; weights
 * N(0, 0.01²), biases 0; MSE, Adam 1e-4, 150 epochs. Deviation: batches of 1024 drawn from the
 * pooled known members and reference non-members (SEL pairs 512 + 512 per step). The final epoch is
 * reported unless `selectBestOn` is given (SEL's optimistic best epoch on evaluation data, PROTOCOL A9).
 * @see docs/protocol.md §3.2; §6 item 25.
 */
export function nnSelAttack(options: NnSelOptions = {}): ShadowAttack {
  return nnAttack({
    name: options.name ?? 'nn-sel',
    features: { kind: 'posterior', withLabel: true },
    network: (inputDim, seed) => attackNetworkSpec('nn-sel', inputDim, seed),
    loss: 'mse',
    optimizer: () => adam({ lr: 1e-4 }),
    epochs: options.epochs ?? 150,
    batchSize: 1024,
    seed: options.seed,
    selectBestOn: options.selectBestOn,
  });
}

/**
 * NN-CRL (CRLr `attack_model_linear.py`): posterior ⊕ one-hot → Linear(2C,128)-ReLU-Dropout(0.2)-
 * Linear(128,64)-ReLU-Dropout(0.2)-Linear(64,64)-Linear(64,2); CE, SGD(0.01, momentum 0.9,
 * wd 5e-4), batch 256, 100 epochs, LR ×0.1 at 50 % and 75 % of the epochs (the cifar10_resnet
 * config: [0,50) 0.01, [50,75) 1e-3, [75,100) 1e-4). Pass the pooled signals of k shadow models.
 * @see docs/protocol.md §3.2; §6 item 37.
 */
export function nnCrlAttack(options: NnPresetOptions = {}): ShadowAttack {
  return nnAttack({
    name: options.name ?? 'nn-crl',
    features: { kind: 'posterior', withLabel: true },
    network: (inputDim, seed) => attackNetworkSpec('nn-crl', inputDim, seed),
    optimizer: () => sgd({ lr: 0.01, momentum: 0.9, weightDecay: 5e-4 }),
    schedule: (epochs) => (epoch, lr0) => lr0 * (epoch < 0.5 * epochs ? 1 : epoch < 0.75 * epochs ? 0.1 : 0.01),
    epochs: options.epochs ?? 100,
    batchSize: 256,
    seed: options.seed,
  });
}

/**
 * Augmentation attack, CCL/PAST flavour (Choquette-Choo et al.): the correctness bits of the
 * augmented queries (rotation `[−r, 0, r]` or translations `|i|+|j| = d` plus identity, computed
 * with {@link computeSignals}'s `queries`) → NN-MLH network with `dim_in` = #queries; CE, Adam 1e-3,
 * 5 epochs, batch 128; fitted on the shadow, evaluated on the target (not on the shadow: PROTOCOL A8).
 * @see docs/protocol.md §3.3; §7 A8.
 */
export function augmentationAttack(options: NnPresetOptions = {}): ShadowAttack {
  return nnAttack({
    name: options.name ?? 'augmentation',
    features: { kind: 'queryCorrectness' },
    network: (inputDim, seed) => attackNetworkSpec('nn-mlh', inputDim, seed),
    epochs: options.epochs ?? 5,
    batchSize: 128,
    seed: options.seed,
  });
}
