import * as tf from '@tensorflow/tfjs-core';
import { CheckpointError, InvalidArgumentError } from '@mia/core';
import { createModel } from './create-model';
import type { ModelClassifier, ModelConfig } from './model-classifier';

/** Current version of the checkpoint format; readers reject other versions. */
export const CHECKPOINT_FORMAT_VERSION = 1;

/** The `model.json` of a saved classifier (tfjs weight specs plus what is needed to rebuild it). */
export interface ClassifierManifest {
  readonly format: 'mia-classifier';
  readonly formatVersion: number;
  /** Registry name for `createModel`. */
  readonly architecture: string;
  readonly config: ModelConfig;
  /** tfjs weight specs (`tf.io.encodeWeights`), PyTorch-like names, trainable then state variables. */
  readonly weightSpecs: tf.io.WeightsManifestEntry[];
  readonly weightsByteLength: number;
  /** FNV-1a 32-bit hash of the weight bytes, hex, to detect corruption. */
  readonly weightsHash: string;
}

const MAGIC = 'MIACLS01';

/** FNV-1a over the bytes (detects truncation and bit flips; not cryptographic). */
export function fnv1aHex(bytes: Uint8Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

function checkModel(fn: string, model: ModelClassifier): void {
  if (typeof model !== 'object' || model === null || typeof model.namedVariables !== 'function' || typeof model.architecture !== 'string') {
    throw new InvalidArgumentError(`${fn}: model must be a classifier built by @mia/models (createModel), got ${String(model)}`);
  }
}

/**
 * Encodes a classifier's architecture, options and weights (trainable parameters and batch-norm
 * running statistics) as a manifest plus tfjs-format weight bytes.
 * @throws InvalidArgumentError when `model` was not built by `@mia/models`.
 */
export async function encodeClassifier(model: ModelClassifier): Promise<{ manifest: ClassifierManifest; weights: Uint8Array }> {
  checkModel('encodeClassifier', model);
  const named = model.namedVariables().map(({ name, variable }) => ({ name, tensor: variable }));
  const { data, specs } = await tf.io.encodeWeights(named);
  const weights = new Uint8Array(data as ArrayBuffer);
  const manifest: ClassifierManifest = {
    format: 'mia-classifier',
    formatVersion: CHECKPOINT_FORMAT_VERSION,
    architecture: model.architecture,
    config: model.config,
    weightSpecs: specs,
    weightsByteLength: weights.byteLength,
    weightsHash: fnv1aHex(weights),
  };
  return { manifest, weights };
}

/**
 * Rebuilds a classifier from {@link encodeClassifier}'s output.
 * @throws CheckpointError when the manifest is not a `@mia/models` checkpoint of a supported
 * version, the weights are truncated or corrupted, or the weights do not fit the architecture.
 */
export function decodeClassifier(manifest: unknown, weights: Uint8Array): ModelClassifier {
  const m = manifest as Partial<ClassifierManifest> | null;
  if (typeof m !== 'object' || m === null || m.format !== 'mia-classifier') {
    throw new CheckpointError('decodeClassifier: not a @mia/models checkpoint (format must be "mia-classifier")');
  }
  if (m.formatVersion !== CHECKPOINT_FORMAT_VERSION) {
    throw new CheckpointError(`decodeClassifier: formatVersion must be ${CHECKPOINT_FORMAT_VERSION}, got ${String(m.formatVersion)}`);
  }
  if (!Array.isArray(m.weightSpecs) || typeof m.architecture !== 'string' || typeof m.config !== 'object') {
    throw new CheckpointError('decodeClassifier: manifest lacks architecture, config or weightSpecs');
  }
  if (weights.byteLength !== m.weightsByteLength || fnv1aHex(weights) !== m.weightsHash) {
    throw new CheckpointError(
      `decodeClassifier: weights are corrupted or truncated (${weights.byteLength} bytes, hash ${fnv1aHex(weights)}; expected ${String(m.weightsByteLength)} bytes, hash ${String(m.weightsHash)})`,
    );
  }
  let model: ModelClassifier;
  try {
    model = createModel(m.architecture, m.config as Record<string, unknown>);
  } catch (cause) {
    throw new CheckpointError(`decodeClassifier: cannot rebuild architecture ${JSON.stringify(m.architecture)}: ${(cause as Error).message}`, { cause });
  }
  try {
    assignWeights(model, m.weightSpecs, weights);
    return model;
  } catch (error) {
    model.dispose();
    throw error;
  }
}

function assignWeights(model: ModelClassifier, specs: tf.io.WeightsManifestEntry[], weights: Uint8Array): void {
  const expected = model.namedVariables();
  const byName = new Map(specs.map((s) => [s.name, s]));
  for (const { name, variable } of expected) {
    const spec = byName.get(name);
    if (spec === undefined) throw new CheckpointError(`decodeClassifier: ${model.architecture} needs weight ${name}, which the checkpoint lacks`);
    if (spec.dtype !== 'float32' || spec.shape.join(',') !== variable.shape.join(',')) {
      throw new CheckpointError(
        `decodeClassifier: weight ${name} must be float32 [${variable.shape.join(', ')}], got ${spec.dtype} [${spec.shape.join(', ')}]`,
      );
    }
  }
  if (specs.length !== expected.length) {
    throw new CheckpointError(`decodeClassifier: checkpoint has ${specs.length} weights, ${model.architecture} has ${expected.length}`);
  }
  const buffer = weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength) as ArrayBuffer;
  let decoded: tf.NamedTensorMap;
  try {
    decoded = tf.io.decodeWeights(buffer, specs);
  } catch (cause) {
    throw new CheckpointError(`decodeClassifier: cannot decode weights: ${(cause as Error).message}`, { cause });
  }
  for (const { name, variable } of expected) variable.assign(decoded[name]!);
  tf.dispose(Object.values(decoded));
}

