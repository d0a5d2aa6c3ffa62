import { describeValue } from '@mia/core';
import { EndpointError } from './endpoint-error';

/**
 * What a prediction endpoint returns per record, from the most to the least informative:
 * - `'scores'`: the class probabilities, one per class (`[0.02, 0.91, 0.07]`);
 * - `'rounded'`: the same, rounded to `decimals` digits (`[0.02, 0.91, 0.07]` at 2);
 * - `'top-k'`: the k most likely classes with their scores, most likely first (`{"labels": [1, 2], "scores": [0.91, 0.07]}`);
 * - `'label'`: the predicted class only (`1`).
 */
export type EndpointGranularity = 'scores' | 'rounded' | 'top-k' | 'label';

/** The granularities, finest first. */
export const ENDPOINT_GRANULARITIES: readonly EndpointGranularity[] = ['scores', 'rounded', 'top-k', 'label'];

/** What the endpoint is asked to return (sent with every request as `output`). */
export interface EndpointOutput {
  readonly granularity: EndpointGranularity;
  /** k of `'top-k'`. */
  readonly topK?: number;
  /** Digits of `'rounded'`. */
  readonly decimals?: number;
}

/** One answer, validated: probabilities (`scores`, `rounded`), the top k, or a label. */
export type EndpointAnswer =
  | { readonly kind: 'scores'; readonly scores: readonly number[] }
  | { readonly kind: 'top-k'; readonly labels: readonly number[]; readonly scores: readonly number[] }
  | { readonly kind: 'label'; readonly label: number };

const isLabel = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
const isScore = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;

/**
 * Validates one raw answer (parsed JSON) against the granularity: an array of probabilities in
 * [0, 1] (`scores`; `rounded` with at most `decimals` digits), `{"labels", "scores"}` of k entries
 * each (`top-k`), or a non-negative integer (`label`).
 * @param where - Names the answer in errors, e.g. `the endpoint's answer for record "r7"`.
 * @throws EndpointError (not retryable) naming `where`, the expected and the actual value.
 */
export function endpointAnswer(raw: unknown, output: EndpointOutput, where: string): EndpointAnswer {
  const bad = (expected: string): never => {
    throw new EndpointError(`${where} must be ${expected} (granularity ${output.granularity}), got ${describeValue(raw)}`);
  };
  switch (output.granularity) {
    case 'label':
      return isLabel(raw) ? { kind: 'label', label: raw } : bad('a class label (a non-negative integer)');
    case 'top-k': {
      const k = output.topK ?? 1;
      const { labels, scores } = (typeof raw === 'object' && raw !== null ? raw : {}) as { labels?: unknown; scores?: unknown };
      const ok = Array.isArray(labels) && Array.isArray(scores) && labels.length === k && scores.length === k;
      if (!ok || !labels.every(isLabel) || !scores.every(isScore)) return bad(`{"labels": [${k} class labels], "scores": [${k} scores in [0, 1]]}`);
      return { kind: 'top-k', labels: labels as number[], scores: scores as number[] };
    }
    default: {
      if (!Array.isArray(raw) || raw.length < 2 || !raw.every(isScore)) return bad('an array of class probabilities in [0, 1], one per class (at least 2)');
      const scale = 10 ** (output.decimals ?? 0);
      if (output.granularity === 'rounded' && !raw.every((v) => Math.abs(v * scale - Math.round(v * scale)) < 1e-6))
        return bad(`probabilities rounded to ${output.decimals} digits`);
      return { kind: 'scores', scores: raw as number[] };
    }
  }
}

/** The predicted class of an answer: its label, the first of the top k, or the first largest score. */
export function answerLabel(answer: EndpointAnswer): number {
  if (answer.kind === 'label') return answer.label;
  if (answer.kind === 'top-k') return answer.labels[0]!;
  let best = 0;
  answer.scores.forEach((v, j) => {
    if (v > answer.scores[best]!) best = j;
  });
  return best;
}
