import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '@mia/core';
import { resolveCrlOptions, type CrlOptions, type ResolvedCrlOptions } from './crl-options';
import { impRelaxLossTerms } from './imp-relax-loss';
import { relaxedCenterLossTerms } from './relaxed-center-loss';
import type { RelaxationCounter } from './relaxation-counter';

/** The tensors one CRL loss evaluation needs. */
export interface CrlBatch {
  /** Raw logits `[B, C]`. */
  readonly logits: tf.Tensor2D;
  /** Penultimate (pooled) features `[B, d]`. */
  readonly features: tf.Tensor2D;
  /** int32 labels `[B]`. */
  readonly labels: tf.Tensor1D;
  /** Class centres `[C, d]` (a variable in training); not needed for `components: 'impRelaxLoss'`. */
  readonly centers?: tf.Tensor2D;
}

/**
 * The CRL objective `L = L_rce + λ·L_rcl` (ImpRelaxLoss plus the relaxed centre loss), or one of
 * the ablations of CRL Table 2 (`options.components`). For a custom loop: compute it inside
 * `tf.variableGrads` over the model variables **and** the centres, step the model with its
 * optimizer and the centres with their own (lr_c = 0.001, momentum 0.9, wd 5e-4).
 *
 * @param batch - logits, features, labels and centres of the batch.
 * @param options - hyperparameters and the 0-based `epoch` of the batch.
 * @returns the scalar loss.
 * @throws InvalidArgumentError on bad options (including an `alpha` below the logit floor, A18) or missing centres.
 * @see CRL Algorithm 1, Table 2; docs/protocol.md §4.3.
 */
export function crlLoss(batch: CrlBatch, options: CrlOptions & { readonly epoch: number }): tf.Scalar {
  return crlObjective('crlLoss', batch, resolveCrlOptions('crlLoss', options), options.epoch);
}

/** {@link crlLoss} with resolved options; `counter` (if given) observes the branch values. @internal */
export function crlObjective(fn: string, batch: CrlBatch, o: ResolvedCrlOptions, epoch: number, counter?: RelaxationCounter): tf.Scalar {
  if (o.useCenters && batch.centers === undefined)
    throw new InvalidArgumentError(`${fn}: centers must be given for components '${o.components}', got undefined`);
  return tf.tidy(() => {
    const rce = impRelaxLossTerms(batch.logits, batch.labels, { alpha: o.alpha, upper: o.upper, t: o.t, epoch, parityOffset: o.parityOffset });
    if (!o.useCenters) {
      counter?.observe(rce.value, undefined);
      return rce.loss;
    }
    const rcl = relaxedCenterLossTerms(batch.features, batch.logits, batch.labels, batch.centers!, {
      alpha: o.alphaCenter,
      upper: o.upperCenter,
      t: o.tCenter,
      epoch,
      parityOffset: o.parityOffset,
    });
    counter?.observe(rce.value, rcl.value);
    return tf.add(rce.loss, tf.mul(rcl.loss, o.lambda)) as tf.Scalar;
  });
}
