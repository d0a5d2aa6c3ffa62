import { option, optionsSchema } from '@mia/core';
import { crlOptionsSchema, crlPlugin, summarizeRelaxation } from '@mia/defense-crl';
import { defineDefense } from './definition';
import { trainWithPlugins } from './train-helpers';

const lrCenters = option.number({ min: 0, exclusiveMin: true, description: "Learning rate of the CRL centres' own SGD (default 0.001)." });
const centerStep = option.choice(['code', 'paper'] as const, {
  description: "How the centres step: 'code' on λ·∂L_rcl/∂c (the authors' code, the default), 'paper' on ∂L_rcl/∂c without λ (CRL Algorithm 1, line 24).",
});

/**
 * Center-based relaxed learning (docs/protocol.md §4.3): the run's training with `@mia/defense-crl`'s
 * plugin; records how often each relaxed branch fired as the `crlRelaxation` metric.
 */
export const crlDefense = defineDefense({
  name: 'crl',
  description: 'center-based relaxed learning (CRL, docs/protocol.md §4.3)',
  schema: optionsSchema({ ...crlOptionsSchema.fields, lrCenters, centerStep }),
  async train(ctx) {
    const plugin = crlPlugin({ ...ctx.options, numClasses: ctx.model.numClasses, featureDim: ctx.model.featureDim, seed: ctx.seed, onLog: ctx.log });
    await trainWithPlugins(ctx, [plugin]);
    // How often each relaxed branch fired (docs/protocol.md §4.3): a reproduction reads it from the result row.
    ctx.recordMetrics?.({ crlRelaxation: { summary: summarizeRelaxation(plugin.relaxation), epochs: plugin.relaxation } });
  },
});
