import type { ReferencesDescription } from '../doctor/audit-description';
import { contentHashes } from '../doctor/content-hashes';
import { recordFeatures, type RecordFeatures } from '../doctor/record-features';
import type { AuditProvenance } from './audit-validity';
import type { AuditSource } from './model-outputs';

/**
 * Collects a source's records as the model reads them (internal): their content hashes and
 * blind-baseline features batch by batch, keeping neither the records nor their values.
 */
export function recordReader(source: AuditSource): {
  visit: (values: Float32Array, start: number, numClasses: number) => void;
  result: () => { hashes: string[]; features: RecordFeatures };
} {
  const width = Math.max(
    1,
    source.inputShape.reduce((a, b) => a * b, 1),
  );
  const hashes: string[] = [];
  const parts: RecordFeatures[] = [];
  return {
    visit: (values, start, numClasses) => {
      hashes.push(...contentHashes(values, width));
      parts.push(recordFeatures(values, source.inputShape, source.labels.subarray(start, start + values.length / width), numClasses));
    },
    result: () => ({ hashes, features: joinFeatures(...parts) }),
  };
}

/** Feature rows of several parts, one after the other (internal). */
export function joinFeatures(...parts: RecordFeatures[]): RecordFeatures {
  const features = new Float32Array(parts.reduce((n, p) => n + p.features.length, 0));
  let offset = 0;
  for (const p of parts) {
    features.set(p.features, offset);
    offset += p.features.length;
  }
  return { features, numFeatures: parts[0]!.numFeatures, description: parts[0]!.description };
}

/** The provenance with the evaluation records' (and the population's) content hashes and the reference models' use filled in (internal). */
export function provenanceOf(given: AuditProvenance | undefined, hashes: readonly string[][], references: ReferencesDescription | undefined): AuditProvenance {
  const set = (k: number, ids: ArrayLike<number> | undefined) => ({ hashes: hashes[k]!, ...(ids === undefined ? {} : { ids }) });
  const refs =
    references === undefined
      ? given?.references
      : {
          ...given?.references,
          keep: references.keep,
          attacks: [...references.attacks, ...(given?.references?.attacks ?? [])],
          ...(hashes.length > 2 ? { population: set(2, given?.references?.population?.ids) } : {}),
        };
  return {
    ...given,
    members: set(0, given?.members?.ids),
    nonMembers: set(1, given?.nonMembers?.ids),
    ...(refs === undefined ? {} : { references: refs }),
  };
}
