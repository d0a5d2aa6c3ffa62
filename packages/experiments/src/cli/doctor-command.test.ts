import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repositoryRoot } from '../test-utils/run-mia';
import { doctorCommand } from './doctor-command';
import { gateCommand, type GateOptions } from './gate';

const dir = mkdtempSync(join(tmpdir(), 'mia-doctor-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a command in this process and returns its exit code and what it printed. */
async function capture(run: () => Promise<number>): Promise<{ code: number; stdout: string; stderr: string }> {
  const [out, err] = [process.stdout.write.bind(process.stdout), process.stderr.write.bind(process.stderr)];
  let [stdout, stderr] = ['', ''];
  process.stdout.write = ((chunk: string) => ((stdout += chunk), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => ((stderr += chunk), true)) as typeof process.stderr.write;
  try {
    return { code: await run(), stdout, stderr };
  } finally {
    [process.stdout.write, process.stderr.write] = [out, err];
  }
}
const gate = (path: string, opts: GateOptions) => capture(() => gateCommand(path, opts));

/** A losses file: `n` members and `n` non-members, member i's loss i/n and non-member i's (i + 0.5)/n (nearly no leak), labels as given. */
function lossFile(name: string, n: number, label: (i: number, member: boolean) => number): string {
  const rows = Array.from({ length: 2 * n }, (_, k) => {
    const member = k < n;
    const i = k % n;
    return { member: member ? 1 : 0, label: label(i, member), loss: (i + (member ? 0 : 0.5)) / n };
  });
  const file = join(dir, name);
  writeFileSync(file, `member,label,loss\n${rows.map((r) => `${r.member},${r.label},${r.loss}`).join('\n')}\n`);
  return file;
}

describe('mia gate on an invalid audit', () => {
  it('cannot decide (2) on members drawn from other classes than the non-members, and decides with --allow distribution-shift', async () => {
    const file = lossFile('shifted.csv', 1500, (i, member) => (member ? i % 2 : 2 + (i % 2)));
    const blocked = await gate(file, { maxAdvantage: '0.5' });
    expect(blocked.code).toBe(2);
    expect(blocked.stdout).toMatch(
      /^mia gate: PASS shifted\.csv leaks at most the ceilings .*\nmia gate: CANNOT DECIDE .*shifted\.csv: the audit is not valid \(distribution-shift\); fix it, or acknowledge a finding with --allow <code>: distribution-shift: a blind baseline that never queries the model tells members from non-members with AUC 1\.000/,
    );
    expect(blocked.stderr).toMatch(/mia gate: blind baseline \(the labels alone; .*\): AUC 1\.000/);
    const allowed = await gate(file, { maxAdvantage: '0.5', allow: ['distribution-shift'] });
    expect(allowed.code).toBe(0);
    expect(allowed.stderr).toMatch(/mia gate: allowed distribution-shift: /);
  });

  it('cannot decide on a TPR ceiling at 0.1 % FPR with 200 non-members; --allow tpr-below-resolution acknowledges it; an unknown code is refused', async () => {
    const file = lossFile('small.csv', 200, (i) => i % 3);
    const blocked = await gate(file, { maxTprAtFpr: ['0.001:0.5'] });
    expect(blocked.code).toBe(2);
    expect(blocked.stdout).toMatch(
      /CANNOT DECIDE .*\(tpr-below-resolution\).*a TPR at 0\.1 % FPR is stated \(--max-tpr-at-fpr\) with 200 non-members, whose smallest non-zero FPR is 0\.5 %/,
    );
    expect((await gate(file, { maxTprAtFpr: ['0.001:0.5'], allow: ['tpr-below-resolution'] })).code).toBe(0);
    expect((await gate(file, { maxTprAtFpr: ['0.01:0.5'] })).code).toBe(0);
    const unknown = await gate(file, { maxAdvantage: '0.5', allow: ['typo'] });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^mia gate: --allow must be a finding code \(shadow-overlap, .*\), got "typo"\n$/);
  });

  it('cannot decide on a run directory whose results.json stores a finding; mia doctor lists it (exit 1) and passes the committed run (exit 0)', async () => {
    const committed = join(repositoryRoot, 'examples', 'lira-rmia', 'results', 'purchase-references');
    const clean = join(dir, 'clean-run');
    cpSync(committed, clean, { recursive: true });
    const ok = await capture(() => doctorCommand(clean, {}));
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^mia doctor: .*clean-run: valid\n {2}no validity finding\n {2}note: results\.json has no doctor/);
    const bad = join(dir, 'bad-run');
    cpSync(committed, bad, { recursive: true });
    const results = JSON.parse(readFileSync(join(bad, 'results.json'), 'utf8'));
    const finding = {
      code: 'shadow-overlap',
      cause: "shadow model shadow trained on 40 of the target's evaluation records",
      action: 'train it elsewhere',
      numbers: { members: 40 },
    };
    writeFileSync(join(bad, 'results.json'), JSON.stringify({ ...results, doctor: { findings: [finding], notes: [] } }));
    const blocked = await gate(bad, { maxAdvantage: '0.99' });
    expect(blocked.code).toBe(2);
    expect(blocked.stdout).toMatch(/CANNOT DECIDE .*bad-run: the audit is not valid \(shadow-overlap\)/);
    expect((await gate(bad, { maxAdvantage: '0.99', allow: ['shadow-overlap'] })).code).toBe(0);
    const listed = await capture(() => doctorCommand(bad, { json: true }));
    expect(listed.code).toBe(1);
    expect(JSON.parse(listed.stdout)).toMatchObject({ valid: false, findings: [finding] });
  });

  it('mia doctor on a scores file: the labels-only baseline against the best statistic', async () => {
    const file = lossFile('fine.csv', 1500, (i) => i % 3);
    const out = await capture(() => doctorCommand(file, {}));
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(
      /^mia doctor: .*fine\.csv: valid\n {2}blind baseline \(the labels alone; .*\): AUC 0\.\d{3} \[0\.\d{3}, 0\.\d{3}\]\n {2}No leakage shown: the best attack \(loss, AUC 0\.\d{3}/,
    );
    expect((await capture(() => doctorCommand(join(dir, 'none.csv'), {}))).code).toBe(2);
  });
});
