import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidDatasetError } from '@mia/core';
import { parseNpy, signalsFromLogits } from '@mia/attacks';
import type { PreparedData } from '../data/prepare-data';
import { referenceExamples } from '../plan/reference-membership';
import type { RunReferences } from './reference-signals';

/** One reference model in Carlini et al.'s layout, over every example of the dataset. */
export interface ReferenceModelFile {
  /** `keep[i] = 1` when the model trained on dataset example i. */
  readonly keep: Uint8Array;
  /** Row-major `[size, numClasses]` logits (the first query when the file holds several); NaN rows were not computed. */
  readonly logits: Float32Array;
}

/**
 * Reads one reference model from the bytes of its `keep.npy` and `logits.npy` (Carlini et al.'s
 * `mi_lira_2021` layout): `keep` a bool (or 0/1 integer) vector with one entry per dataset example;
 * `logits` of shape `[n, C]`, `[n, A, C]` or `[n, 1, A, C]` (their `inference.py`: A augmented
 * queries, of which the first, the un-augmented image, is used).
 * @param source - Names the model in error messages (its directory).
 * @throws InvalidDatasetError naming the file, the expected and the actual shape or value.
 */
export function parseReferenceModel(keepBytes: Uint8Array, logitsBytes: Uint8Array, size: number, numClasses: number, source: string): ReferenceModelFile {
  const keepArray = parseNpy(keepBytes, `${source}/keep.npy`);
  if (keepArray.shape.length !== 1 || keepArray.shape[0] !== size)
    throw new InvalidDatasetError(`${source}/keep.npy must have shape (${size},), one entry per dataset example, got (${keepArray.shape.join(', ')})`);
  const keep = new Uint8Array(size);
  keepArray.data.forEach((v, i) => {
    if (v !== 0 && v !== 1) throw new InvalidDatasetError(`${source}/keep.npy must hold booleans (0/1), got ${v} at example ${i}`);
    keep[i] = v;
  });
  const raw = parseNpy(logitsBytes, `${source}/logits.npy`);
  const shape = raw.shape;
  const queries = shape.length === 2 ? 1 : shape.length === 3 ? shape[1]! : shape.length === 4 && shape[1] === 1 ? shape[2]! : 0;
  if (queries < 1 || shape[0] !== size || shape[shape.length - 1] !== numClasses)
    throw new InvalidDatasetError(
      `${source}/logits.npy must have shape (${size}, ${numClasses}), (${size}, A, ${numClasses}) or (${size}, 1, A, ${numClasses}), got (${shape.join(', ')})`,
    );
  const logits = new Float32Array(size * numClasses);
  for (let i = 0; i < size; i++) for (let c = 0; c < numClasses; c++) logits[i * numClasses + c] = raw.data[i * queries * numClasses + c]!;
  return { keep, logits };
}

/**
 * The reference models of a directory in Carlini et al.'s layout: every sub-directory (in name
 * order, numbers by value: `experiment-2` before `experiment-10`) with a `keep.npy`, and its `logits.npy` or, as
 * their `inference.py` writes, the last file of `logits/` in name order (the final epoch), and its
 * `hparams.json` when there is one (how it was trained: {@link parseReferenceHparams}). Returns
 * them as the attacks use them: over the audit examples and the population of `data`'s partition
 * (docs/protocol.md §1.7), keep masks as the files say.
 * @throws InvalidDatasetError when the directory holds no model, a file is missing or malformed, or
 *   a model has no logits (a NaN row) for an example of the audit set or the population.
 */
export async function importReferences(dir: string, data: PreparedData): Promise<RunReferences> {
  const { size, numClasses } = data.dataset;
  const entries = await readdir(dir, { withFileTypes: true }).catch((cause: unknown) => {
    throw new InvalidDatasetError(`references.import: cannot read directory ${dir}`, { cause });
  });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const { pool, population } = referenceExamples(data.partition.roles);
  const order = [...pool, ...population];
  const labels = Int32Array.from(order, (i) => data.dataset.y[i]!);
  const models = [];
  const keep: Uint8Array[] = [];
  const settings: Array<Readonly<Record<string, unknown>> | undefined> = [];
  for (const name of names) {
    const at = join(dir, name);
    const keepBytes = await readFile(join(at, 'keep.npy')).catch(() => undefined);
    if (keepBytes === undefined) continue;
    const logitsBytes = await readFile(join(at, 'logits.npy')).catch(async () => {
      const epochs = (await readdir(join(at, 'logits')).catch(() => [] as string[])).filter((f) => f.endsWith('.npy')).sort();
      if (epochs.length === 0) throw new InvalidDatasetError(`references.import: ${at} has keep.npy but neither logits.npy nor logits/*.npy`);
      return readFile(join(at, 'logits', epochs[epochs.length - 1]!));
    });
    const model = parseReferenceModel(new Uint8Array(keepBytes), new Uint8Array(logitsBytes), size, numClasses, at);
    const rows = new Float32Array(order.length * numClasses);
    order.forEach((index, j) => {
      const row = model.logits.subarray(index * numClasses, (index + 1) * numClasses);
      if (row.some((v) => !Number.isFinite(v)))
        throw new InvalidDatasetError(
          `${at}/logits.npy has no finite logits for dataset example ${index}, which the run audits; export logits for every example`,
        );
      rows.set(row, j * numClasses);
    });
    models.push(signalsFromLogits(rows, labels, numClasses));
    keep.push(Uint8Array.from(order, (index) => model.keep[index]!));
    const hparams = await readFile(join(at, 'hparams.json'), 'utf8').catch(() => undefined);
    settings.push(hparams === undefined ? undefined : parseReferenceHparams(hparams, `${at}/hparams.json`));
  }
  if (models.length === 0)
    throw new InvalidDatasetError(`references.import: ${dir} has no sub-directory with a keep.npy (one per reference model, e.g. experiment-0/keep.npy)`);
  return {
    models,
    keep,
    auditSize: pool.length,
    populationSize: population.length,
    population,
    seconds: models.map(() => 0),
    cache: models.map(() => 'imported' as const),
    settings,
  };
}

/**
 * How an imported reference model was trained, from its `hparams.json`: mia's own
 * (`{"format": "mia-reference-hparams-1", "architecture", "training", "data"}`, as
 * `mia references export` writes it) or any other JSON object, whose keys are compared as they are
 * (e.g. Carlini et al.'s `{"arch", "lr", "epochs", …}`, which matches no key of the target's and so is
 * shown, not checked). Returns the settings the audit doctor compares with the target's.
 * @throws InvalidDatasetError naming the file when it is not a JSON object.
 */
export function parseReferenceHparams(text: string, source: string): Readonly<Record<string, unknown>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new InvalidDatasetError(`${source} must be JSON (how the reference model was trained), got ${JSON.stringify(text.slice(0, 40))}`, { cause });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new InvalidDatasetError(
      `${source} must be a JSON object (architecture, training, data), got ${Array.isArray(parsed) ? 'an array' : JSON.stringify(parsed)}`,
    );
  const { format: _format, ...settings } = parsed as Record<string, unknown>;
  return settings;
}
