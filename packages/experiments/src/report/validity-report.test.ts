import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../test-utils/run-mia';
import type { ExperimentResults, RunDoctor } from '../run/results';
import { markdownReport } from './markdown-report';
import { htmlReport } from './html-report';
import { whatItMeans } from './what-it-means';

// A committed run with an undefended row and defenses (1000 non-members), without a doctor (written before it).
const committed = JSON.parse(readFileSync(join(repositoryRoot, 'examples/ccl/results/ccl-fig2-cpu/runs/reference/results.json'), 'utf8')) as ExperimentResults;
const baseLabel = committed.rows.find((r) => r.defense === 'none')!.label;

const doctor = (beats: boolean, findings: RunDoctor['findings'] = []): RunDoctor => ({
  baseline: {
    method: 'L2-regularised logistic regression',
    features: "the records' 600 values hashed into 128 signed buckets, and its label (one-hot)",
    auc: { estimate: 0.502, lower: 0.47, upper: 0.534, confidence: 0.95, se: 0.016 },
    folds: 2,
    comparisons: [
      {
        scope: baseLabel,
        attack: 'loss',
        auc: { estimate: beats ? 0.71 : 0.515, lower: beats ? 0.69 : 0.49, upper: beats ? 0.73 : 0.54 },
        difference: { estimate: beats ? 0.208 : 0.013, lower: beats ? 0.18 : -0.02, upper: beats ? 0.24 : 0.046 },
        beatsBaseline: beats,
      },
    ],
  },
  findings,
  notes: [],
});

describe('the report of a run with a doctor', () => {
  it('renders exactly as before for results without one', async () => {
    expect(markdownReport(committed)).not.toMatch(/Audit validity|blind baseline/i);
    expect(await htmlReport(committed)).not.toMatch(/audit-validity/);
  });

  it('says in "What it means" that the run shows no leakage when the best attack does not beat the blind baseline', () => {
    const meaning = whatItMeans({ ...committed, doctor: doctor(false) }).join(' ');
    expect(meaning).not.toMatch(/leaks membership \(highest attack advantage/);
    expect(meaning).toMatch(
      /'s best attack \(loss, AUC 0\.515 \[0\.490, 0\.540\]\) does not beat a blind baseline that never queries the model \(AUC 0\.502 \[0\.470, 0\.534\]\)/,
    );
    expect(meaning).toMatch(/This run shows no membership leakage of it/);
    expect(whatItMeans({ ...committed, doctor: doctor(true) }).join(' ')).toMatch(/and leaks membership \(highest attack advantage/);
  });

  it('has an "Audit validity" section with the baseline, each comparison and every finding, and leads with the findings', async () => {
    const finding = {
      code: 'shadow-overlap' as const,
      cause: "shadow model shadow trained on 3 of the target's evaluation records",
      action: 'train it on the shadow roles',
      numbers: {},
    };
    const results = { ...committed, doctor: doctor(true, [finding]) };
    const markdown = markdownReport(results);
    // report.md escapes Markdown: "[" is written "\[".
    expect(markdown).toMatch(
      /## Audit validity\n\n- Blind baseline: L2-regularised logistic regression, reading the records' 600 values .* AUC 0\.502 \\\[0\.470, 0\.534\\\] \(95 % DeLong interval\)\.\n- The blind baseline .* beats it by \+0\.208 \\\[\+0\.180, \+0\.240\\\]\.\n- shadow-overlap \(a shadow model trained on the target's evaluation records\): shadow model shadow trained on 3/,
    );
    expect(whatItMeans(results)[0]).toBe(
      'This audit is not valid: 1 finding (shadow-overlap, see "Audit validity"), so the numbers below cannot be trusted until they are fixed.',
    );
    expect(await htmlReport(results)).toMatch(/<section data-section="audit-validity"><h2>Audit validity<\/h2><ul><li>Blind baseline: /);
  });
});
