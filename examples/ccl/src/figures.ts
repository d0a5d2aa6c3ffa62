import type { ReproductionFigure } from '@mia/experiments/reproduce';

/** One point of a privacy-utility curve: a defense setting under one attack. */
export interface TradeoffPoint {
  readonly defense: string;
  readonly setting: string;
  /** The knob's value (for ordering the curve). */
  readonly strength: number;
  readonly attack: string;
  readonly testAccuracy: number;
  readonly advantage: number;
}

/**
 * CCL Fig. 2/3: one panel per attack, x = the target's test accuracy, y = the attack advantage, one
 * line per defense through its settings, and a dotted vertical rule at the undefended accuracy.
 */
export function tradeoffFigure(id: string, title: string, points: readonly TradeoffPoint[], vanillaAccuracy: number | undefined): ReproductionFigure {
  const data = points.map((p) => ({ ...p, vanilla: vanillaAccuracy ?? null }));
  return {
    id,
    title,
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      data: { values: data },
      facet: { field: 'attack', type: 'nominal', title: 'attack' },
      columns: 3,
      spec: {
        width: 220,
        height: 170,
        layer: [
          {
            mark: { type: 'line', point: true },
            encoding: {
              x: { field: 'testAccuracy', type: 'quantitative', title: 'test accuracy', scale: { zero: false } },
              y: { field: 'advantage', type: 'quantitative', title: 'attack advantage' },
              color: { field: 'defense', type: 'nominal' },
              order: { field: 'strength', type: 'quantitative' },
              tooltip: [{ field: 'setting' }, { field: 'testAccuracy', format: '.3f' }, { field: 'advantage', format: '.3f' }],
            },
          },
          { mark: { type: 'rule', strokeDash: [4, 4], color: 'gray' }, encoding: { x: { aggregate: 'min', field: 'vanilla', type: 'quantitative' } } },
        ],
      },
    },
  };
}

/** A long-format series point for {@link lineFigure}. */
export interface SeriesPoint {
  readonly series: string;
  readonly x: number;
  readonly y: number;
  /** Panel (e.g. the quantity plotted). */
  readonly panel: string;
}

/** Line charts, one panel per `panel`, one line per `series` (CCL Fig. 1, Fig. 4). */
export function lineFigure(id: string, title: string, points: readonly SeriesPoint[], xTitle: string): ReproductionFigure {
  return {
    id,
    title,
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      data: { values: points.map((p) => ({ ...p })) },
      facet: { field: 'panel', type: 'nominal', title: null },
      columns: 3,
      resolve: { scale: { y: 'independent' } },
      spec: {
        width: 220,
        height: 170,
        mark: { type: 'line', point: true },
        encoding: {
          x: { field: 'x', type: 'quantitative', title: xTitle },
          y: { field: 'y', type: 'quantitative', title: null, scale: { zero: false } },
          color: { field: 'series', type: 'nominal' },
        },
      },
    },
  };
}
