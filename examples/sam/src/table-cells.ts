import type { MeasuredCell, MissingCell, TableCell } from '@mia/experiments/reproduce';

/** Mean of a non-empty list. */
export const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

/** Sample standard deviation (n − 1); 0 for a single value. */
export function sampleStd(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  return Math.sqrt(values.reduce((a, v) => a + (v - m) ** 2, 0) / (values.length - 1));
}

/** A cell from repeated measurements (mean ± std) or a single value, beside the paper's value. */
export function cellOf(values: number | readonly number[], paper?: number | readonly [number, number]): MeasuredCell {
  const ours = typeof values === 'number' ? { ours: values } : { ours: mean(values), std: sampleStd(values) };
  return { ...ours, ...paperPart(paper) };
}

/** A "not run" cell with its reason, keeping the paper's value. */
export function notRunCell(reason: string, paper?: number | readonly [number, number]): MissingCell {
  return { notRun: reason, ...paperPart(paper) };
}

function paperPart(paper: number | readonly [number, number] | undefined): Pick<TableCell, 'paper' | 'paperStd'> {
  if (paper === undefined) return {};
  return typeof paper === 'number' ? { paper } : { paper: paper[0], paperStd: paper[1] };
}

/** Formats a fraction as a percentage with two decimals (claims evidence). */
export const pct = (v: number): string => `${(100 * v).toFixed(2)}%`;
