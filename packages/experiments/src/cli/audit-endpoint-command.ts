// `mia audit-endpoint <url>`: a black-box audit of a model behind a prediction endpoint, under a query budget.
import { readFile } from 'node:fs/promises';
import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, InvalidDatasetError, describeValue } from '@mia/core';
import { auditEndpoint, type AuditEndpointOptions, type EndpointAuditReport, type EndpointGranularity } from '@mia/attacks';
import { fileQueryCache } from './endpoint-cache-file';
import { cannotRead } from './read-score-file';

/** The flags of `mia audit-endpoint` (strings as commander gives them). */
export interface AuditEndpointCommandOptions {
  readonly records: string;
  readonly granularity: string;
  readonly budget: string;
  readonly topK?: string;
  readonly decimals?: string;
  readonly batchSize?: string;
  readonly rate?: string;
  readonly retries?: string;
  readonly timeout?: string;
  readonly cache?: string;
  readonly seed?: string;
  /** `--no-label-only` sets it false. */
  readonly labelOnly?: boolean;
  readonly json?: boolean;
  readonly quiet?: boolean;
}

/** The audited records of a JSONL file, one `{"id", "features", "label", "member"}` a line. */
export interface EndpointRecordsFile {
  readonly ids: string[];
  readonly features: number[][];
  readonly labels: number[];
  readonly members: number[];
}

/**
 * Reads the records of `mia audit-endpoint --records`: one JSON object a line with a unique `id`
 * (string or integer), `features` (numbers, the same count on every line), `label` (a class, integer
 * ≥ 0) and `member` (1/0 or true/false); blank lines are skipped.
 * @throws InvalidDatasetError naming the line and the field.
 */
export function parseEndpointRecords(text: string, source: string): EndpointRecordsFile {
  const out: EndpointRecordsFile = { ids: [], features: [], labels: [], members: [] };
  const seen = new Map<string, number>();
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    const where = `${source}:${i + 1}`;
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(line) as Record<string, unknown>;
    } catch (error) {
      throw new InvalidDatasetError(`${where}: not valid JSON (${(error as Error).message})`, { cause: error });
    }
    const bad = (field: string, expected: string, got: unknown): never => {
      throw new InvalidDatasetError(`${where}: "${field}" must be ${expected}, got ${describeValue(got)}`);
    };
    const { id, features, label, member } = value ?? {};
    if (!((typeof id === 'string' && id !== '') || Number.isInteger(id))) bad('id', 'a non-empty string or an integer', id);
    if (seen.has(String(id))) bad('id', `unique (first on line ${seen.get(String(id))})`, id);
    seen.set(String(id), i + 1);
    const width = out.features[0]?.length;
    if (!Array.isArray(features) || features.length === 0 || !features.every((v) => typeof v === 'number' && Number.isFinite(v)))
      bad('features', 'a non-empty array of finite numbers', features);
    if (width !== undefined && (features as number[]).length !== width)
      bad('features', `${width} number${width === 1 ? '' : 's'} like the first record's`, features);
    if (!(Number.isInteger(label) && (label as number) >= 0)) bad('label', 'a class label (an integer ≥ 0)', label);
    if (![0, 1, true, false].includes(member as never)) bad('member', '1, 0, true or false', member);
    out.ids.push(String(id));
    out.features.push(features as number[]);
    out.labels.push(label as number);
    out.members.push(member === true || member === 1 ? 1 : 0);
  });
  if (out.ids.length === 0) throw new InvalidDatasetError(`${source}: must hold the audited records, one JSON object a line, got none`);
  return out;
}

