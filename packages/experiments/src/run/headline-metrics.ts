/**
 * The headline numbers of a result row (docs/protocol.md §5), in the order `results.json` lists them:
 * train and test accuracy, loss gap, max advantage and P1. A `runSeeds` aggregate keeps each seed's
 * value of these (`SeedValues`), the bootstrap gives each an SE (`RowSe`) and a paired SE between
 * rows (`PairedMetric`), and `rowMetrics` of `@mia/experiments/reproduce` names each one.
 */
export const HEADLINE_METRICS = ['trainAccuracy', 'testAccuracy', 'lossGap', 'maxAdvantage', 'p1'] as const;

/** One of the {@link HEADLINE_METRICS}. */
export type HeadlineMetric = (typeof HEADLINE_METRICS)[number];
