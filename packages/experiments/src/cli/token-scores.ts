// `mia attack --scores <file.jsonl>` on a language model's per-token log-probabilities: the loss,
// zlib, Min-K%, Min-K%++ and reference attacks, reported like the attacks on classifier scores.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { InvalidArgumentError, InvalidDatasetError, describeValue, formatOptionIssues, type OptionIssue } from '@mia/core';
import { addZlibBytes, parseTokenLogprobsJsonlStream, type TokenLogprobRecord } from '@mia/attacks';
import { summarizeScores } from '@mia/metrics';
import { TOKEN_ATTACKS, TOKEN_ATTACK_NAMES } from '../attacks/token-attacks';
import { cannotRead } from './read-score-file';
import { looksLikeTokenLogprobs, sniffScoreFormat } from './score-file-format';

/** The options of `mia attack` that the language-model path reads. */
export interface TokenScoresOptions {
  readonly scores: string;
  readonly json?: boolean;
  /** `jsonl` selects this path; another format the classifier one. */
  readonly format?: string;
  readonly labels?: string;
  readonly members?: string;
  readonly kind?: string;
  /** `--params`: JSON object of each attack's params by name, e.g. `{"min-k": {"k": 0.1}}`. */
  readonly params?: string;
}

/** One attack's numbers on the records (the same fields as the classifier rows of `mia attack --json`). */
export interface TokenAttackRow {
  readonly attack: string;
  readonly auc: number;
  readonly advantage: number;
  readonly balancedAccuracy: number;
  readonly tprAtFpr: ReadonlyArray<{ readonly fpr: number; readonly tpr: number; readonly achievedFpr: number }>;
}

const isStdin = (path: string) => path === '-' || path === '/dev/stdin';

/** The first bytes of a regular file (up to the first newline or 64 KiB); undefined for anything else (a FIFO must not be read twice). */
async function regularFileHead(path: string): Promise<Uint8Array | undefined> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (handle === undefined) return undefined; // the reader names why it cannot be read
  try {
    if (!(await handle.stat()).isFile()) return undefined;
    const buffer = new Uint8Array(1 << 16);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (buffer.subarray(length - bytesRead, length).includes(10)) break;
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}

/**
 * Whether `mia attack --scores` reads its file as per-token log-probabilities: `--format jsonl`, a
 * `.jsonl` name, or (another name, no `--format`) a regular file whose first line is a record with
 * `"logprobs"`. Standard input is sniffed by the classifier path only: give it `--format jsonl`.
 * @throws InvalidArgumentError when a `.jsonl` file holds something else, or `--params` is given for classifier scores.
 */
export async function isTokenScoresInput(opts: TokenScoresOptions): Promise<boolean> {
  const format = opts.format?.toLowerCase();
  const stdin = isStdin(opts.scores);
  let token = format === 'jsonl';
  if (format === undefined && !stdin) {
    const head = await regularFileHead(opts.scores);
    const sniffed = head === undefined ? undefined : looksLikeTokenLogprobs(head);
    if (extname(opts.scores).toLowerCase() === '.jsonl') {
      if (sniffed === false && head!.length > 0) {
        const other = sniffScoreFormat(head!);
        throw new InvalidArgumentError(
          `attack: --scores ${opts.scores} holds ${other.format?.toUpperCase() ?? 'no known format'} (${other.evidence}), not per-token log-probabilities as its .jsonl extension says (each line {"id", "logprobs", …}): pass --format ${other.format ?? 'json'} or rename it`,
        );
      }
      token = true;
    } else token = sniffed === true;
  }
  if (!token && opts.params !== undefined)
    throw new InvalidArgumentError(
      `attack: --params applies to per-token log-probabilities (JSONL, the language-model attacks ${TOKEN_ATTACK_NAMES.join(', ')}), got classifier scores in ${opts.scores}`,
    );
  return token;
}

/**
 * The params of each language-model attack from `--params` (a JSON object keyed by attack name),
 * validated whole and with the defaults filled, before the file is read.
 * @throws InvalidArgumentError naming every unknown attack and bad param.
 */
