// Reading the scores file of `mia attack --scores` and `mia gate`: streamed (a CSV never becomes one
// string), its format sniffed, and every failure to read it named with its cause.
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { InvalidArgumentError } from '@mia/core';
import { buildScoreTable, parseNpy, parseScoreCsvStream, parseScoreJson, type ScoreTable } from '@mia/attacks';
import { chooseScoreFormat, SCORE_FILE_FORMATS, sniffScoreFormat } from './score-file-format';

/** Options of {@link readScoreFile}. */
export interface ReadScoreFileOptions {
  /** The command, for messages: `attack`, `gate`. */
  readonly command: string;
  /** What the file is to the command, for messages: `--scores`, `scores file`. */
  readonly flag: string;
  /** `--format json|csv|npy`; by default the extension, checked against the content, or the content. */
  readonly format?: string;
  /** With a .npy array: the labels and the 0/1 membership (.npy files). */
  readonly labels?: string;
  readonly members?: string;
  /** With a .npy array: what it holds. @default logits for 2-D arrays, losses for 1-D */
  readonly kind?: string;
  /** Receives a note when the format was sniffed (no known extension). */
  readonly onNote?: (line: string) => void;
}

/** Why a file cannot be read, from its error code (internal). */
function cause(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const why: Record<string, string> = {
    ENOENT: 'no such file',
    EISDIR: 'it is a directory',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    ENOTDIR: 'a component of the path is not a directory',
    ELOOP: 'too many symbolic links',
  };
  const text = code === undefined ? undefined : why[code];
  return text === undefined ? `${(error as Error)?.message ?? String(error)}` : `${text} (${code})`;
}

/** The error for a file that cannot be read, keeping the cause (internal). */
export function cannotRead(command: string, flag: string, path: string, error: unknown): InvalidArgumentError {
  return new InvalidArgumentError(`${command}: cannot read ${flag} ${path}: ${cause(error)}`, { cause: error });
}

/** Opens a file for reading; a directory is refused here (Linux opens directories) (internal). */
async function openForReading(command: string, flag: string, path: string): Promise<FileHandle> {
  const handle = await open(path, 'r').catch((error: unknown) => {
    throw cannotRead(command, flag, path, error);
  });
  const stats = await handle.stat();
  if (stats.isDirectory()) {
    await handle.close();
    throw cannotRead(command, flag, path, Object.assign(new Error('is a directory'), { code: 'EISDIR' }));
  }
  return handle;
}

/** The chunks of an open file, with read errors named (internal). */
async function* chunksOf(handle: FileHandle, command: string, flag: string, path: string): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of handle.createReadStream({ highWaterMark: 1 << 20, autoClose: false })) yield chunk as Uint8Array;
  } catch (error) {
    throw cannotRead(command, flag, path, error);
  } finally {
    await handle.close();
  }
}

/** The chunks of standard input (internal). */
async function* stdinChunks(command: string, flag: string, path: string): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of process.stdin) yield chunk as Uint8Array;
  } catch (error) {
    throw cannotRead(command, flag, path, error);
  }
}

async function concat(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

/**
 * Reads a scores file (JSON, CSV or a .npy array with `labels` and `members`) into a
 * {@link ScoreTable}: a CSV is parsed as it streams in; the format comes from `format`, else from
 * the extension checked against the first bytes, else from the first bytes (with a note).
 * @throws InvalidArgumentError naming the file and the cause when it cannot be read (no such file,
 *   a directory, permission denied) or its format is unclear; InvalidDatasetError from the parsers.
 */
export async function readScoreFile(path: string, options: ReadScoreFileOptions): Promise<ScoreTable> {
  const { command, flag } = options;
  // Bad flags fail before anything is opened (a FIFO may wait for its writer).
  if (options.format !== undefined && !(SCORE_FILE_FORMATS as readonly string[]).includes(options.format.toLowerCase()))
    throw new InvalidArgumentError(`${command}: --format must be json, csv or npy, got ${JSON.stringify(options.format)}`);
  if (options.kind !== undefined && !['logits', 'probabilities', 'losses', 'scores'].includes(options.kind))
    throw new InvalidArgumentError(`${command}: --kind must be logits, probabilities, losses or scores, got ${JSON.stringify(options.kind)}`);
  // Standard input is read from the process's stream: opening /dev/stdin fails when it is a socket.
  const stdin = path === '-' || path === '/dev/stdin';
  const chunks = stdin ? stdinChunks(command, flag, path) : chunksOf(await openForReading(command, flag, path), command, flag, path);
  // The head: enough bytes for the .npy magic and the first line (or 4 KiB of it).
  const head: Uint8Array[] = [];
  let headLength = 0;
  let ended = false;
  while (headLength < 4096 && !head.some((c) => c.includes(10))) {
    const next = await chunks.next();
    if (next.done === true) {
      ended = true;
      break;
    }
    head.push(next.value);
    headLength += next.value.length;
  }
  const sniffed = sniffScoreFormat(Buffer.concat(head));
  let chosen: ReturnType<typeof chooseScoreFormat>;
  try {
    chosen = chooseScoreFormat(path, sniffed, options);
    const extra = (['labels', 'members', 'kind'] as const).filter((k) => options[k] !== undefined);
    if (chosen.format !== 'npy' && extra.length > 0)
      throw new InvalidArgumentError(
        `${command}: ${extra.map((k) => `--${k}`).join(', ')} ${extra.length === 1 ? 'applies' : 'apply'} to a .npy array only, got a ${chosen.format.toUpperCase()} ${flag} ${path} (it has its own label and member columns)`,
      );
  } catch (error) {
    await chunks.return(undefined); // closes the file
    throw error;
  }
  const { format, note } = chosen;
  if (note !== undefined) options.onNote?.(`${command}: ${note}`);
  async function* all(): AsyncGenerator<Uint8Array> {
    yield* head;
    if (!ended) yield* chunks;
  }
  if (format === 'csv') return parseScoreCsvStream(all(), path);
  const bytes = await concat(all());
  if (format === 'json') return parseScoreJson(new TextDecoder().decode(bytes), path);
  return npyTable(path, bytes, options);
}

/** A .npy score array with its labels and membership arrays (internal). */
async function npyTable(path: string, bytes: Uint8Array, options: ReadScoreFileOptions): Promise<ScoreTable> {
  const { command, flag } = options;
  if (options.labels === undefined || options.members === undefined) {
    throw new InvalidArgumentError(
      `${command}: ${flag} ${basename(path)} is a .npy array; also give --labels <labels.npy> and --members <membership.npy> (or export JSON/CSV, see docs/guides/audit-pytorch.md)`,
    );
  }
  const read = (file: string, what: string) =>
    readFile(file).catch((error: unknown) => {
      throw cannotRead(command, what, file, error);
    });
  const values = parseNpy(bytes, path);
  const kind = options.kind ?? (values.shape.length === 2 ? 'logits' : 'losses');
  return buildScoreTable(`${command}(${basename(path)})`, {
    labels: parseNpy(await read(options.labels, '--labels'), options.labels).data,
    isMember: parseNpy(await read(options.members, '--members'), options.members).data,
    [kind]: values.data,
    ...(values.shape.length === 2 ? { numClasses: values.shape[1]! } : {}),
  });
}
