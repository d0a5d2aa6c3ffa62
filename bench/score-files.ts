// Large score files: `mia attack --scores` and `mia gate` on a generated CSV of N rows (default 10
// million, about 250 MB), each in a fresh process, with its wall time and peak resident memory.
// Targets: each within 1 GB of peak memory, the gate within 2× the attack's time.
//
//   node --conditions=@mia/source --import tsx bench/score-files.ts [--rows N] [--keep] [--help]
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const USAGE = `usage: node --conditions=@mia/source --import tsx bench/score-files.ts [--rows N] [--keep]

Writes a CSV of N rows (label,member,loss; default 10000000, about 250 MB) into a temporary
directory, then runs, each in a fresh process from the sources (node + tsx):
  mia attack --scores <file> --json
  mia gate <file> --max-advantage 0.5 --max-tpr-at-fpr 0.001:0.5
and prints their wall time, CPU time (user + system) and peak resident memory (/usr/bin/time -v;
without it, the kernel's VmHWM and no CPU time).
Targets: peak memory ≤ 1 GB each; the gate ≤ 2× the attack's wall time.
  --rows N   rows of the file (half members)
  --keep     keep the temporary directory (its path is printed)`;

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const main = join(root, 'packages/experiments/src/cli/main.ts');

function parseArgs(argv: string[]): { rows: number; keep: boolean } | undefined {
  const opts = { rows: 10_000_000, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--help' || a === '-h') return undefined;
    if (a === '--keep') opts.keep = true;
    else if (a === '--rows' || a.startsWith('--rows=')) {
      const text = a.includes('=') ? a.slice(7) : argv[++i];
      opts.rows = Number(text);
      if (!Number.isInteger(opts.rows) || opts.rows < 4) throw new Error(`score-files: --rows must be an integer ≥ 4, got ${JSON.stringify(text)}`);
    } else throw new Error(`score-files: unknown flag ${a}\n${USAGE}`);
  }
  return opts;
}

/** mulberry32: a seeded uniform generator, so every run scores the same file. */
function uniform(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Members' losses exponential with mean 0.5, non-members' with mean 0.8 (an overfit model's shape), 10 classes. */
async function writeScores(path: string, rows: number): Promise<void> {
  const random = uniform(54);
  const out = createWriteStream(path);
  out.write('label,member,loss\n');
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) {
    const member = i % 2;
    lines.push(`${i % 10},${member},${-Math.log(1 - random()) * (member === 1 ? 0.5 : 0.8)}`);
    if (lines.length === 100_000 || i === rows - 1) {
      if (!out.write(`${lines.join('\n')}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      lines.length = 0;
    }
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

interface Measured {
  readonly seconds: number;
  /** User + system CPU seconds (with /usr/bin/time; NaN without): the work done, whatever the load. */
  readonly cpuSeconds: number;
  readonly peakMb: number;
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `mia <args>` in a fresh process: wall time and peak RSS (/usr/bin/time -v, else VmHWM polled from /proc). */
async function measure(args: string[]): Promise<Measured> {
  const node = [process.execPath, '--conditions=@mia/source', '--import', 'tsx', main, ...args];
  const timed = existsSync('/usr/bin/time');
  const [cmd, ...rest] = timed ? ['/usr/bin/time', '-v', ...node] : node;
  const started = performance.now();
  const child = spawn(cmd!, rest, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let hwmKb = 0;
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const poll = setInterval(() => {
    try {
      const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
      hwmKb = Math.max(hwmKb, kb);
    } catch {
      // exited
    }
  }, 50);
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(poll);
  const seconds = (performance.now() - started) / 1000;
  const rssKb = timed ? Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1] ?? NaN) : hwmKb;
  const time = (what: string) => Number(new RegExp(`${what} time \\(seconds\\): ([\\d.]+)`).exec(stderr)?.[1] ?? NaN);
  return { seconds, cpuSeconds: time('User') + time('System'), peakMb: rssKb / 1024, status, stdout, stderr };
}

async function run(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  if (opts === undefined) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'mia-bench-scores-'));
  try {
    const file = join(dir, 'scores.csv');
    const t = performance.now();
    await writeScores(file, opts.rows);
    const mb = statSync(file).size / 2 ** 20;
    process.stdout.write(`wrote ${opts.rows} rows, ${mb.toFixed(0)} MB, in ${((performance.now() - t) / 1000).toFixed(1)} s: ${file}\n`);
    const before = loadavg()[0]!;
    const attack = await measure(['attack', '--scores', file, '--json']);
    if (attack.status !== 0) throw new Error(`mia attack failed (${attack.status}): ${attack.stderr}`);
    const gate = await measure(['gate', file, '--max-advantage', '0.5', '--max-tpr-at-fpr', '0.001:0.5']);
    if (gate.status !== 0 && gate.status !== 1) throw new Error(`mia gate could not decide (${gate.status}): ${gate.stderr}`);
    const auc = (JSON.parse(attack.stdout) as { rows: Array<{ auc: number }> }).rows[0]!.auc;
    const rows = [
      ['`mia attack --scores scores.csv --json`', attack, `AUC ${auc.toFixed(4)}`],
      [
        '`mia gate scores.csv --max-advantage 0.5 --max-tpr-at-fpr 0.001:0.5`',
        gate,
        gate.stdout
          .trim()
          .replace(/^mia gate: /, '')
          .slice(0, 60) + '…',
      ],
    ] as const;
    const table = [
      `| command (${opts.rows.toLocaleString('en')} rows, ${mb.toFixed(0)} MB) | wall s | CPU s | peak RSS MB | result |`,
      '|---|---:|---:|---:|---|',
      ...rows.map(([c, m, what]) => `| ${c} | ${m.seconds.toFixed(1)} | ${m.cpuSeconds.toFixed(1)} | ${m.peakMb.toFixed(0)} | ${what} |`),
    ];
    const ok = (b: boolean) => (b ? 'met' : 'MISSED');
    process.stdout.write(
      `\n${table.join('\n')}\n\n` +
        `targets: peak ≤ 1024 MB: attack ${ok(attack.peakMb <= 1024)}, gate ${ok(gate.peakMb <= 1024)}; ` +
        `gate ≤ 2× attack: ${(gate.seconds / attack.seconds).toFixed(2)}× wall ${ok(gate.seconds <= 2 * attack.seconds)}, ${(gate.cpuSeconds / attack.cpuSeconds).toFixed(2)}× CPU\n` +
        (opts.rows <= 200_000
          ? 'note: up to 200,000 examples the gate bootstraps its bound (1000 resamples), so it takes longer than the attack there\n'
          : '') +
        `Node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? 'cpu'}, load average ${before.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after; ` +
        `peak memory by ${existsSync('/usr/bin/time') ? '/usr/bin/time -v' : 'VmHWM'}; wall time includes starting node + tsx\n`,
    );
  } finally {
    if (opts.keep) process.stdout.write(`kept ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

await run();
