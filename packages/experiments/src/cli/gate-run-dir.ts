// `mia gate <run-dir>`: the gate on a `mia run` output directory (results.json).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError } from '@mia/core';
import { clopperPearson } from '@mia/metrics';
import type { GateCeilings, GateOutcome } from './gate-outcome';
import type { ExperimentResults } from '../run/results';
import { cannotRead } from './read-score-file';
import { selectGateRows } from './select-gate-rows';
import { settleOutputSet } from '../report/output-set';
import { runDirValidity } from './audit-validity-lines';

/** `results.json` of a run directory, its output set settled first (internal). */
export async function readResults(dir: string): Promise<ExperimentResults> {
  // A write interrupted between its files is completed (or refused) first: the gate reads one set.
  await settleOutputSet(dir);
  const file = join(dir, 'results.json');
  if (!existsSync(file))
    throw new InvalidArgumentError(`gate: ${dir} is a directory without results.json (give a \`mia run\` output directory or a scores file)`);
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    throw cannotRead('gate', 'results file', file, error);
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new InvalidArgumentError(`gate: ${file} is not valid JSON`, { cause });
  }
  const results = parsed as Partial<ExperimentResults>;
  if (results.format !== 'mia-results-1' || !Array.isArray(results.rows)) {
    throw new InvalidArgumentError(
      `gate: ${file} is not a \`mia run\` results file (format mia-results-1 with rows), got format ${JSON.stringify(results.format)}`,
    );
  }
  return results as ExperimentResults;
}

/** Standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9) (internal). */
export function normalQuantile(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (q: number) =>
    (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

const pct = (v: number) => `${+(100 * v).toFixed(2)} %`;

interface RunCheck {
  readonly metric: string;
  readonly where: string;
  readonly estimate: number;
  readonly upper: number;
  readonly ceiling: number;
  readonly how: string;
}

/**
 * Gates a `mia run` output directory: for every gated row ({@link selectGateRows}) and attack of `results.json`, the
 * advantage of the attack's decision rule plus z·SE (the stored bootstrap SE, else the binomial
 * approximation from the partition sizes) and the Clopper–Pearson upper bound of each stored TPR@FPR.
 */
export async function gateRunDir(dir: string, ceilings: GateCeilings, requestedRows: readonly string[] = []): Promise<GateOutcome> {
  const results = await readResults(dir);
  const { rows, note } = selectGateRows(results, join(dir, 'results.json'), requestedRows);
  const sizes = results.partition?.sizes ?? {};
  const members = sizes.target_train ?? sizes.train;
  const nonMembers = sizes.target_test ?? sizes.test;
  if (members === undefined || nonMembers === undefined)
    throw new InvalidArgumentError(`gate: ${dir}/results.json has no target_train/target_test partition sizes, got ${JSON.stringify(Object.keys(sizes))}`);
  const z = normalQuantile((1 + ceilings.confidence) / 2);
  const attacks = rows.flatMap((row) => row.attacks.map((attack) => ({ row, attack })));
  if (attacks.length === 0) throw new InvalidArgumentError(`gate: ${dir}/results.json has no attack results in the rows to gate (${note})`);
  const checks: RunCheck[] = [];
  const worst = (metric: string, ceiling: number, bound: (a: (typeof attacks)[number]) => Omit<RunCheck, 'metric' | 'ceiling' | 'where'>) => {
    const all = attacks.map((a) => ({ metric, ceiling, where: `${a.row.label}/${a.attack.attack}`, ...bound(a) }));
    checks.push(all.reduce((w, c) => (c.upper > w.upper ? c : w)));
  };
  if (ceilings.advantage !== undefined) {
    worst('advantage', ceilings.advantage, ({ row, attack }) => {
      const stored = row.se?.attacks[attack.attack]?.advantage;
      const b = (1 + attack.advantage) / 2;
      const se = stored ?? Math.sqrt(Math.max(0, b * (1 - b)) * (1 / members + 1 / nonMembers));
      return { estimate: attack.advantage, upper: attack.advantage + z * se, how: stored === undefined ? 'binomial SE' : 'bootstrap SE' };
    });
  }
  for (const [fpr, maxTpr] of ceilings.tprAtFpr) {
    worst(`TPR@${pct(fpr)} FPR`, maxTpr, ({ attack }) => {
      const entry = attack.tprAtFpr.find((t) => Math.abs(t.fpr - fpr) < 1e-12);
      if (entry === undefined)
        throw new InvalidArgumentError(
          `gate: ${dir}/results.json stores TPR at FPR ${attack.tprAtFpr.map((t) => t.fpr).join(', ')} only, got --max-tpr-at-fpr for FPR ${fpr}`,
        );
      return {
        estimate: entry.tpr,
        upper: clopperPearson(Math.round(entry.tpr * members), members, { confidence: ceilings.confidence }).upper,
        how: 'Clopper–Pearson',
      };
    });
  }
  const failed = checks.filter((c) => c.upper > c.ceiling);
  const describe = (c: RunCheck, op: string) =>
    `${c.metric} upper bound ${pct(c.upper)} ${op} ceiling ${pct(c.ceiling)} (${c.where}, estimate ${pct(c.estimate)}, ${c.how})`;
  const confidence = `${+(100 * ceilings.confidence).toFixed(2)} % confidence`;
  const validity = runDirValidity(
    results,
    ceilings.tprAtFpr.map(([fpr]) => fpr),
  );
  return failed.length > 0
    ? { exitCode: 1, line: `FAIL ${dir} leaks more than allowed at ${confidence}: ${failed.map((c) => describe(c, '>')).join('; ')} — ${note}`, validity }
    : { exitCode: 0, line: `PASS ${dir} leaks at most the ceilings at ${confidence}: ${checks.map((c) => describe(c, '≤')).join('; ')} — ${note}`, validity };
}
