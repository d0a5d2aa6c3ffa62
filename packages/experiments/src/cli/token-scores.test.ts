import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTokenLogprobsJsonl } from '@mia/attacks';
import { afterAll, describe, expect, it } from 'vitest';
import { miaNodeArgs, repositoryRoot, runMia, type MiaRun } from '../test-utils/run-mia';
import { looksLikeTokenLogprobs } from './score-file-format';
import { tokenAttackParams, tokenAttackScores } from './token-scores';

const dir = mkdtempSync(join(tmpdir(), 'mia-token-scores-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Four texts of 4 scored tokens: A and B members, C and D non-members. D has its text instead of
// zlibBytes (Python: len(zlib.compress(b"abc")) = 11).
const RECORDS = [
  { id: 'A', member: 1, logprobs: [-0.1, -0.1, -0.1, -2.0], mu: [-1, -1, -1, -1], sigma: [1, 1, 1, 1], refLogprobs: [-1.5, -1.5], zlibBytes: 20 },
  { id: 'B', member: 1, logprobs: [-0.5, -0.5, -0.5, -0.5], mu: [-0.5, -0.5, -0.5, -0.5], sigma: [0.5, 0.5, 0.5, 0.5], refLogprobs: [-0.4], zlibBytes: 10 },
  { id: 'C', member: 0, logprobs: [-1.0, -1.0, -0.2, -0.2], mu: [-0.2, -0.2, -0.2, -0.2], sigma: [1, 1, 1, 1], refLogprobs: [-1.0, -1.2], zlibBytes: 15 },
  { id: 'D', member: 0, logprobs: [-3.0, -0.1, -0.1, -0.1], mu: [-0.1, -0.1, -0.1, -0.1], sigma: [2, 2, 2, 2], refLogprobs: [-2.0], text: 'abc' },
];
// A blank line between records is skipped.
const JSONL = `${RECORDS.slice(0, 2)
  .map((r) => JSON.stringify(r))
  .join('\n')}\n\n${RECORDS.slice(2)
  .map((r) => JSON.stringify(r))
  .join('\n')}\n`;

/** Runs `mia` with `input` on its standard input. */
function miaWithInput(args: readonly string[], input: string): Promise<MiaRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, miaNodeArgs(...args), { cwd: repositoryRoot, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
    child.stdin.end(input);
  });
}

type Report = { kind: string; members: { members: number; nonMembers: number }; rows: Array<{ attack: string; auc: number }>; notes?: string[] };

describe('language-model attacks on per-token log-probabilities', () => {
  it('scores each record as computed by hand', async () => {
    const records = parseTokenLogprobsJsonl(JSONL, 'records.jsonl');
    const { attacks, notes } = await tokenAttackScores(records, tokenAttackParams('{"min-k": {"k": 0.5}}'));
    expect(notes).toEqual([]);
    const scores = Object.fromEntries(attacks.map((a) => [a.name, Array.from(a.scores)]));
    expect(Object.keys(scores)).toEqual(['llm-loss', 'zlib', 'min-k', 'min-k++', 'reference-ratio']);
    const close = (name: string, expected: number[]) => expected.forEach((v, i) => expect(scores[name]![i]).toBeCloseTo(v, 12));
    // −NLL = the mean log-probability: −2.3/4, −2/4, −2.4/4, −3.3/4.
    close('llm-loss', [-0.575, -0.5, -0.6, -0.825]);
    // −NLL / zlibBytes, D's 11 bytes compressed from its text.
    close('zlib', [-0.575 / 20, -0.5 / 10, -0.6 / 15, -0.825 / 11]);
    // k = 0.5 of T = 4: the mean of the 2 lowest log-probabilities.
    close('min-k', [-1.05, -0.5, -1.0, -1.55]);
    // Default k = 0.2: ⌊0.8⌋ = 0 tokens, kept at 1: the lowest (lp − μ)/σ: (−2 + 1)/1, 0, (−1 + 0.2)/1, (−3 + 0.1)/2.
    close('min-k++', [-1.0, 0, -0.8, -1.45]);
    // NLL_ref − NLL: 1.5 − 0.575, 0.4 − 0.5, 1.1 − 0.6, 2 − 0.825.
    close('reference-ratio', [0.925, -0.1, 0.5, 1.175]);
  });

  it('leaves out an attack whose field some record lacks, naming the first such record', async () => {
    const records = parseTokenLogprobsJsonl(
      RECORDS.map(({ mu, sigma, refLogprobs, ...r }) => JSON.stringify(r.id === 'C' ? r : { ...r, mu, sigma })).join('\n'),
      'partial.jsonl',
    );
    const { attacks, notes } = await tokenAttackScores(records, tokenAttackParams(undefined));
    expect(attacks.map((a) => a.name)).toEqual(['llm-loss', 'zlib', 'min-k']);
    expect(notes).toEqual(['min-k++ not run: 1 of 4 records have no "mu" and "sigma" (first: id "C")', 'reference-ratio not run: no record has "refLogprobs"']);
  });

  it('validates --params whole, naming every unknown attack and bad param', () => {
    expect(() => tokenAttackParams('{"min-k": {"k": 2}, "mink": {}, "reference-ratio": {"form": "quotient"}}')).toThrow(
      /--params\.mink: expected one of the attacks llm-loss, zlib, min-k, min-k\+\+, reference-ratio, got an unknown attack\n {2}--params\.min-k\.k: .*got 2\n {2}--params\.reference-ratio\.form: .*got "quotient"/,
    );
    expect(() => tokenAttackParams('{"min-k": ')).toThrow(/--params must be a JSON object such as/);
  });

  it('sniffs a JSONL of token records, also when its first line is longer than the head', () => {
    const bytes = (t: string) => new TextEncoder().encode(t);
    expect(looksLikeTokenLogprobs(bytes(JSONL))).toBe(true);
    expect(looksLikeTokenLogprobs(bytes(`{"id": 1, "tokens": ["a"], "logprobs": [-0.${'1'.repeat(100)}`))).toBe(true);
    expect(looksLikeTokenLogprobs(bytes('{"labels": [0, 1], "isMember": [1, 0], "losses": [0.1, 0.2]}'))).toBe(false);
    expect(looksLikeTokenLogprobs(bytes('{\n  "labels": [0]\n}'))).toBe(false);
    expect(looksLikeTokenLogprobs(bytes('member,loss\n1,0.1\n'))).toBe(false);
  });
});

