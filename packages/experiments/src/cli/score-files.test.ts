import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { miaNodeArgs, repositoryRoot, runMia, type MiaRun } from '../test-utils/run-mia';

// `mia attack --scores` and `mia gate` on the score files a user hands them, as the CLI runs from the
// repository (node + tsx on the sources).
const dir = mkdtempSync(join(tmpdir(), 'mia-score-files-'));
chmodSync(dir, 0o755); // readable by the unprivileged user of the permission case
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const mia = (...args: string[]) => runMia(args, { timeout: 120_000 });

/** Runs `mia` with `input` on its stdin, optionally as another user (root cannot be refused a read). */
function miaWith(args: readonly string[], options: { input?: string; uid?: number } = {}): Promise<MiaRun> {
  return new Promise((resolve, reject) => {
    const ids = options.uid === undefined ? {} : { uid: options.uid, gid: options.uid };
    const child = spawn(process.execPath, miaNodeArgs(...args), { cwd: repositoryRoot, stdio: ['pipe', 'pipe', 'pipe'], ...ids });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

// 6 members with low losses, 6 non-members with high ones, overlapping in one pair.
const lossRows = [0.1, 0.2, 0.3, 0.4, 0.5, 0.9, 0.6, 0.7, 0.8, 1.0, 1.1, 0.45].map((loss, i) => `${i < 6 ? 1 : 0},${loss}`);
const lossCsv = `member,loss\n${lossRows.join('\n')}\n`;

describe('score files', () => {
  it('a loss-only CSV needs no label column; logits without labels are refused, naming the attacks that need them', async () => {
    writeFileSync(join(dir, 'losses.csv'), lossCsv);
    const out = await mia('attack', '--scores', join(dir, 'losses.csv'), '--json');
    expect(out.status, out.stderr).toBe(0);
    const report = JSON.parse(out.stdout) as { rows: Array<{ attack: string; auc: number; advantage: number }>; members: { members: number } };
    expect(report.rows.map((r) => r.attack)).toEqual(['loss']);
    // Hand count: of the 36 member/non-member pairs, 5 rank a member's loss above a non-member's
    // (0.5 > 0.45; 0.9 > 0.6, 0.7, 0.8, 0.45): AUC = 31/36.
    expect(report.rows[0]!.auc).toBeCloseTo(31 / 36, 12);
    expect(report.members.members).toBe(6);
    writeFileSync(join(dir, 'logits.csv'), 'member,logit_0,logit_1\n1,2,0\n0,0,1\n');
    const logits = await mia('attack', '--scores', join(dir, 'logits.csv'));
    expect(logits.status).toBe(1);
    expect(logits.stderr).toMatch(
      /has no 'label' column, and logits need one \(the loss, confidence, φ, modified-entropy and correctness attacks read them at each row’s true label\)/,
    );
  });

  it('a bad value is named by line and column, by attack and by gate', async () => {
    writeFileSync(join(dir, 'bad.csv'), 'label,member,loss\n0,1,0.1\n1,0,0.9\n\n0,1,0.2\n1,x,0.7\n');
    const attack = await mia('attack', '--scores', join(dir, 'bad.csv'));
    expect(attack.status).toBe(1);
    expect(attack.stderr).toBe(`mia: parseScoreCsv(${join(dir, 'bad.csv')}): line 6, column member: must be 0 or 1 (or true/false), got "x"\n`);
    const gate = await mia('gate', join(dir, 'bad.csv'), '--max-advantage', '0.1');
    expect(gate.status).toBe(2);
    expect(gate.stderr).toBe(`mia gate: parseScoreCsv(${join(dir, 'bad.csv')}): line 6, column member: must be 0 or 1 (or true/false), got "x"\n`);
  });

  it('an unreadable file: the cause is named (a directory, no such file, permission denied)', async () => {
    mkdirSync(join(dir, 'folder.csv'));
    const folder = await mia('attack', '--scores', join(dir, 'folder.csv'));
    expect(folder.stderr).toBe(`mia: attack: cannot read --scores ${join(dir, 'folder.csv')}: it is a directory (EISDIR)\n`);
    const missing = await mia('attack', '--scores', join(dir, 'missing.csv'));
    expect(missing.stderr).toBe(`mia: attack: cannot read --scores ${join(dir, 'missing.csv')}: no such file (ENOENT)\n`);
    writeFileSync(join(dir, 'locked.csv'), lossCsv);
    chmodSync(join(dir, 'locked.csv'), 0o000);
    const uid = process.getuid?.() === 0 ? 65534 : undefined; // root reads any file: ask as nobody
    const locked = await miaWith(['attack', '--scores', join(dir, 'locked.csv')], { uid });
    expect(locked.stderr).toBe(`mia: attack: cannot read --scores ${join(dir, 'locked.csv')}: permission denied (EACCES)\n`);
    const gate = await miaWith(['gate', join(dir, 'locked.csv'), '--max-advantage', '0.1'], { uid });
    expect(gate.status).toBe(2);
    expect(gate.stderr).toBe(`mia gate: cannot read scores file ${join(dir, 'locked.csv')}: permission denied (EACCES)\n`);
  });

  it('the format comes from the content: /dev/stdin is sniffed (with a note), a .json holding CSV is an error that says so, --format settles it', async () => {
    const stdin = await miaWith(['attack', '--scores', '/dev/stdin', '--json'], { input: lossCsv });
    expect(stdin.status, stdin.stderr).toBe(0);
    expect((JSON.parse(stdin.stdout) as { rows: Array<{ auc: number }> }).rows[0]!.auc).toBeCloseTo(31 / 36, 12);
    expect(stdin.stderr).toBe(
      'mia attack: reading /dev/stdin as CSV, detected from its content (its first line is "member,loss"); --format csv says so without detection\n',
    );
    writeFileSync(join(dir, 'scores.json'), lossCsv);
    const mislabelled = await mia('gate', join(dir, 'scores.json'), '--max-advantage', '0.1');
    expect(mislabelled.status).toBe(2);
    expect(mislabelled.stderr).toBe(
      `mia gate: scores file ${join(dir, 'scores.json')} holds CSV (its first line is "member,loss"), not JSON as its .json extension says: pass --format csv or rename it\n`,
    );
    const told = await mia('gate', join(dir, 'scores.json'), '--format', 'csv', '--max-advantage', '1');
    expect(told.status, told.stderr).toBe(0);
    expect(told.stdout).toMatch(
      /^mia gate: PASS scores.json leaks at most the ceilings at 95 % confidence: advantage upper bound [\d.]+ % ≤ ceiling 100 % \(loss,/,
    );
  });
});
