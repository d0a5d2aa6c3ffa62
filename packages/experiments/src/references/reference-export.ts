import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError } from '@mia/core';
import type { ExperimentConfig } from '../schema/run-schema';
import type { PreparedData } from '../data/prepare-data';
import type { ArtifactStore } from '../store/artifact-store';
import { toFloats } from '../store/float-bytes';
import { npyBytes } from './npy-bytes';
import { referenceIndexOf } from '../plan/reference-membership';
import { planReferences } from '../plan/plan-run';

const writeAtomic = async (path: string, bytes: Uint8Array) => {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, bytes);
  await rename(tmp, path);
};

/** The format tag of the `hparams.json` a reference model directory holds (mia's, beside Carlini et al.'s files). */
export const REFERENCE_HPARAMS_FORMAT = 'mia-reference-hparams-1';

/**
 * How a config's reference models are trained, as `hparams.json` states it: the architecture, the
 * training (without the checkpoint rule's validation slice, which references do not have) and the
 * data (the dataset's name and size). What `references: { import }` compares with the importing run's target.
 */
export function referenceHparams(config: Pick<ExperimentConfig, 'model' | 'training' | 'dataset'>): {
  format: typeof REFERENCE_HPARAMS_FORMAT;
  architecture: ExperimentConfig['model'];
  training: Record<string, unknown>;
  data: Record<string, unknown>;
} {
  const { checkpoint: _checkpoint, ...training } = config.training;
  const { dataDir: _dataDir, ...data } = config.dataset as ExperimentConfig['dataset'] & { dataDir?: unknown };
  return { format: REFERENCE_HPARAMS_FORMAT, architecture: config.model, training, data };
}

/**
 * Writes the reference models a config trained (they must be in `store`: `mia run` the config
 * first) in Carlini et al.'s layout: `<dir>/experiment-<k>/keep.npy`, a bool vector over every
 * dataset example, and `logits.npy`, float32 `[size, 1, 1, C]` like their `inference.py` (one
 * query), NaN for the examples the model was not scored on (every example outside the run's audit
 * set and population), and `hparams.json` ({@link referenceHparams}: how it was trained).
 * `references: { import: dir }` reads it back; so do their `score.py` and `plot.py` on the audited examples.
 * @returns the model directories written.
 * @throws InvalidArgumentError when the config trains no reference models or one is not in the store.
 */
export async function exportReferences(config: ExperimentConfig, data: PreparedData, store: ArtifactStore, dir: string): Promise<string[]> {
  const { references } = planReferences(config, data);
  if (references.length === 0)
    throw new InvalidArgumentError(
      `exportReferences: config ${config.name} trains no reference models (references.count is absent), got ${JSON.stringify(config.references)}`,
    );
  const { size, numClasses } = data.dataset;
  const written: string[] = [];
  for (const { role, key, memberIdx, nonMemberIdx } of references) {
    const entry = await store.read(key);
    if (entry === undefined)
      throw new InvalidArgumentError(
        `exportReferences: ${role} of config ${config.name} is not in the model cache (${key.slice(0, 12)}); run the config first`,
      );
    const keep = new Uint8Array(size);
    for (const i of memberIdx) keep[i] = 1;
    const logits = new Float32Array(size * numClasses).fill(NaN);
    const place = (indices: readonly number[], values: Float32Array) =>
      indices.forEach((index, row) => logits.set(values.subarray(row * numClasses, (row + 1) * numClasses), index * numClasses));
    place(memberIdx, toFloats(entry.files.get('members.logits')!));
    place(nonMemberIdx, toFloats(entry.files.get('non-members.logits')!));
    const at = join(dir, `experiment-${referenceIndexOf(role as `reference-${number}`)}`);
    await mkdir(at, { recursive: true });
    await writeAtomic(join(at, 'keep.npy'), npyBytes('|b1', [size], keep));
    await writeAtomic(join(at, 'logits.npy'), npyBytes('<f4', [size, 1, 1, numClasses], logits));
    await writeAtomic(join(at, 'hparams.json'), new TextEncoder().encode(`${JSON.stringify(referenceHparams(config), null, 2)}\n`));
    written.push(at);
  }
  return written;
}
