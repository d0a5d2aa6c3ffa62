import { InvalidArgumentError } from '@mia/core';
import { stratifiedBootstrapSe } from '@mia/metrics';
import { HEADLINE_METRICS, type HeadlineMetric } from './headline-metrics';
import { rowStatistics, type RowUncertaintyInput } from './row-uncertainty';

/**
 * A row number whose difference between two rows has a paired SE: the headline numbers (named as
 * `rowMetrics` of `@mia/experiments/reproduce` names them) or one attack's advantage or AUC.
 */
export type PairedMetric = HeadlineMetric | { readonly attack: string; readonly which: 'advantage' | 'auc' };

/**
 * Standard errors of the differences between the rows of one run (docs/protocol.md §5.2), stored as
 * `ExperimentResults.pairedSe`: for every metric, the SE of `row i − row j` for every pair i < j of
 * {@link rows}, packed row by row — (0,1), (0,2), …, (0,n−1), (1,2), … (see {@link pairIndex});
 * `null` where a row lacks the number (an attack it was not attacked with) or it had no spread.
 */
export interface PairedSeTable {
  /**
   * `paired-bootstrap`: the rows resampled with the same evaluation examples (one training seed);
   * `seeds+paired-bootstrap`: combined over training seeds (`reproduce/seeds.ts`).
   */
  readonly method: 'paired-bootstrap' | 'seeds+paired-bootstrap';
  readonly resamples: number;
  /** Number of training seeds combined (`seeds+paired-bootstrap` only). */
  readonly seeds?: number;
  /** The row labels, in the order of `ExperimentResults.rows`. */
  readonly rows: readonly string[];
  /** Per metric key (`trainAccuracy`, …, `p1`, `adv:<attack>`, `auc:<attack>`): the packed pair SEs, 4 significant digits. */
  readonly se: Readonly<Record<string, ReadonlyArray<number | null>>>;
  /**
   * `seeds+paired-bootstrap` only: the Welch–Satterthwaite degrees of freedom of each packed SE
   * (same layout as {@link se}; null where the SE is null). Absent: large-sample SEs.
   */
  readonly df?: Readonly<Record<string, ReadonlyArray<number | null>>>;
}

/** Position of the pair (i, j), i < j, of `n` rows in a {@link PairedSeTable}'s packed arrays. */
export const pairIndex = (i: number, j: number, n: number): number => (i * (2 * n - i - 1)) / 2 + (j - i - 1);

/** The key of a {@link PairedMetric} in {@link PairedSeTable.se} (and in the bootstrap statistics). */
export const pairedMetricKey = (metric: PairedMetric): string =>
  typeof metric === 'string' ? metric : `${metric.which === 'advantage' ? 'adv' : 'auc'}:${metric.attack}`;

/** Rounds a stored SE to 4 significant digits (JSON size; far below what a 2-SE decision can resolve); non-finite → null. */
export const storedSe = (se: number): number | null => (Number.isFinite(se) ? Number(se.toPrecision(4)) : null);

/** One row of {@link pairedRowSe}: its label and what its own bootstrap resamples. */
export interface PairedRowInput {
  readonly label: string;
  readonly input: Omit<RowUncertaintyInput, 'seed' | 'resamples'>;
}

/** Options of {@link pairedRowSe}. */
export interface PairedRowSeOptions {
  readonly seed: number;
  /** @default 200 */
  readonly resamples?: number;
}

/**
 * Paired bootstrap SEs of the differences between the rows of one run (docs/protocol.md §5.2): every
 * resample draws the evaluation examples (members and non-members separately) once and every row's
 * numbers are computed on that same draw (common random numbers), so the SE of `A − B` is the spread
 * of the per-resample differences — smaller than `sqrt(seA² + seB²)` when the rows err on the same
 * examples. Each row's numbers are those of `rowUncertainty` (same rules for fixed decisions,
 * re-chosen thresholds and the max advantage).
 * @returns undefined with fewer than two rows.
 * @throws InvalidArgumentError when the rows are not evaluated on the same numbers of members and non-members.
 */