describe('mia attack --scores on per-token log-probabilities', () => {
  it('detects the JSONL by its content and reports AUC per attack (hand-counted pairs)', async () => {
    writeFileSync(join(dir, 'records.txt'), JSONL);
    const out = await runMia(['attack', '--scores', join(dir, 'records.txt'), '--json', '--params', '{"min-k": {"k": 1}}'], { timeout: 120_000 });
    expect(out.status, out.stderr).toBe(0);
    const report = JSON.parse(out.stdout) as Report;
    expect(report.kind).toBe('token-logprobs');
    expect(report.members).toEqual({ members: 2, nonMembers: 2 });
    // Of the 4 member/non-member pairs (A, B vs C, D), the member scores higher in: llm-loss 4 (A −0.575 > C −0.6),
    // zlib 3 (B < C), min-k with k = 1 = the loss 4, min-k++ 3 (A < C), reference-ratio 1 (A > C only).
    expect(report.rows.map((r) => [r.attack, r.auc])).toEqual([
      ['llm-loss', 1],
      ['zlib', 0.75],
      ['min-k', 1],
      ['min-k++', 0.75],
      ['reference-ratio', 0.25],
    ]);
    const text = await runMia(['attack', '--scores', join(dir, 'records.txt')], { timeout: 120_000 });
    expect(text.stdout).toMatch(/per-token log-probabilities\): 2 members, 2 non-members/);
    expect(text.stdout).toMatch(/\n {2}min-k {13}0\.750 {3}50\.0%/);
  }, 240_000);

  it('names the line of a corrupted record, and reads standard input with --format jsonl', async () => {
    const lines = JSONL.split('\n');
    lines[3] = lines[3]!.slice(0, 40); // line 4 (after the blank line 3) cut short
    writeFileSync(join(dir, 'cut.jsonl'), lines.join('\n'));
    const cut = await runMia(['attack', '--scores', join(dir, 'cut.jsonl')], { timeout: 120_000 });
    expect(cut.status).toBe(1);
    expect(cut.stderr).toMatch(new RegExp(`^mia: ${join(dir, 'cut.jsonl').replace(/[.\\/]/g, '\\$&')}:4: not valid JSON \\(`));
    const stdin = await miaWithInput(['attack', '--scores', '-', '--format', 'jsonl', '--json'], JSONL);
    expect(stdin.status, stdin.stderr).toBe(0);
    expect((JSON.parse(stdin.stdout) as Report).rows[0]).toMatchObject({ attack: 'llm-loss', auc: 1 });
    writeFileSync(join(dir, 'csv.jsonl'), 'member,loss\n1,0.1\n0,0.2\n');
    const csv = await runMia(['attack', '--scores', join(dir, 'csv.jsonl')], { timeout: 120_000 });
    expect(csv.stderr).toMatch(/holds CSV \(its first line is "member,loss"\), not per-token log-probabilities as its \.jsonl extension says/);
  }, 240_000);
});
