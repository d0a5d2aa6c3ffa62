import { InvalidArgumentError } from '@mia/core';
import { answerLabel, ENDPOINT_GRANULARITIES, type EndpointAnswer, type EndpointGranularity } from './endpoint-answer';

/** The answers as an endpoint of one granularity would give them: returned by it, or derived from finer answers. */
export interface GranularityView {
  readonly granularity: EndpointGranularity;
  /** True when computed from the endpoint's finer answers (what it would leak if it answered at this granularity). */
  readonly derived: boolean;
  readonly answers: readonly EndpointAnswer[];
}

/** The k most likely classes of a probability row, most likely first (ties: the lower class first). */
function topK(scores: readonly number[], k: number): EndpointAnswer {
  const order = scores.map((_, j) => j).sort((a, b) => scores[b]! - scores[a]! || a - b);
  const labels = order.slice(0, Math.min(k, scores.length));
  return { kind: 'top-k', labels, scores: labels.map((j) => scores[j]!) };
}

/**
 * Every granularity the endpoint's answers reveal, finest first: its own, and each coarser one
 * derived locally (probabilities → rounded to `decimals` → top `topK` → label; top-k → label), at no
 * query cost.
 */
export function granularityViews(
  answers: readonly EndpointAnswer[],
  returned: EndpointGranularity,
  settings: { readonly topK: number; readonly decimals: number },
): GranularityView[] {
  const scale = 10 ** settings.decimals;
  const derive: Record<EndpointGranularity, (a: EndpointAnswer) => EndpointAnswer> = {
    scores: (a) => a,
    rounded: (a) => (a.kind === 'scores' ? { kind: 'scores', scores: a.scores.map((v) => Math.round(v * scale) / scale) } : a),
    'top-k': (a) => (a.kind === 'scores' ? topK(a.scores, settings.topK) : a),
    label: (a) => ({ kind: 'label', label: answerLabel(a) }),
  };
  return ENDPOINT_GRANULARITIES.slice(ENDPOINT_GRANULARITIES.indexOf(returned)).map((granularity) => ({
    granularity,
    derived: granularity !== returned,
    answers: granularity === returned ? answers : answers.map(derive[granularity]),
  }));
}

const safeLog = (v: number) => Math.log(Math.max(v, 1e-30));

/**
 * The metric attacks a view allows, each a score per record (higher = more likely member):
 * probabilities give `confidence` (p_y), `maxConfidence`, `entropy` (negated), `modifiedEntropy`
 * (negated, Song & Mittal) and `correctness`; the top k give `confidence` (p_y when y is among
 * them, else 0), `maxConfidence` and `correctness`; a label gives `correctness`.
 * @throws InvalidArgumentError when a label is not a class of the probability rows.
 */
export function viewStatistics(view: GranularityView, labels: ArrayLike<number>): Array<{ attack: string; scores: Float64Array }> {
  const answers = view.answers;
  const each = (f: (a: EndpointAnswer, y: number) => number) => Float64Array.from(answers, (a, i) => f(a, labels[i]!));
  const correctness = { attack: 'correctness', scores: each((a, y) => (answerLabel(a) === y ? 1 : 0)) };
  const kind = answers[0]?.kind;
  if (kind === 'label') return [correctness];
  if (kind === 'top-k') {
    const top = (a: EndpointAnswer) => a as Extract<EndpointAnswer, { kind: 'top-k' }>;
    return [
      { attack: 'confidence', scores: each((a, y) => top(a).scores[top(a).labels.indexOf(y)] ?? 0) },
      { attack: 'maxConfidence', scores: each((a) => top(a).scores[0]!) },
      correctness,
    ];
  }
  const rows = answers.map((a) => (a as Extract<EndpointAnswer, { kind: 'scores' }>).scores);
  rows.forEach((p, i) => {
    if (!(labels[i]! < p.length))
      throw new InvalidArgumentError(`auditEndpoint: y[${i}] must be a class of the endpoint's ${p.length} probabilities, got ${labels[i]}`);
  });
  const at = (f: (p: readonly number[], y: number) => number) => Float64Array.from(rows, (p, i) => f(p, labels[i]!));
  return [
    { attack: 'confidence', scores: at((p, y) => p[y]!) },
    { attack: 'maxConfidence', scores: at((p) => Math.max(...p)) },
    { attack: 'entropy', scores: at((p) => p.reduce((h, v) => h + v * safeLog(v), 0)) },
    {
      attack: 'modifiedEntropy',
      scores: at((p, y) => (1 - p[y]!) * safeLog(p[y]!) + p.reduce((m, v, j) => (j === y ? m : m + v * safeLog(1 - v)), 0)),
    },
    correctness,
  ];
}
