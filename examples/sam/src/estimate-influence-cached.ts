import { computeSignals } from '@mia/attacks';
import { subsetData } from '@mia/core';
import { CPU_PLAN } from './configs';
import { contentHash, trainWithPlugins, type ExperimentConfig } from '@mia/experiments';
import { type LoadedUnit, type ReproductionContext } from '@mia/experiments/reproduce';
import { createModel } from '@mia/models';
import { estimateInfluence } from '@mia/sam';

/** Subset models of the influence estimator per scale (Feldman & Zhang used thousands). */
export const INFLUENCE_MODELS = { smoke: 4, cpu: CPU_PLAN.influenceModels, paper: 2000 } as const;

const bytesOf = (a: Float64Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const floatsOf = (b: Uint8Array) => new Float64Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));

/**
 * Influence `[numTest × numTrain]` and memorisation of the target's members on its test non-members,
 * by the subsampling estimator of `@mia/sam` (Feldman & Zhang 2020): `numModels` models of the
 * config's architecture, trained with plain SGD exactly like the SGD target but on random 70 %
 * subsets of its members, scored by correctness. Cached in the artifact store by content.
 *
 * @see SAM-privacy §3.2, Eq. 1–2; docs/protocol.md (small-scale estimator)
 */
export async function estimateInfluenceCached(
  ctx: ReproductionContext,
  config: ExperimentConfig,
  unit: LoadedUnit,
  numModels: number,
): Promise<{ influence: Float64Array; memorization: Float64Array }> {
  const { members, nonMembers } = unit;
  const dataset = unit.data.dataset;
  const key = contentHash({
    kind: 'sam-privacy-influence-1',
    data: unit.data.digest,
    model: config.model,
    training: config.training,
    numModels,
    seed: config.seed,
  });
  const stored = await ctx.store.read(key);
  const inf = stored?.files.get('influence.f64');
  const mem = stored?.files.get('memorization.f64');
  if (inf !== undefined && mem !== undefined) return { influence: floatsOf(inf), memorization: floatsOf(mem) };
  const estimate = await estimateInfluence({
    numTrain: members.length,
    numTest: nonMembers.length,
    numModels,
    seed: config.seed,
    onProgress: (done, total) => ctx.log(`[sam] influence estimator: model ${done}/${total}`),
    async trainModel(subset, seed) {
      const model = createModel(config.model.name, { ...config.model.options, numClasses: dataset.numClasses, inputShape: [...dataset.inputShape], seed });
      try {
        await trainWithPlugins(
          {
            model,
            members: subsetData(
              dataset,
              Array.from(subset, (i) => members[i]!),
            ),
            training: config.training,
            seed,
            label: 'influence subset model',
          },
          [],
        );
        return { train: computeSignals(model, dataset, { indices: members }).correct!, test: computeSignals(model, dataset, { indices: nonMembers }).correct! };
      } finally {
        model.dispose();
      }
    },
  });
  await ctx.store.write(
    key,
    { 'influence.f64': bytesOf(estimate.influence), 'memorization.f64': bytesOf(estimate.memorization) },
    { kind: 'sam-privacy-influence', config: config.name, numModels },
  );
  return { influence: estimate.influence, memorization: estimate.memorization };
}
