import { InvalidArgumentError, describeValue } from '@mia/core';

/**
 * One text record of a language-model audit: the per-token log-probabilities of its tokens under the
 * target model (and optionally a reference model), with what the score-level attacks need besides.
 * Position t holds `log p(x_t | x_<t)` (natural log) for the t-th scored token; which tokens are
 * scored (usually every token after the first) is the exporter's choice, the same for every record.
 *
 * The JSONL layout (`parseTokenLogprobsJsonl`) has one such object per line, with the same field
 * names; the `.npy` layout (`tokenRecordsFromArrays`) pads ragged rows with NaN.
 */
export interface TokenLogprobRecord {
  /** Unique record id (a number in the file becomes its decimal string). */
  readonly id: string;
  /** 1 when the record is in the target's training data, 0 when not; absent when unknown. */
  readonly member?: 0 | 1;
  /** The scored tokens (strings or token ids), one per log-probability; informational. */
  readonly tokens?: readonly string[] | readonly number[];
  /** `log p(x_t | x_<t)` under the target model, each finite and ≤ 0; at least one. */
  readonly logprobs: Float64Array;
  /**
   * Min-K%++'s μ_t = E_{z∼p(·|x_<t)}[log p(z | x_<t)], the mean log-probability of the target's
   * next-token distribution at position t (`(probs * log_probs).sum(-1)`), one per log-probability.
   */
  readonly mu?: Float64Array;
  /**
   * Min-K%++'s σ_t, the standard deviation (not the variance) of log p(z | x_<t) under z∼p(·|x_<t):
   * `sqrt((probs * log_probs**2).sum(-1) - mu**2)`, each > 0, one per log-probability. Present
   * exactly when `mu` is.
   */
  readonly sigma?: Float64Array;
  /** `log p_ref(x_t | x_<t)` under a reference model (its own tokenisation: any length ≥ 1). */
  readonly refLogprobs?: Float64Array;
  /** The record's text (for the zlib attack's compressed length). */
  readonly text?: string;
  /**
   * Byte length of the zlib-compressed UTF-8 text (Python: `len(zlib.compress(text.encode()))`),
   * used by the zlib attack; `zlibByteLength(text)` computes the same number.
   */
  readonly zlibBytes?: number;
}

/** The fields of a {@link TokenLogprobRecord}, in the order of the documented layout. */
export const TOKEN_RECORD_FIELDS = ['id', 'member', 'tokens', 'logprobs', 'mu', 'sigma', 'refLogprobs', 'text', 'zlibBytes'] as const;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v);

/**
 * Builds a validated {@link TokenLogprobRecord} from a plain object (a parsed JSON line, or one made
 * in code): arrays become `Float64Array`s, a numeric id its string, a boolean `member` 0/1.
 *
 * @param value - The object, with the fields of {@link TokenLogprobRecord}; any other key is an error.
 * @param where - Prefix of error messages, e.g. `records.jsonl:12`. @default 'tokenLogprobRecord'
 * @param fail - Makes the error to throw from a message. @default InvalidArgumentError
 * @returns The record.
 * @throws the error of `fail` naming the field, the expected and the actual value.
 */
export function tokenLogprobRecord(
  value: unknown,
  where = 'tokenLogprobRecord',
  fail: (message: string) => Error = (m) => new InvalidArgumentError(m),
): TokenLogprobRecord {
  const bad = (field: string, expected: string, got: unknown): never => {
    throw fail(`${where}: ${field} must be ${expected}, got ${describeValue(got)}`);
  };
  if (!isPlainObject(value)) return bad('the record', 'a JSON object {"id", "logprobs", …}', value);
  for (const key of Object.keys(value))
    if (!(TOKEN_RECORD_FIELDS as readonly string[]).includes(key))
      bad(`field "${key}"`, `one of the fields ${TOKEN_RECORD_FIELDS.join(', ')}`, 'an unknown field');
  const { id, member, tokens, text, zlibBytes } = value;
  if (!((typeof id === 'string' && id !== '') || (typeof id === 'number' && Number.isInteger(id)))) bad('"id"', 'a non-empty string or an integer', id);
  const numbers = (field: string, check: (v: number) => boolean, expected: string, length?: number): Float64Array | undefined => {
    const raw = value[field];
    if (raw === undefined) return undefined;
    if (!Array.isArray(raw) && !ArrayBuffer.isView(raw)) return bad(`"${field}"`, `an array of ${expected}s`, raw);
    const list = raw as ArrayLike<unknown>;
    if (list.length === 0) bad(`"${field}"`, `a non-empty array of ${expected}s`, raw);
    if (length !== undefined && list.length !== length) bad(`"${field}"`, `an array of ${length} values (one per log-probability)`, `${list.length} values`);
    const out = new Float64Array(list.length);
    for (let i = 0; i < list.length; i++) {
      const v = list[i];
      if (typeof v !== 'number' || !check(v)) bad(`"${field}"[${i}]`, expected, v);
      out[i] = v as number;
    }
    return out;
  };
  const logprob = (v: number) => Number.isFinite(v) && v <= 0;
  const logprobs = numbers('logprobs', logprob, 'a finite log-probability ≤ 0');
  if (logprobs === undefined) return bad('"logprobs"', 'a non-empty array of log-probabilities (required)', undefined);
  const mu = numbers('mu', logprob, 'a finite mean log-probability ≤ 0', logprobs.length);
  const sigma = numbers('sigma', (v) => Number.isFinite(v) && v > 0, 'a finite standard deviation > 0', logprobs.length);
  if ((mu === undefined) !== (sigma === undefined))
    bad(mu === undefined ? '"mu"' : '"sigma"', `present with "${mu === undefined ? 'sigma' : 'mu'}" (Min-K%++ needs both)`, undefined);
  const refLogprobs = numbers('refLogprobs', logprob, 'a finite log-probability ≤ 0');
  if (member !== undefined && member !== 0 && member !== 1 && member !== true && member !== false) bad('"member"', '0, 1, true or false', member);
  if (tokens !== undefined) {
    const ok = Array.isArray(tokens) && (tokens.every((t) => typeof t === 'string') || tokens.every((t) => Number.isInteger(t) && (t as number) >= 0));
    if (!ok) bad('"tokens"', 'an array of strings or of non-negative integer token ids', tokens);
    if ((tokens as unknown[]).length !== logprobs.length)
      bad('"tokens"', `an array of ${logprobs.length} tokens (one per log-probability)`, `${(tokens as unknown[]).length} tokens`);
  }
  if (text !== undefined && typeof text !== 'string') bad('"text"', 'a string', text);
  if (zlibBytes !== undefined && !(Number.isInteger(zlibBytes) && (zlibBytes as number) > 0)) bad('"zlibBytes"', 'a positive integer', zlibBytes);
  return {
    id: String(id),
    ...(member === undefined ? {} : { member: member === true || member === 1 ? 1 : 0 }),
    ...(tokens === undefined ? {} : { tokens: tokens as readonly string[] | readonly number[] }),
    logprobs,
    ...(mu === undefined ? {} : { mu, sigma: sigma! }),
    ...(refLogprobs === undefined ? {} : { refLogprobs }),
    ...(text === undefined ? {} : { text: text as string }),
    ...(zlibBytes === undefined ? {} : { zlibBytes: zlibBytes as number }),
  };
}
