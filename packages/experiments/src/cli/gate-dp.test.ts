import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededRandom } from '@mia/core';
import { afterAll, describe, expect, it } from 'vitest';
import { gateDpRunDir, gateDpScoresFile } from './gate-dp';
import { gateCommand, parseGateOptions } from './gate';

const dir = mkdtempSync(join(tmpdir(), 'mia-gate-dp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const m = 1000;
const random = seededRandom(11);
const inclusion = Array.from({ length: m }, () => (random.next() < 0.5 ? 1 : 0));
const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
const canaryFile = (name: string, scores: number[], claimedEpsilon: number) =>
  file(name, { format: 'mia-canary-scores-1', scores, inclusion, claimedEpsilon, delta: 1e-5 });

describe('mia gate --dp on a canary scores file', () => {
  it('fails a claim that perfectly separable canaries refute, passes one that null scores cannot', async () => {
    const separable = await gateDpScoresFile(
      canaryFile(
        'separable.json',
        inclusion.map((x, i) => x + i / (10 * m)),
        2,
      ),
      undefined,
    );
    expect(separable.exitCode).toBe(1);
    expect(separable.line).toMatch(/^FAIL .*separable\.json: /);
    const nulls = await gateDpScoresFile(
      canaryFile(
        'null.json',
        inclusion.map(() => random.next()),
        2,
      ),
      undefined,
    );
    expect(nulls.exitCode).toBe(0);
    expect(nulls.line).toMatch(/^PASS /);
  });

  it('refuses a file that is not a canary scores file, naming what is wrong', async () => {
    await expect(gateDpScoresFile(file('bad.json', '{"scores": [1, 2'), undefined)).rejects.toThrow(
      /is not valid JSON \(--dp reads a mia-canary-scores-1 file\)/,
    );
    await expect(gateDpScoresFile(file('other.json', { format: 'x', scores: [] }), undefined)).rejects.toThrow(
      'gate: --dp reads a canary scores file with format "mia-canary-scores-1" (scores, inclusion, claimedEpsilon, delta), got format "x"',
    );
    await expect(
      gateDpScoresFile(file('noinc.json', { format: 'mia-canary-scores-1', scores: [1], claimedEpsilon: 1, delta: 1e-5 }), undefined),
    ).rejects.toThrow('inclusion must be an array (one entry per canary), got undefined');
    await expect(
      gateDpScoresFile(file('noeps.json', { format: 'mia-canary-scores-1', scores: [1], inclusion: [1], claimedEpsilon: '8', delta: 1e-5 }), undefined),
    ).rejects.toThrow('claimedEpsilon must be a number, got "8"');
  });
});

const results = (rows: unknown[]) => ({ format: 'mia-results-1', rows, partition: { sizes: { target_train: 10, target_test: 10 } } });
const audit = (broken: boolean) => ({
  canaries: 1000,
  canaryKind: 'white-box gradient',
  broken,
  decidedBy: 'gdp',
  empiricalEpsilon: broken ? 9.2 : 2.9,
  confidence: 0.95,
  canRefute: true,
  guesses: { planned: 400, made: 400, correct: broken ? 400 : 352, included: 500 },
  oneRun: { epsilon: 1.7, maxEpsilon: 4.86 },
  gdp: { mu: 0.7, epsilon: 2.9, maxMu: 1.87, maxEpsilon: 9.22 },
  message: '…',
});
const row = (label: string, privacy?: unknown) => ({
  label,
  defense: privacy === undefined ? 'none' : 'dp-sgd',
  attacks: [],
  ...(privacy === undefined ? {} : { privacy }),
});
const runDir = (name: string, rows: unknown[]) => {
  const at = join(dir, name);
  mkdirSync(at, { recursive: true });
  writeFileSync(join(at, 'results.json'), JSON.stringify(results(rows)));
  return at;
};

describe('mia gate --dp on a run directory', () => {
  it('fails when an audited DP row is refuted, with the numbers; passes when none is', async () => {
    const privacy = (broken: boolean) => ({ mechanism: 'dp-sgd', epsilon: 7.99, delta: 1e-5, audit: audit(broken) });
    const failed = await gateDpRunDir(runDir('broken', [row('undefended'), row('DP ε=8', privacy(true))]));
    expect(failed.exitCode).toBe(1);
    expect(failed.line).toContain(
      'the DP claim is broken at 95 % confidence: DP ε=8: canary ε ≥ 9.20 (Gaussian DP, 400/400 guesses right, m = 1000) vs accountant ε 7.99',
    );
    const passed = await gateDpRunDir(runDir('fine', [row('undefended'), row('DP ε=8', privacy(false))]));
    expect(passed.exitCode).toBe(0);
    expect(passed.line).toMatch(/^PASS .*canary ε ≥ 2\.90/);
  });

  it("respects the run's validity as it bears on the DP claim: an unaccounted search blocks (exit 2), the attacks' findings are notes", async () => {
    const privacy = { mechanism: 'dp-sgd', epsilon: 7.99, delta: 1e-5, audit: audit(false) };
    const finding = (code: string, cause: string) => ({ code, cause, action: 'do something', numbers: {} });
    const withDoctor = (name: string, findings: unknown[]) => {
      const at = runDir(name, [row('undefended'), row('DP ε=8', privacy)]);
      writeFileSync(join(at, 'results.json'), JSON.stringify({ ...results([row('undefended'), row('DP ε=8', privacy)]), doctor: { findings, notes: [] } }));
      return at;
    };
    const searched = withDoctor('searched', [finding('dp-search-unaccounted', 'ε of a searched config'), finding('shadow-overlap', '3 shared records')]);
    const outcome = await gateDpRunDir(searched);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.validity!.findings.map((f) => f.code)).toEqual(['dp-search-unaccounted']);
    expect(outcome.validity!.notes.join('\n')).toContain('shadow-overlap (about the attacks, not the DP claim');
    const silent = <T>(run: () => Promise<T>) => {
      const [out, err] = [process.stdout.write, process.stderr.write];
      process.stdout.write = (() => true) as typeof process.stdout.write;
      process.stderr.write = (() => true) as typeof process.stderr.write;
      return run().finally(() => ([process.stdout.write, process.stderr.write] = [out, err]));
    };
    expect(await silent(() => gateCommand(searched, { dp: true }))).toBe(2);
    expect(await silent(() => gateCommand(searched, { dp: true, allow: ['dp-search-unaccounted'] }))).toBe(0);
    // Only the attacks' findings: the DP gate decides.
    expect(await silent(() => gateCommand(withDoctor('attacks-only', [finding('shadow-overlap', '3 shared records')]), { dp: true }))).toBe(0);
  });

  it('cannot decide without a canary audit, and says what to add', async () => {
    await expect(gateDpRunDir(runDir('unaudited', [row('undefended'), row('DP', { mechanism: 'dp-sgd', epsilon: 8, delta: 1e-5 })]))).rejects.toThrow(
      "add `audit: { canaries: 1000 }` to the dp-sgd row's params",
    );
  });

  it('--dp alone is a ceiling; without it and without a ceiling the flags are refused', () => {
    expect(parseGateOptions({ dp: true })).toMatchObject({ dp: true, tprAtFpr: [] });
    expect(() => parseGateOptions({})).toThrow('or --dp (the canary audit of a DP claim)');
  });
});