export function tokenAttackParams(text: string | undefined): Map<string, unknown> {
  let value: unknown = {};
  if (text !== undefined) {
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new InvalidArgumentError(
        `attack: --params must be a JSON object such as {"min-k": {"k": 0.1}}, got ${JSON.stringify(text)} (${(error as Error).message})`,
      );
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InvalidArgumentError(`attack: --params must be a JSON object keyed by attack name, got ${describeValue(value)}`);
  const given = value as Record<string, unknown>;
  const issues: OptionIssue[] = Object.keys(given)
    .filter((name) => !TOKEN_ATTACK_NAMES.includes(name))
    .map((name) => ({ path: `--params.${name}`, expected: `one of the attacks ${TOKEN_ATTACK_NAMES.join(', ')}`, got: 'an unknown attack' }));
  for (const d of TOKEN_ATTACKS) issues.push(...d.schema.check(given[d.name], `--params.${d.name}`));
  if (issues.length > 0) throw new InvalidArgumentError(`attack: invalid --params:\n  ${formatOptionIssues(issues).join('\n  ')}`);
  return new Map(TOKEN_ATTACKS.map((d) => [d.name, d.schema.parse(given[d.name], d.name)]));
}

/**
 * The scores (higher = more likely member) of every language-model attack the records allow, in
 * {@link TOKEN_ATTACKS} order; an attack whose field (e.g. `mu` and `sigma`) some record lacks is
 * left out, with a note naming the first such record.
 * @param params - Each attack's parsed params ({@link tokenAttackParams}).
 */
export async function tokenAttackScores(
  records: readonly TokenLogprobRecord[],
  params: ReadonlyMap<string, unknown>,
): Promise<{ attacks: Array<{ name: string; scores: Float64Array }>; notes: string[] }> {
  const attacks: Array<{ name: string; scores: Float64Array }> = [];
  const notes: string[] = [];
  let withZlib: readonly TokenLogprobRecord[] | undefined;
  for (const definition of TOKEN_ATTACKS) {
    const lacking = definition.has === undefined ? [] : records.filter((r) => !definition.has!(r));
    if (lacking.length > 0) {
      notes.push(
        lacking.length === records.length
          ? `${definition.name} not run: no record has ${definition.requires}`
          : `${definition.name} not run: ${lacking.length} of ${records.length} records have no ${definition.requires} (first: id ${JSON.stringify(lacking[0]!.id)})`,
      );
      continue;
    }
    if (definition.name === 'zlib') withZlib ??= await addZlibBytes(records);
    const attack = definition.create(params.get(definition.name) as never);
    attacks.push({ name: definition.name, scores: attack.score(definition.name === 'zlib' ? withZlib! : records) });
  }
  return { attacks, notes };
}

/**
 * {@link tokenAttackScores} summarised like `mia attack` summarises classifier scores: AUC, best
 * advantage, balanced accuracy, TPR at 1 %, 0.1 % and 0 % FPR per attack.
 * @throws InvalidDatasetError when the records lack membership or one side of it.
 */
export async function tokenAttackRows(
  records: readonly TokenLogprobRecord[],
  params: ReadonlyMap<string, unknown>,
  source: string,
): Promise<{ rows: TokenAttackRow[]; notes: string[]; members: { members: number; nonMembers: number } }> {
  if (records[0]?.member === undefined)
    throw new InvalidDatasetError(`attack: --scores ${source} has no "member" field; the audit needs each record's membership (1 or 0) on every line`);
  const isMember = Uint8Array.from(records, (r) => r.member!);
  const members = isMember.reduce((a, m) => a + m, 0);
  if (members === 0 || members === records.length)
    throw new InvalidDatasetError(
      `attack: --scores ${source} must hold members and non-members, got ${members} members and ${records.length - members} non-members`,
    );
  const { attacks, notes } = await tokenAttackScores(records, params);
  const rows = attacks.map(({ name, scores }): TokenAttackRow => {
    const m = summarizeScores(scores, isMember, { fprs: [0.01, 0.001, 0] });
    return {
      attack: name,
      auc: m.auc,
      advantage: m.advantage,
      balancedAccuracy: m.balancedAccuracy,
      tprAtFpr: m.tprAtFpr.map((t) => ({ fpr: t.fpr, tpr: t.tpr, achievedFpr: t.achievedFpr })),
    };
  });
  return { rows, notes, members: { members, nonMembers: records.length - members } };
}

/** The chunks of the file or standard input, read errors named (internal). */
async function* chunksOf(path: string): AsyncGenerator<Uint8Array> {
  const stream = isStdin(path) ? process.stdin : createReadStream(path, { highWaterMark: 1 << 20 });
  try {
    for await (const chunk of stream) yield chunk as Uint8Array;
  } catch (error) {
    throw cannotRead('attack', '--scores', path, error);
  }
}

const pct = (v: number) => `${(100 * v).toFixed(1)}%`;

/**
 * `mia attack --scores <file.jsonl>`: reads the records (streamed; a bad line is named by its
 * number), runs {@link tokenAttackRows} and prints the table, or JSON with `--json`.
 * @throws InvalidArgumentError on flags of the classifier path (`--labels`, `--members`, `--kind`) or bad `--params`.
 */
export async function tokenScoresCommand(opts: TokenScoresOptions): Promise<void> {
  const extra = (['labels', 'members', 'kind'] as const).filter((k) => opts[k] !== undefined);
  if (extra.length > 0)
    throw new InvalidArgumentError(
      `attack: ${extra.map((k) => `--${k}`).join(', ')} ${extra.length === 1 ? 'applies' : 'apply'} to a .npy array only, got per-token log-probabilities in ${opts.scores} (each record has its own "member")`,
    );
  const params = tokenAttackParams(opts.params);
  const records = await parseTokenLogprobsJsonlStream(chunksOf(opts.scores), opts.scores);
  const { rows, notes, members } = await tokenAttackRows(records, params, opts.scores);
  if (opts.json === true) {
    process.stdout.write(
      `${JSON.stringify({ file: opts.scores, kind: 'token-logprobs', members, rows, ...(notes.length === 0 ? {} : { notes }) }, null, 2)}\n`,
    );
    return;
  }
  process.stdout.write(
    `score-level audit of ${opts.scores} (per-token log-probabilities): ${members.members} members, ${members.nonMembers} non-members (best-threshold numbers are optimistic: thresholds chosen on the same data)\n`,
  );
  process.stdout.write(`  ${'attack'.padEnd(16)} ${'AUC'.padStart(6)} ${'adv'.padStart(7)} ${'TPR@1%'.padStart(7)} ${'TPR@0.1%'.padStart(9)}\n`);
  for (const r of rows)
    process.stdout.write(
      `  ${r.attack.padEnd(16)} ${r.auc.toFixed(3).padStart(6)} ${pct(r.advantage).padStart(7)} ${pct(r.tprAtFpr[0]!.tpr).padStart(7)} ${pct(r.tprAtFpr[1]!.tpr).padStart(9)}\n`,
    );
  for (const note of notes) process.stdout.write(`note: ${note}\n`);
}
