import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { adam, predictLogits, seededRandom, train } from '@mia/core';
import { dkwAdvantageInterval, summarizeScores } from '@mia/metrics';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMia } from '../test-utils/run-mia';
import { gateCommand, gateScoresFile, parseGateOptions } from './gate';
import { gateRunDir, normalQuantile } from './gate-run-dir';

const dir = mkdtempSync(join(tmpdir(), 'mia-gate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const mia = (...rest: string[]) => runMia(rest, { timeout: 120_000 });

// An overfit model's logits: a tiny MLP memorises 200 examples of a task with so much noise that
// nothing generalises (members' loss → 0, non-members' stays high). And a model that leaks nothing:
// ready-made scores drawn from one distribution for 1500 members and 1500 non-members.
const overfitFile = join(dir, 'overfit.json');
const fineFile = join(dir, 'fine.json');
beforeAll(async () => {
  await tf.setBackend('cpu');
  const task = { numFeatures: 20, numClasses: 4, noise: 3, taskSeed: 5 };
  const [members, nonMembers] = [syntheticClassification({ size: 200, seed: 1, ...task }), syntheticClassification({ size: 200, seed: 2, ...task })];
  const model = tinyMlp({ inputDim: 20, hidden: [64], numClasses: 4, activation: 'relu', seed: 3 });
  const optimizer = adam({ lr: 0.01 });
  await train(model, members, { epochs: 60, batchSize: 50, optimizer, seed: 4, progressBar: false });
  const rows = { labels: [] as number[], isMember: [] as number[], logits: [] as number[][] };
  for (const [data, member] of [
    [members, 1],
    [nonMembers, 0],
  ] as const) {
    const logits = predictLogits(model, data);
    rows.logits.push(...(logits.arraySync() as number[][]));
    logits.dispose();
    rows.labels.push(...data.y);
    rows.isMember.push(...new Array<number>(data.size).fill(member));
  }
  writeFileSync(overfitFile, JSON.stringify(rows));
  [members, nonMembers, model, optimizer].forEach((t) => t.dispose());
  const random = seededRandom(9);
  const n = 1500;
  writeFileSync(
    fineFile,
    JSON.stringify({
      labels: new Array(2 * n).fill(0),
      isMember: Array.from({ length: 2 * n }, (_, i) => (i < n ? 1 : 0)),
      scores: Array.from({ length: 2 * n }, () => random.next()),
    }),
  );
});

describe('mia gate on a scores file', () => {
  it('fails an overfit model and passes one that leaks nothing (upper confidence bounds against the ceilings)', async () => {
    const ceilings = parseGateOptions({ maxAdvantage: '0.1', maxTprAtFpr: ['0.01:0.2'] });
    const overfit = await gateScoresFile(overfitFile, ceilings);
    expect(overfit.exitCode).toBe(1);
    expect(overfit.line).toMatch(
      /^FAIL overfit.json leaks more than allowed at 95 % confidence: advantage upper bound [\d.]+ % > ceiling 10 % \(\w+, estimate [\d.]+ %, bootstrap\)/,
    );
    const fine = await gateScoresFile(fineFile, ceilings);
    expect(fine.exitCode).toBe(0);
    expect((await gateScoresFile(fineFile, ceilings)).line).toBe(fine.line); // seeded bootstrap: the same bounds every time
    expect(fine.line).toMatch(
      /^PASS fine.json leaks at most the ceilings at 95 % confidence: advantage upper bound [\d.]+ % ≤ ceiling 10 % \(scores, .*\); TPR@1 % FPR upper bound/,
    );
  });

  it('the command: exit 1 with one line for the overfit model, 0 for the other, 2 for bad flags', async () => {
    const fail = await mia('gate', overfitFile, '--max-advantage', '0.1');
    expect(fail.status).toBe(1);
    expect(fail.stdout).toMatch(/^mia gate: FAIL overfit.json leaks more than allowed at 95 % confidence: advantage upper bound .*\n$/);
    const pass = await mia('gate', fineFile, '--max-advantage', '0.1', '--max-tpr-at-fpr', '0.001:0.05', '--confidence', '0.9');
    expect(pass.status).toBe(0);
    expect(pass.stdout).toMatch(/^mia gate: PASS fine.json leaks at most the ceilings at 90 % confidence: .*\n$/);
    const bad = await mia('gate', fineFile, '--max-advantage', '10');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('mia gate: --max-advantage must be a fraction in [0, 1] (0.1 = 10 %), got "10"\n');
  });

  it('cannot decide (2) on bad flags or input, naming the flag or file, the expected and the actual value', async () => {
    expect(() => parseGateOptions({})).toThrow('gate: give a ceiling: --max-advantage <fraction> and/or --max-tpr-at-fpr <fpr>:<max tpr>');
    expect(() => parseGateOptions({ maxTprAtFpr: ['0.001'] })).toThrow('gate: --max-tpr-at-fpr must be <fpr>:<max tpr>, e.g. 0.001:0.05, got "0.001"');
    expect(() => parseGateOptions({ maxTprAtFpr: ['0.001:abc'] })).toThrow(
      /--max-tpr-at-fpr <max tpr> must be a fraction in \[0, 1\] \(0.1 = 10 %\), got "abc"/,
    );
    expect(() => parseGateOptions({ maxAdvantage: '0.1', confidence: '1' })).toThrow(/--confidence must be a fraction in \(0, 1\) .*got "1"/);
    writeFileSync(join(dir, 'corrupt.json'), '{"labels": [0, 1], "isMember": [1');
    const write = process.stderr.write.bind(process.stderr);
    const lines: string[] = [];
    process.stderr.write = ((chunk: string) => (lines.push(chunk), true)) as typeof process.stderr.write;
    try {
      expect(await gateCommand(join(dir, 'corrupt.json'), { maxAdvantage: '0.1' })).toBe(2);
      expect(await gateCommand(join(dir, 'missing.json'), { maxAdvantage: '0.1' })).toBe(2);
      expect(await gateCommand(dir, { maxAdvantage: '0.1' })).toBe(2);
    } finally {
      process.stderr.write = write;
    }
    expect(lines[0]).toMatch(/^mia gate: parseScoreJson\(.*corrupt.json\): not valid JSON/);
    expect(lines[1]).toMatch(/^mia gate: .*missing.json does not exist/);
    expect(lines[2]).toMatch(/^mia gate: .* is a directory without results.json/);
  });

  it('the bootstrap bound is the one of auditScores (the same seeded resamples, taken in slices)', async () => {
    const { auditScores, parseScoreJson, signalsFromScoreTable, signedStatistic } = await import('@mia/attacks');
    const table = parseScoreJson(readFileSync(overfitFile, 'utf8'));
    const signals = signalsFromScoreTable(table);
    const names = ['loss', 'modifiedEntropy', 'entropy', 'maxConfidence', 'correctness'] as const;
    const split = (s: Float64Array, member: number) => s.filter((_, i) => table.isMember[i] === member);
    const report = auditScores({
      attacks: names.map((name) => ({
        name,
        memberScores: split(signedStatistic(signals, name), 1),
        nonMemberScores: split(signedStatistic(signals, name), 0),
      })),
      memberLabels: split(Float64Array.from(table.labels!), 1),
      nonMemberLabels: split(Float64Array.from(table.labels!), 0),
    });
    const worst = report.attacks.reduce((w, a) => (a.advantage.upper > w.advantage.upper ? a : w));
    const line = (await gateScoresFile(overfitFile, parseGateOptions({ maxAdvantage: '0.01' }))).line;
    expect(line).toContain(`advantage upper bound ${+(100 * worst.advantage.upper).toFixed(2)} % > ceiling 1 % (${worst.name}, estimate`);
  });

  it('above 200 000 examples, the distribution-free DKW bound (a bootstrap would take a pass per resample)', async () => {
    // 200 002 rows: members' scores i/n, non-members' i/n − 0.1 (every score distinct); advantage 0.1 exactly at threshold 0.9.
    const n = 100_001;
    const lines = ['member,score'];
    for (let i = 0; i < n; i++) lines.push(`1,${i / n}`, `0,${i / n - 0.1}`);
    writeFileSync(join(dir, 'large.csv'), `${lines.join('\n')}\n`);
    const outcome = await gateScoresFile(join(dir, 'large.csv'), parseGateOptions({ maxAdvantage: '0.11' }));
    // 0.1000… + 2·sqrt(ln(4/0.05) / (2·100001)) = 0.1 + 2 · 0.0046808 = 0.10936: passes 11 %.
    const expected = dkwAdvantageInterval(
      summarizeScores(
        Float64Array.from(lines.slice(1), (l) => Number(l.split(',')[1])),
        Uint8Array.from(lines.slice(1), (l) => Number(l[0])),
      ).advantage,
      n,
      n,
    ).upper;
    expect(expected).toBeCloseTo(0.1 + 2 * Math.sqrt(Math.log(80) / (2 * n)), 4);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.line).toBe(
      `PASS large.csv leaks at most the ceilings at 95 % confidence: advantage upper bound ${+(100 * expected).toFixed(2)} % ≤ ceiling 11 % (scores, estimate 10 %, DKW bound, 200002 examples)`,
    );
  });
});

describe('mia gate on a run directory', () => {
  const runDir = join(dir, 'run');
  const attack = (name: string, advantage: number, tpr: number) => ({
    attack: name,
    accuracy: (1 + advantage) / 2,
    advantage,
    auc: 0.6,
    tprAtFpr: [
      { fpr: 0.01, tpr, achievedFpr: 0.01 },
      { fpr: 0.001, tpr: 0, achievedFpr: 0 },
    ],
    roc: { fpr: [0, 1], tpr: [0, 1] },
  });
  beforeAll(() => {
    mkdirSync(runDir, { recursive: true });
    const rows = [
      { label: 'CE', attacks: [attack('loss', 0.2, 0.05), attack('entropy', 0.1, 0.02)], se: { attacks: { loss: { advantage: 0.01, auc: 0.01 } } } },
    ];
    writeFileSync(
      join(runDir, 'results.json'),
      JSON.stringify({ format: 'mia-results-1', partition: { preset: 'CCL4', sizes: { target_train: 1000, target_test: 1000 } }, rows }),
    );
  });

  it('advantage + z·SE (z = 1.95996 at 95 %) and the Clopper–Pearson bound of 0/1000 = 1 − 0.025^(1/1000) (hand calculation)', async () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.9599639845400536, 8);
    expect(normalQuantile(0.01)).toBeCloseTo(-2.3263478740408408, 8);
    // loss: 0.2 + 1.95996 · 0.01 = 0.2196 (stored bootstrap SE).
    const fail = await gateRunDir(runDir, parseGateOptions({ maxAdvantage: '0.21' }));
    expect(fail.exitCode).toBe(1);
    expect(fail.line).toBe(
      `FAIL ${runDir} leaks more than allowed at 95 % confidence: advantage upper bound 21.96 % > ceiling 21 % (CE/loss, estimate 20 %, bootstrap SE) — gated rows: all, "CE"`,
    );
    const pass = await gateRunDir(runDir, parseGateOptions({ maxAdvantage: '0.22', maxTprAtFpr: ['0.001:0.004'] }));
    expect(pass.exitCode).toBe(0);
    expect(pass.line).toContain('TPR@0.1 % FPR upper bound 0.37 % ≤ ceiling 0.4 % (CE/loss, estimate 0 %, Clopper–Pearson)');
    // entropy has no stored SE: the binomial one, sqrt(b(1−b)(1/1000 + 1/1000)) with b = 0.55, so 0.1 + 1.96 · 0.02225 = 14.36 %.
    const entropyOnly = JSON.parse(
      JSON.stringify({
        format: 'mia-results-1',
        partition: { sizes: { target_train: 1000, target_test: 1000 } },
        rows: [{ label: 'CE', attacks: [attack('entropy', 0.1, 0.02)] }],
      }),
    );
    mkdirSync(join(dir, 'run2'), { recursive: true });
    writeFileSync(join(dir, 'run2', 'results.json'), JSON.stringify(entropyOnly));
    expect((await gateRunDir(join(dir, 'run2'), parseGateOptions({ maxAdvantage: '0.1' }))).line).toContain(
      'advantage upper bound 14.36 % > ceiling 10 % (CE/entropy, estimate 10 %, binomial SE)',
    );
    await expect(gateRunDir(runDir, parseGateOptions({ maxTprAtFpr: ['0.005:0.1'] }))).rejects.toThrow(
      /stores TPR at FPR 0.01, 0.001 only, got --max-tpr-at-fpr for FPR 0.005/,
    );
  });
  it('gates every row but the undefended baseline by default; --row picks rows (repeatable, comma lists, labels with commas)', async () => {
    // The baseline leaks 50 %; the defended rows 5 % and 8 % (binomial SE at 1000 + 1000: +4.4 and +4.5 points).
    const rows = [
      { defense: 'none', label: 'undefended', attacks: [attack('loss', 0.5, 0.3)] },
      { defense: 'relaxloss', label: 'RelaxLoss', attacks: [attack('loss', 0.05, 0.02)] },
      { defense: 'ccl', label: 'CCQL, alpha=0.5', attacks: [attack('loss', 0.08, 0.02)] },
    ];
    const rowsDir = join(dir, 'rows');
    mkdirSync(rowsDir, { recursive: true });
    writeFileSync(
      join(rowsDir, 'results.json'),
      JSON.stringify({ format: 'mia-results-1', partition: { sizes: { target_train: 1000, target_test: 1000 } }, rows }),
    );
    const ceilings = parseGateOptions({ maxAdvantage: '0.2' });
    const byDefault = await gateRunDir(rowsDir, ceilings);
    expect(byDefault.exitCode).toBe(0);
    expect(byDefault.line).toMatch(/\(CCQL, alpha=0\.5\/loss, estimate 8 %, binomial SE\)/);
    expect(byDefault.line).toMatch(
      /— gated rows: "RelaxLoss", "CCQL, alpha=0\.5"; not the undefended baseline "undefended" \(--row <label> chooses the rows\)$/,
    );
    const baseline = await gateRunDir(rowsDir, ceilings, ['undefended']);
    expect(baseline.exitCode).toBe(1);
    expect(baseline.line).toMatch(/\(undefended\/loss, estimate 50 %, binomial SE\) — gated rows \(--row\): "undefended"$/);
    expect((await gateRunDir(rowsDir, ceilings, ['RelaxLoss,undefended'])).line).toMatch(/gated rows \(--row\): "undefended", "RelaxLoss"$/);
    expect((await gateRunDir(rowsDir, ceilings, ['CCQL, alpha=0.5', 'RelaxLoss'])).line).toMatch(/gated rows \(--row\): "RelaxLoss", "CCQL, alpha=0\.5"$/);
    await expect(gateRunDir(rowsDir, ceilings, ['RelaxLoss, CCQL'])).rejects.toThrow(
      `gate: --row "RelaxLoss, CCQL": "CCQL" is not a row of ${join(rowsDir, 'results.json')}; its rows are "undefended", "RelaxLoss", "CCQL, alpha=0.5"`,
    );
    await expect(gateRunDir(rowsDir, ceilings, ['relaxloss'])).rejects.toThrow(
      `gate: --row "relaxloss" is not a row of ${join(rowsDir, 'results.json')}; its rows are "undefended", "RelaxLoss", "CCQL, alpha=0.5"`,
    );
    // The command: exit 2 with the reason, and --row on a scores file is refused.
    const unknown = await mia('gate', rowsDir, '--max-advantage', '0.2', '--row', 'nope');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^mia gate: --row "nope" is not a row of .*; its rows are "undefended", "RelaxLoss", "CCQL, alpha=0.5"\n$/);
    const onFile = await mia('gate', fineFile, '--max-advantage', '0.2', '--row', 'RelaxLoss');
    expect(onFile.status).toBe(2);
    expect(onFile.stderr).toMatch(/--row applies to a run directory \(results.json\), got the scores file .*fine.json/);
    const passes = await mia('gate', rowsDir, '--max-advantage', '0.2', '--row', 'RelaxLoss', '--row', 'CCQL, alpha=0.5');
    expect(passes.status).toBe(0);
  });
});