/** The options of {@link auditEndpoint} from the flags (numbers as typed: the audit's schema validates them whole). */
function auditOptions(opts: AuditEndpointCommandOptions): AuditEndpointOptions {
  const number = (flag: string, value: string | undefined) => {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError(`audit-endpoint: ${flag} must be a number, got ${JSON.stringify(value)}`);
    return n;
  };
  const entries: Array<[keyof AuditEndpointOptions, number | undefined]> = [
    ['budget', number('--budget', opts.budget)],
    ['topK', number('--top-k', opts.topK)],
    ['decimals', number('--decimals', opts.decimals)],
    ['batchSize', number('--batch-size', opts.batchSize)],
    ['requestsPerSecond', number('--rate', opts.rate)],
    ['retries', number('--retries', opts.retries)],
    ['timeoutMs', number('--timeout', opts.timeout)],
    ['seed', number('--seed', opts.seed)],
  ];
  return {
    granularity: opts.granularity as EndpointGranularity,
    ...(Object.fromEntries(entries.filter(([, v]) => v !== undefined)) as { budget: number }),
    ...(opts.labelOnly === false ? { labelOnly: false } : {}),
    ...(opts.cache === undefined ? {} : { cache: fileQueryCache(opts.cache) }),
  };
}

const pct = (v: number) => `${(100 * v).toFixed(1)}%`;

/** The text report of an endpoint audit. */
export function endpointReportText(url: string, report: EndpointAuditReport): string {
  const q = report.queries;
  const lines = [
    `endpoint audit of ${url} (answers: ${report.granularity}; ${report.members} members, ${report.nonMembers} non-members; queries used ${q.used} of ${q.budget}: ${q.sent} sent, ${q.fromCache} from the cache${q.resent > 0 ? `; ${q.resent} sent again after a failed or timed-out request, which the endpoint may have answered twice` : ''})`,
    `  ${'granularity'.padEnd(12)} ${'attack'.padEnd(18)} ${'queries'.padStart(8)} ${'AUC'.padStart(6)} ${'adv'.padStart(7)} ${'TPR@1%'.padStart(7)} ${'TPR@0.1%'.padStart(9)}`,
    ...report.rows.map(
      (r) =>
        `  ${`${r.granularity}${r.derived ? '*' : ''}`.padEnd(12)} ${r.attack.padEnd(18)} ${String(r.queries).padStart(8)} ${r.auc.toFixed(3).padStart(6)} ${pct(r.advantage).padStart(7)} ${pct(r.tprAtFpr[0]!.tpr).padStart(7)} ${pct(r.tprAtFpr[1]!.tpr).padStart(9)}`,
    ),
    `leakage by granularity (best advantage): ${report.leakage.map((l) => `${l.granularity} ${pct(l.advantage)} (${l.attack})`).join(', ')}`,
    "* derived from the endpoint's finer answers (what it would leak at that granularity, no extra query); best-threshold numbers are optimistic: thresholds chosen on the same records",
    ...report.notes.map((n) => `note: ${n}`),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * `mia audit-endpoint <url> --records <file.jsonl> --granularity <g> --budget <n>`: runs
 * `auditEndpoint` on the records with the answers cached in `--cache` (a rerun resumes without
 * repeating a query) and prints the report (JSON with `--json`); progress goes to standard error.
 */
export async function auditEndpointCommand(url: string, opts: AuditEndpointCommandOptions): Promise<void> {
  const options = auditOptions(opts);
  const text = await readFile(opts.records, 'utf8').catch((error: unknown) => {
    throw cannotRead('audit-endpoint', '--records', opts.records, error);
  });
  const file = parseEndpointRecords(text, opts.records);
  const x = tf.tensor2d(file.features);
  let phase = '';
  const onProgress = ({ phase: now, used, budget }: { phase: string; used: number; budget: number }) => {
    if (opts.quiet === true || now === phase) return;
    phase = now;
    process.stderr.write(
      `audit-endpoint: ${now === 'metric' ? 'metric attacks on the answers' : 'label-only boundary distance'} (${used} of ${budget} queries used)\n`,
    );
  };
  try {
    const report = await auditEndpoint(url, { x, y: file.labels, isMember: file.members, ids: file.ids }, { ...options, onProgress });
    process.stdout.write(
      opts.json === true ? `${JSON.stringify({ endpoint: url, records: opts.records, ...report }, null, 2)}\n` : endpointReportText(url, report),
    );
  } finally {
    x.dispose();
  }
}
