import type { AttackNetworkSpec } from './attack-network';
import { check, checkPositiveInteger } from './validate';

/** The NN membership attack networks of docs/protocol.md §3.2. */
export type AttackNetworkKind = 'nn-rl' | 'nn-mlh' | 'nn-sel' | 'nn-crl';

/** The {@link AttackNetworkKind}s, for option parsing. */
export const attackNetworkKinds: readonly AttackNetworkKind[] = ['nn-rl', 'nn-mlh', 'nn-sel', 'nn-crl'];

/**
 * The architecture and initialisation of one of the NN membership attack networks of
 * docs/protocol.md §3.2, for {@link createAttackNetwork} (`@mia/attacks`' NN attacks), `@mia/models`'
 * `createAttackModel` and `@mia/defense-baselines`' SEL attack model: the one definition they share,
 * so the same kind, width and seed give the same weights in all three.
 * - `nn-rl` (RelaxLoss `run_nn_attack`): `Linear(C,100)-ReLU-Linear(100,1)`.
 * - `nn-mlh` (CCL/PAST, MLHospital `MLP_BLACKBOX`): `Linear(C,64)-ReLU-Linear(64,32)-ReLU-Linear(32,2)`.
 * - `nn-sel` (SELENA `InferenceAttack_HZ`): a branch on the posterior (columns `[0, C)`:
 *   `C-1024-512-64`, ReLU), a branch on the one-hot label (columns `[C, 2C)`: `C-128-64`, ReLU), and
 *   on their concatenation `128-512-256-128-64-1` (ReLU); weights `N(0, 0.01²)`, biases 0.
 * - `nn-crl` (CRL `attack_model_linear.py`): `Linear(2C,128)-ReLU-Dropout(0.2)-Linear(128,64)-ReLU-
 *   Dropout(0.2)-Linear(64,64)-Linear(64,2)`.
 * All but `nn-sel` use PyTorch's default initialisation.
 * @param kind - {@link AttackNetworkKind}.
 * @param inputDim - width of the attack features: C for `nn-rl` (sorted logits) and `nn-mlh`
 *   (posteriors, or the number of queries of the augmentation attack, §3.3); 2C for `nn-sel` and
 *   `nn-crl` (posterior ⊕ one-hot label).
 * @param seed - initialisation seed. @default 0
 * @returns The spec.
 * @throws InvalidArgumentError on an unknown kind, a bad `inputDim` (odd for `nn-sel`).
 * @see docs/protocol.md §3.2
 */
export function attackNetworkSpec(kind: AttackNetworkKind, inputDim: number, seed = 0): AttackNetworkSpec {
  check(attackNetworkKinds.includes(kind), 'attackNetworkSpec', 'kind', attackNetworkKinds.join(' | '), kind);
  checkPositiveInteger('attackNetworkSpec', 'inputDim', inputDim);
  if (kind === 'nn-rl') return { inputDim, seed, layers: [{ units: 100 }, { units: 1 }] };
  if (kind === 'nn-mlh') return { inputDim, seed, layers: [{ units: 64 }, { units: 32 }, { units: 2 }] };
  if (kind === 'nn-crl') {
    return { inputDim, seed, layers: [{ units: 128, dropout: 0.2 }, { units: 64, dropout: 0.2 }, { units: 64, activation: 'linear' }, { units: 2 }] };
  }
  check(inputDim % 2 === 0, 'attackNetworkSpec', 'inputDim', 'even for nn-sel (posterior ⊕ one-hot label)', inputDim);
  const c = inputDim / 2;
  return {
    inputDim,
    seed,
    init: { normalStd: 0.01 },
    branches: [
      { start: 0, end: c, layers: [{ units: 1024 }, { units: 512 }, { units: 64 }] },
      { start: c, end: inputDim, layers: [{ units: 128 }, { units: 64 }] },
    ],
    layers: [{ units: 512 }, { units: 256 }, { units: 128 }, { units: 64 }, { units: 1 }],
  };
}
