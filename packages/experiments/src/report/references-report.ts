import type { ExperimentResults } from '../run/results';
import { attacksRocFile } from './attack-roc';
import { escapeMarkdownInline, escapeMarkdownParagraph } from './escape';

const seconds = (s: number) => (s >= 100 ? s.toFixed(0) : s.toFixed(1));

/**
 * One paragraph on a run's reference models: how many, how drawn (or where imported from), the
 * examples they are scored on, their training time per model and in total (as recorded when each
 * was trained: a model read from the cache keeps its time), and whether the run trained no shadow
 * model. Empty without reference models.
 */
export function referencesLines(results: ExperimentResults): string[] {
  const r = results.references;
  if (r === undefined) return [];
  const total = r.seconds.reduce((a, b) => a + b, 0);
  const origin =
    r.imported !== undefined
      ? `imported from ${r.imported}`
      : `trained without the defense on random halves of the audit examples (scheme ${r.scheme}; ${r.trainedInThisRun} trained in this run, ${r.count - r.trainedInThisRun} from the cache)`;
  const time =
    r.imported !== undefined
      ? ''
      : ` Training time: ${seconds(total / Math.max(1, r.count))} s per model on average (${seconds(Math.min(...r.seconds))}–${seconds(Math.max(...r.seconds))} s), ${seconds(total)} s in total, on backend ${results.backend}.`;
  // Rows with attacks but no shadow model: none of the run's attacks calibrates on one.
  const noShadow = results.rows.length > 0 && results.rows.every((row) => row.attacks.length > 0 && row.cache.shadow === 'none');
  return [
    `${r.count} reference models ${origin}, scored on the ${r.auditExamples} audit examples (the target's members and non-members) and ${r.populationExamples} population examples that no model of the audit trains on (RMIA's z).${time}${
      noShadow ? ' No shadow model was trained: no attack of this run uses one.' : ''
    }`,
  ];
}

/** `report.md`'s section on the reference models with the log-log ROC figure of each row (SVG files beside it); empty without reference models. */
export function referencesMarkdown(results: ExperimentResults): string[] {
  const lines = referencesLines(results);
  if (lines.length === 0) return [];
  return [
    '## Reference models',
    '',
    ...lines.map(escapeMarkdownParagraph),
    '',
    ...results.rows.flatMap((row, i) => [`![ROC of the attacks, ${escapeMarkdownInline(row.label)} (log-log)](${attacksRocFile(i)})`, '']),
  ];
}