export function pairedRowSe(rows: readonly PairedRowInput[], options: PairedRowSeOptions): PairedSeTable | undefined {
  if (rows.length < 2) return undefined;
  const nM = rows[0]!.input.membersCorrect.length;
  const nN = rows[0]!.input.nonMembersCorrect.length;
  rows.forEach((r, k) => {
    const m = r.input.membersCorrect.length;
    const n = r.input.nonMembersCorrect.length;
    if (m !== nM || n !== nN)
      throw new InvalidArgumentError(
        `pairedRowSe: rows must be evaluated on the same examples (${nM} members, ${nN} non-members, as rows[0] ${JSON.stringify(rows[0]!.label)}), got ${m} members and ${n} non-members in rows[${k}] ${JSON.stringify(r.label)}`,
      );
  });
  const resamples = options.resamples ?? 200;
  const statistics = rows.map((r) => rowStatistics(r.input));
  const attacks = [...new Set(statistics.flatMap((s) => s.prepared.map((a) => a.name)))];
  const keys = [...HEADLINE_METRICS, ...attacks.flatMap((a) => [`adv:${a}`, `auc:${a}`])];
  const n = rows.length;
  const differences = stratifiedBootstrapSe(
    nM,
    nN,
    (resample) => {
      const values = statistics.map((s) => s.statistics(resample));
      const out: Record<string, number> = {};
      for (const key of keys) {
        for (let i = 0; i < n; i++) {
          for (let j = i + 1; j < n; j++) out[`${key}|${pairIndex(i, j, n)}`] = (values[i]![key] ?? NaN) - (values[j]![key] ?? NaN);
        }
      }
      return out;
    },
    { resamples, seed: options.seed },
  );
  const pairs = (n * (n - 1)) / 2;
  const se = Object.fromEntries(keys.map((key) => [key, Array.from({ length: pairs }, (_, p) => storedSe(differences[`${key}|${p}`] ?? NaN))]));
  return { method: 'paired-bootstrap', resamples, rows: rows.map((r) => r.label), se };
}

/**
 * The SE of `rowA − rowB` for a metric of one run (or of a `runSeeds` aggregate) from its
 * {@link PairedSeTable}: the paired SE a comparison of two rows of the same run should use instead of
 * `sqrt(seA² + seB²)` (docs/protocol.md §5.2). 0 for a row against itself.
 * @param rowA - A row label (or the row).
 * @returns undefined for results without paired SEs (written before they were computed, or a single
 *   row) or when a row lacks the metric.
 * @throws InvalidArgumentError when a row label or the metric is not in the results' table.
 */
export function pairedDifferenceSe(
  results: { readonly pairedSe?: PairedSeTable | undefined },
  rowA: string | { readonly label: string },
  rowB: string | { readonly label: string },
  metric: PairedMetric,
): number | undefined {
  const table = results.pairedSe;
  if (table === undefined) return undefined;
  const index = (row: string | { readonly label: string }, name: string) => {
    const label = typeof row === 'string' ? row : row.label;
    const i = table.rows.indexOf(label);
    if (i < 0)
      throw new InvalidArgumentError(
        `pairedDifferenceSe: ${name} must be one of ${table.rows.map((r) => JSON.stringify(r)).join(', ')}, got ${JSON.stringify(label)}`,
      );
    return i;
  };
  const i = index(rowA, 'rowA');
  const j = index(rowB, 'rowB');
  const key = pairedMetricKey(metric);
  const values = table.se[key];
  if (values === undefined)
    throw new InvalidArgumentError(`pairedDifferenceSe: metric must be one of ${Object.keys(table.se).join(', ')}, got ${JSON.stringify(key)}`);
  if (i === j) return 0;
  const value = values[pairIndex(Math.min(i, j), Math.max(i, j), table.rows.length)];
  return value === null || value === undefined ? undefined : value;
}

/**
 * The degrees of freedom of {@link pairedDifferenceSe}'s SE for the same arguments: finite for a
 * `runSeeds` aggregate (Welch–Satterthwaite over the seeds' differences and their paired bootstrap
 * SEs, docs/protocol.md §5.2), Infinity for one training seed's paired bootstrap, or for results
 * aggregated before degrees of freedom were recorded when `seeds` is absent.
 * @throws InvalidArgumentError as {@link pairedDifferenceSe}.
 */
export function pairedDifferenceDf(
  results: { readonly pairedSe?: PairedSeTable | undefined },
  rowA: string | { readonly label: string },
  rowB: string | { readonly label: string },
  metric: PairedMetric,
): number {
  const se = pairedDifferenceSe(results, rowA, rowB, metric);
  const table = results.pairedSe;
  if (se === undefined || table === undefined || table.df === undefined) return Infinity;
  const label = (row: string | { readonly label: string }) => (typeof row === 'string' ? row : row.label);
  const i = table.rows.indexOf(label(rowA));
  const j = table.rows.indexOf(label(rowB));
  const value = table.df[pairedMetricKey(metric)]?.[pairIndex(Math.min(i, j), Math.max(i, j), table.rows.length)];
  return value === null || value === undefined ? Infinity : value;
}