/**
 * Serialises a classifier to one byte array (magic `MIACLS01`, manifest length, JSON manifest,
 * weights), e.g. to send it to a worker or store it in a cache.
 * @throws InvalidArgumentError when `model` was not built by `@mia/models`.
 */
export async function serializeClassifier(model: ModelClassifier): Promise<Uint8Array> {
  const { manifest, weights } = await encodeClassifier(model);
  const json = new TextEncoder().encode(JSON.stringify(manifest));
  const out = new Uint8Array(12 + json.length + weights.length);
  out.set(new TextEncoder().encode(MAGIC), 0);
  new DataView(out.buffer).setUint32(8, json.length, true);
  out.set(json, 12);
  out.set(weights, 12 + json.length);
  return out;
}

/**
 * Rebuilds a classifier from {@link serializeClassifier}'s bytes.
 * @throws CheckpointError on bytes that are not a checkpoint, truncated or corrupted bytes, or a mismatch with the architecture.
 */
export function deserializeClassifier(bytes: Uint8Array): ModelClassifier {
  if (!(bytes instanceof Uint8Array) || bytes.length < 12 || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) {
    throw new CheckpointError('deserializeClassifier: bytes do not start with the MIACLS01 magic');
  }
  const jsonLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(8, true);
  if (12 + jsonLength > bytes.length) throw new CheckpointError(`deserializeClassifier: truncated manifest (${bytes.length} bytes)`);
  return decodeClassifier(parseManifest('deserializeClassifier', bytes.subarray(12, 12 + jsonLength)), bytes.subarray(12 + jsonLength));
}

/** Parses manifest JSON bytes, mapping syntax errors to {@link CheckpointError}. @internal */
export function parseManifest(fn: string, json: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(json)) as unknown;
  } catch (cause) {
    throw new CheckpointError(`${fn}: manifest is not valid JSON`, { cause });
  }
}
