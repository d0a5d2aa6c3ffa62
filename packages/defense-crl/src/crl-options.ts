import { InvalidArgumentError, checkNumberInRange } from '@mia/core';

/** The ablation components of CRL Table 2 / Fig. 7. */
export type CrlComponents = 'crl' | 'impRelaxLoss' | 'relaxedCenterLoss';

/** Hyperparameters of CRL (docs/protocol.md §4.3; the paper publishes none, defaults from A18's grid). */
export interface CrlOptions {
  /** ImpRelaxLoss threshold α_rce; must exceed the logit-normalisation floor for (t, C). @default 1 */
  readonly alpha?: number;
  /** Clamp of the ImpRelaxLoss soft target. @default 1 */
  readonly upper?: number;
  /** Logit normalisation factor τ_rce. @default 0.05 */
  readonly t?: number;
  /** Relaxed centre loss threshold α_rcl. @default 0.1 */
  readonly alphaCenter?: number;
  /** Clamp of the centre loss confidence weight. @default 1 */
  readonly upperCenter?: number;
  /** Feature/centre normalisation factor τ_rcl. @default 0.05 */
  readonly tCenter?: number;
  /** Weight λ of the relaxed centre loss. @default 0.1 */
  readonly lambda?: number;
  /** Added to the 0-based epoch before the parity test: 1 = CRL's 1-based parity, 0 = RelaxLoss'. @default 1 */
  readonly parityOffset?: number;
  /**
   * Ablation (CRL Table 2): `'crl'` = ImpRelaxLoss + λ·relaxed centre loss, both normalised;
   * `'impRelaxLoss'` = ImpRelaxLoss alone (no centres); `'relaxedCenterLoss'` = relaxed CE +
   * λ·relaxed centre loss **without** normalisation (t = t_cl = 0), as in the paper's §5.3. @default 'crl'
   */
  readonly components?: CrlComponents;
}

/** {@link CrlOptions} with defaults filled in and the ablation applied. @internal */
export interface ResolvedCrlOptions {
  readonly alpha: number;
  readonly upper: number;
  readonly t: number;
  readonly alphaCenter: number;
  readonly upperCenter: number;
  readonly tCenter: number;
  readonly lambda: number;
  readonly parityOffset: number;
  readonly useCenters: boolean;
  readonly components: CrlComponents;
}

/** Validates {@link CrlOptions} and applies the ablation preset. @internal */
export function resolveCrlOptions(fn: string, options: CrlOptions = {}): ResolvedCrlOptions {
  const components = options.components ?? 'crl';
  if (components !== 'crl' && components !== 'impRelaxLoss' && components !== 'relaxedCenterLoss') {
    throw new InvalidArgumentError(`${fn}: components must be 'crl', 'impRelaxLoss' or 'relaxedCenterLoss', got ${JSON.stringify(components)}`);
  }
  const normalize = components !== 'relaxedCenterLoss';
  const r: ResolvedCrlOptions = {
    alpha: options.alpha ?? 1,
    upper: options.upper ?? 1,
    t: normalize ? (options.t ?? 0.05) : 0,
    alphaCenter: options.alphaCenter ?? 0.1,
    upperCenter: options.upperCenter ?? 1,
    tCenter: normalize ? (options.tCenter ?? 0.05) : 0,
    lambda: options.lambda ?? 0.1,
    parityOffset: options.parityOffset ?? 1,
    useCenters: components !== 'impRelaxLoss',
    components,
  };
  checkNumberInRange(fn, 'alpha', r.alpha, 0);
  checkNumberInRange(fn, 'upper', r.upper, 0, 1);
  checkNumberInRange(fn, 't', r.t, 0);
  checkNumberInRange(fn, 'alphaCenter', r.alphaCenter, 0);
  checkNumberInRange(fn, 'upperCenter', r.upperCenter, 0, 1);
  checkNumberInRange(fn, 'tCenter', r.tCenter, 0);
  checkNumberInRange(fn, 'lambda', r.lambda, 0);
  if (!Number.isInteger(r.parityOffset)) throw new InvalidArgumentError(`${fn}: parityOffset must be an integer, got ${r.parityOffset}`);
  return r;
}
