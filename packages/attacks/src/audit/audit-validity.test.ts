import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCpu } from '../test-utils/setup';
import { randomTask, trainTinyMlp, type TinyMlp } from '../test-utils/tiny-mlp';
import { contentHashes } from '../doctor/content-hashes';
import { auditModel } from './audit-model';
import { auditScores } from './audit-scores';

beforeAll(useCpu);

const NUM_CLASSES = 4;
const members = randomTask(1200, 10, NUM_CLASSES, 31);
const nonMembers = randomTask(1200, 10, NUM_CLASSES, 32);
let untrained: TinyMlp;
beforeAll(() => {
  untrained = trainTinyMlp(members.x, members.y, NUM_CLASSES, { steps: 0, seed: 5 });
});
afterAll(() => {
  untrained.dispose();
  for (const t of [members.x, nonMembers.x]) t.dispose();
});

describe('auditModel validity', () => {
  it('a model that never saw the data on a clean split: no finding, and the headline says no leakage is shown', async () => {
    const report = await auditModel(untrained.predict, { members, nonMembers }, { resamples: 100 });
    const validity = report.validity!;
    expect(validity.findings).toEqual([]);
    expect(validity.baseline.features).toBe("the records' 10 values, and its label (one-hot)");
    expect(validity.baseline.auc.lower).toBeLessThan(0.5);
    expect(validity.baseline.auc.upper).toBeGreaterThan(0.5);
    expect(validity.baseline.comparisons[0]!.beatsBaseline).toBe(false);
    const markdown = report.toMarkdown();
    expect(markdown).toMatch(
      /- No leakage shown: the best attack \(\w+, AUC 0\.\d{3} \[0\.\d{3}, 0\.\d{3}\]\) does not beat a blind baseline that never queries the model/,
    );
    expect(markdown).not.toMatch(/Highest advantage/);
    expect(markdown).toMatch(/## Audit validity\n\n- Blind baseline: L2-regularised logistic regression .* AUC 0\.\d{3} \[/);
    expect(markdown).toMatch(/- No validity finding\./);
    expect(report.toHTML()).toMatch(/<h2>Audit validity<\/h2>/);
    expect(JSON.parse(JSON.stringify(report)).validity.findings).toEqual([]);
  });

  it('members drawn from another distribution: a distribution-shift finding, with the baseline AUC in it', async () => {
    const shifted = { x: tf.add(members.x, tf.tensor1d([0.6, 0, 0, 0, 0, 0, 0, 0, 0, 0])), y: members.y };
    try {
      const report = await auditModel(untrained.predict, { members: shifted, nonMembers }, { resamples: 100 });
      const findings = report.validity!.findings;
      expect(findings.map((f) => f.code)).toEqual(['distribution-shift']);
      expect(findings[0]!.numbers.auc).toBeGreaterThan(0.6);
      expect(findings[0]!.cause).toMatch(
        /^a blind baseline that never queries the model tells members from non-members with AUC 0\.\d{3} \(99 % lower bound 0\.\d{3} > 0\.5/,
      );
      expect(report.toMarkdown()).toMatch(/- Audit not valid: 1 finding \(distribution-shift\); the numbers below cannot be trusted/);
    } finally {
      shifted.x.dispose();
    }
  });

  it('a memorising model on 200 non-members: it beats the baseline, and TPR@0.1 % is below the FPR resolution', async () => {
    const train = randomTask(200, 20, 10, 11);
    const held = randomTask(200, 20, 10, 12);
    const overfit = trainTinyMlp(train.x, train.y, 10, { steps: 300, seed: 3 });
    try {
      const report = await auditModel(overfit.predict, { members: train, nonMembers: held }, { resamples: 100 });
      const validity = report.validity!;
      expect(validity.baseline.comparisons[0]).toMatchObject({ beatsBaseline: true });
      expect(validity.findings.map((f) => f.code)).toEqual(['tpr-below-resolution']);
      expect(validity.findings[0]!.cause).toMatch(
        /a TPR at 0\.1 % FPR is stated \(the report's TPR@0\.1 % column\) with 200 non-members, whose smallest non-zero FPR is 0\.5 %/,
      );
      const markdown = report.toMarkdown();
      expect(markdown).toMatch(/- Highest advantage: /);
      expect(markdown).toMatch(/beats it by \+0\.\d{3} \[\+0\.\d{3}, \+0\.\d{3}\]\./);
    } finally {
      overfit.dispose();
      for (const t of [train.x, held.x]) t.dispose();
    }
  });

  it('a shadow set holding copies of members (by content) and a threshold chosen on the non-members (by index)', async () => {
    const copies = tf.slice(members.x, [0, 0], [30, 10]);
    const shadowRows = tf.concat([copies, tf.randomNormal([70, 10], 0, 1, 'float32', 77)]);
    try {
      const report = await auditModel(
        untrained.predict,
        {
          members,
          nonMembers,
          provenance: {
            nonMembers: { ids: Array.from({ length: 1200 }, (_, i) => 5000 + i) },
            shadows: [{ name: 'my-shadow', members: { hashes: contentHashes(shadowRows.dataSync() as Float32Array, 10) } }],
            selections: [{ what: 'the decision threshold', records: { ids: [5000, 5001, 9999] } }],
          },
        },
        { resamples: 100 },
      );
      expect(report.validity!.findings).toMatchObject([
        { code: 'shadow-overlap', numbers: { members: 30, nonMembers: 0, byContent: 30 } },
        { code: 'selected-on-evaluation', numbers: { records: 2, nonMembers: 2 } },
      ]);
    } finally {
      for (const t of [copies, shadowRows]) t.dispose();
    }
  });
});

describe('auditScores validity', () => {
  it('uses the labels alone without records, and finds members drawn from other classes', () => {
    const memberLabels = Array.from({ length: 300 }, (_, i) => i % 2);
    const nonMemberLabels = Array.from({ length: 300 }, (_, i) => 2 + (i % 2));
    const scores = (n: number, seed: number) => Array.from({ length: n }, (_, i) => Math.sin(seed * 1000 + i));
    const report = auditScores(
      { attacks: [{ name: 'loss', memberScores: scores(300, 1), nonMemberScores: scores(300, 2) }], memberLabels, nonMemberLabels },
      { resamples: 50 },
    );
    expect(report.validity!.baseline.features).toBe('the labels alone');
    expect(report.validity!.findings.map((f) => f.code)).toEqual(['tpr-below-resolution', 'distribution-shift']);
  });
});
