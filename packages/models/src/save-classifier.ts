import { CheckpointError, InvalidArgumentError } from '@mia/core';
import type { ModelClassifier } from './model-classifier';
import { decodeClassifier, encodeClassifier, parseManifest } from './serialize-classifier';

const MANIFEST = 'model.json';
const WEIGHTS = 'weights.bin';

async function nodeModules() {
  // Dynamic imports keep the rest of the package usable in browsers.
  const [fs, path] = await Promise.all([import('node:fs/promises'), import('node:path')]);
  return { fs, path };
}

/**
 * Saves a classifier to `dir` as `model.json` (format version, architecture, options, tfjs weight
 * specs, weight hash) and `weights.bin` (tfjs weights format). Each file is written to a temporary
 * name and renamed, so a crash never leaves a half-written file; weights go first, so a readable
 * `model.json` never points at missing weights. Node.js only.
 * @throws InvalidArgumentError when `model` was not built by `@mia/models` or `dir` is empty.
 */
export async function saveClassifier(model: ModelClassifier, dir: string): Promise<void> {
  if (typeof dir !== 'string' || dir.length === 0) throw new InvalidArgumentError(`saveClassifier: dir must be a non-empty path, got ${String(dir)}`);
  const { manifest, weights } = await encodeClassifier(model);
  const { fs, path } = await nodeModules();
  await fs.mkdir(dir, { recursive: true });
  const write = async (name: string, data: Uint8Array | string) => {
    const target = path.join(dir, name);
    const tmp = `${target}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
    await fs.writeFile(tmp, data);
    await fs.rename(tmp, target);
  };
  await write(WEIGHTS, weights);
  await write(MANIFEST, JSON.stringify(manifest, null, 1));
}

/**
 * Loads a classifier saved by {@link saveClassifier}. Node.js only.
 * @throws CheckpointError when a file is missing, unreadable, corrupted, of another format version,
 * or does not fit the stored architecture.
 */
export async function loadClassifier(dir: string): Promise<ModelClassifier> {
  const { fs, path } = await nodeModules();
  let json: Uint8Array;
  let weights: Uint8Array;
  try {
    [json, weights] = await Promise.all([fs.readFile(path.join(dir, MANIFEST)), fs.readFile(path.join(dir, WEIGHTS))]);
  } catch (cause) {
    throw new CheckpointError(`loadClassifier: cannot read ${MANIFEST} and ${WEIGHTS} in ${dir}: ${(cause as Error).message}`, { cause });
  }
  return decodeClassifier(parseManifest('loadClassifier', json), new Uint8Array(weights.buffer, weights.byteOffset, weights.byteLength));
}
