import { option, optionsSchema } from '@mia/core';

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

/**
 * The schema of {@link CrlOptions}: validation, defaults and the JSON Schema of the `crl` defense's
 * params (strict: unknown keys are errors).
 * @see docs/protocol.md §4.3, A18
 */
export const crlOptionsSchema = optionsSchema({
  alpha: option.number({ min: 0, default: 1, description: 'ImpRelaxLoss threshold α_rce (above the logit-normalisation floor).' }),
  upper: option.number({ min: 0, max: 1, default: 1, description: 'Clamp of the ImpRelaxLoss soft target.' }),
  t: option.number({ min: 0, default: 0.05, description: 'Logit normalisation factor τ_rce (0 with components relaxedCenterLoss).' }),
  alphaCenter: option.number({ min: 0, default: 0.1, description: 'Relaxed centre loss threshold α_rcl.' }),
  upperCenter: option.number({ min: 0, max: 1, default: 1, description: 'Clamp of the centre loss confidence weight.' }),
  tCenter: option.number({ min: 0, default: 0.05, description: 'Feature/centre normalisation factor τ_rcl (0 with components relaxedCenterLoss).' }),
  lambda: option.number({ min: 0, default: 0.1, description: 'Weight λ of the relaxed centre loss.' }),
  parityOffset: option.integer({ default: 1, description: "Added to the 0-based epoch before the parity test: 1 = CRL's, 0 = RelaxLoss'." }),
  components: option.choice(['crl', 'impRelaxLoss', 'relaxedCenterLoss'], { default: 'crl', description: 'Ablation of CRL Table 2.' }),
});

/** Validates the {@link CrlOptions} part of `options` with {@link crlOptionsSchema} and applies the ablation preset. @internal */
export function resolveCrlOptions(fn: string, options: CrlOptions = {}): ResolvedCrlOptions {
  const o = crlOptionsSchema.parse(options, fn, { allowUnknown: true });
  const normalize = o.components !== 'relaxedCenterLoss';
  return { ...o, t: normalize ? o.t : 0, tCenter: normalize ? o.tCenter : 0, useCenters: o.components !== 'impRelaxLoss' };
}
