// `mia gate <scores-file | run-dir>`: a privacy gate for CI. Exit 0 when every ceiling holds at the
// upper confidence bound, 1 when one is passed, 2 when it cannot decide (bad flags, unreadable input).
import { stat } from 'node:fs/promises';
import { InvalidArgumentError, MiaError } from '@mia/core';
import { gateRunDir } from './gate-run-dir';
import { gateDpRunDir, gateDpScoresFile } from './gate-dp';
import { gateScoresFile } from './gate-scores-file';
import type { GateCeilings } from './gate-outcome';
import { cannotRead } from './read-score-file';
import { allowedCodes, validityLines } from './audit-validity-lines';
import { findingLine } from '@mia/attacks';

export { gateScoresFile } from './gate-scores-file';
export type { GateCeilings, GateOutcome } from './gate-outcome';

/** Options of `mia gate`, as commander passes them. */
export interface GateOptions {
  readonly maxAdvantage?: string;
  readonly maxTprAtFpr?: readonly string[];
  readonly confidence?: string;
  readonly labels?: string;
  readonly members?: string;
  readonly kind?: string;
  /** A scores file's format: json, csv or npy. */
  readonly format?: string;
  /** A run directory's rows to gate: labels, each value one label or a comma-separated list (repeatable). */
  readonly row?: readonly string[];
  /** Refute a DP claim with the one-run canary audit: a run directory's audited DP rows, or a canary scores file. */
  readonly dp?: boolean;
  /** Validity finding codes to acknowledge (repeatable, or comma-separated): the gate decides despite them. */
  readonly allow?: readonly string[];
}

const fraction = (flag: string, text: string, open = false): number => {
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v) || (open ? !(v > 0 && v < 1) : !(v >= 0 && v <= 1))) {
    throw new InvalidArgumentError(`gate: ${flag} must be a fraction in ${open ? '(0, 1)' : '[0, 1]'} (0.1 = 10 %), got ${JSON.stringify(text)}`);
  }
  return v;
};

/** Validates the flags of `mia gate`. @throws InvalidArgumentError naming the flag, the expected and the actual value. */
export function parseGateOptions(opts: GateOptions): GateCeilings & { readonly dp: boolean } {
  const advantage = opts.maxAdvantage === undefined ? undefined : fraction('--max-advantage', opts.maxAdvantage);
  const tprAtFpr = (opts.maxTprAtFpr ?? []).map((text): [number, number] => {
    const parts = text.split(':');
    if (parts.length !== 2) throw new InvalidArgumentError(`gate: --max-tpr-at-fpr must be <fpr>:<max tpr>, e.g. 0.001:0.05, got ${JSON.stringify(text)}`);
    return [fraction('--max-tpr-at-fpr <fpr>', parts[0]!), fraction('--max-tpr-at-fpr <max tpr>', parts[1]!)];
  });
  const dp = opts.dp === true;
  if (advantage === undefined && tprAtFpr.length === 0 && !dp)
    throw new InvalidArgumentError(
      'gate: give a ceiling: --max-advantage <fraction> and/or --max-tpr-at-fpr <fpr>:<max tpr>, or --dp (the canary audit of a DP claim)',
    );
  return { advantage, tprAtFpr, dp, confidence: opts.confidence === undefined ? 0.95 : fraction('--confidence', opts.confidence, true) };
}

/**
 * `mia gate`: prints one line and sets the exit code (0 pass, 1 leak, 2 cannot decide). It cannot
 * decide on an audit with a validity finding (docs/guides/audit-doctor.md) that `--allow` does not
 * acknowledge: it prints the finding, its cause and what to do, and exits 2 whatever the leakage.
 */
export async function gateCommand(path: string, opts: GateOptions): Promise<number> {
  try {
    const allowed = allowedCodes(opts.allow, 'gate');
    const ceilings = parseGateOptions(opts);
    const stats = await stat(path === '-' ? '/dev/stdin' : path).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new InvalidArgumentError(`gate: ${path} does not exist (give a scores file or a run directory with results.json)`, { cause: error });
      throw cannotRead('gate', 'scores file', path, error);
    });
    if (stats.isDirectory()) {
      const fileFlags = (['format', 'labels', 'members', 'kind'] as const).filter((k) => opts[k] !== undefined);
      if (fileFlags.length > 0) throw new InvalidArgumentError(`gate: --${fileFlags[0]} applies to a scores file, got the run directory ${path}`);
    } else if ((opts.row ?? []).length > 0) {
      throw new InvalidArgumentError(`gate: --row applies to a run directory (results.json), got the scores file ${path}`);
    }
    const leakage = ceilings.advantage !== undefined || ceilings.tprAtFpr.length > 0;
    if (ceilings.dp && !stats.isDirectory() && leakage)
      throw new InvalidArgumentError(
        `gate: --dp with a file reads a canary scores file, which has no attack scores to hold against --max-advantage / --max-tpr-at-fpr; got both for ${path}`,
      );
    const outcomes = [
      ...(ceilings.dp
        ? [
            stats.isDirectory()
              ? await gateDpRunDir(path, opts.row)
              : await gateDpScoresFile(path, opts.confidence === undefined ? undefined : ceilings.confidence),
          ]
        : []),
      ...(leakage ? [stats.isDirectory() ? await gateRunDir(path, ceilings, opts.row) : await gateScoresFile(path, ceilings, opts)] : []),
    ];
    for (const outcome of outcomes) process.stdout.write(`mia gate: ${outcome.line}\n`);
    const findings = outcomes.flatMap((o) => o.validity?.findings ?? []);
    const blocking = findings.filter((f) => !allowed.has(f.code));
    const validity = outcomes.find((o) => o.validity !== undefined)?.validity;
    // The decision stays one line on stdout; what the validity checks found goes to stderr beside it.
    if (validity !== undefined) for (const line of validityLines(validity, allowed)) process.stderr.write(`mia gate: ${line}\n`);
    if (blocking.length > 0) {
      process.stdout.write(
        `mia gate: CANNOT DECIDE ${path}: the audit is not valid (${blocking.map((f) => f.code).join(', ')}); fix it, or acknowledge a finding with --allow <code>: ${blocking.map(findingLine).join(' | ')}\n`,
      );
      return 2;
    }
    return Math.max(...outcomes.map((o) => o.exitCode)) as 0 | 1;
  } catch (error) {
    const message = MiaError.isInstance(error) ? (error as Error).message : error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    process.stderr.write(`mia ${message.startsWith('gate:') ? message : `gate: ${message}`}\n`);
    return 2;
  }
}
