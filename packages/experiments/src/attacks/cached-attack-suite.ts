import { runAttackSuite, type AttackSuiteInput, type AttackSuiteResult, type ModelSignals, type ShadowAttack } from '@mia/attacks';
import type { ArtifactStore } from '../store/artifact-store';
import type { UnitClaim } from '../store/unit-claim';
import { isTrainedAttack } from './registry';
import { isNoShadow, isShadowFree, noShadowSignals } from './no-shadow';
import { attackConfigOf } from '../schema/run-schema';
import { bytesContentHash, contentHash } from '../store/canonical-hash';
import type { DefensePlan, RunPlan } from '../plan/plan-run';
import { packageVersions } from '../store/versions';

/** Options of {@link runCachedAttackSuite}. */
export interface CachedAttackSuiteOptions {
  readonly store: ArtifactStore;
  /** Which attacks train a model (the NN and augmentation attacks); only these are cached, the others are cheap. */
  readonly isTrained: (name: string) => boolean;
  /** The options the attacks were created with (seed, epochs): part of each entry's key. */
  readonly attackOptions: Record<string, unknown>;
  /** The cache keys of the units the signals come from (target, shadows): part of each entry's key. */
  readonly units: Record<string, unknown>;
  /**
   * More of an attack's key, by the attack's (result) name: its config entry when it has params or a
   * label (`{ attack, params }`); undefined for an attack written as its bare name, whose key stays
   * what it was before attacks had params.
   */
  readonly entryOf?: (name: string) => Record<string, unknown> | undefined;
  /** Names the row in log lines, e.g. the defense's label. */
  readonly label: string;
  readonly onLog?: (line: string) => void;
  /** Stops waiting for another process's claim on an attack model (rejects with `AbortError`). */
  readonly signal?: AbortSignal;
}

/**
 * The runner's {@link CachedAttackSuiteOptions} for one defense: its target's and shadows' unit keys,
 * the trained attacks of the registry, and each attack's config entry (by its result name).
 */
export function attackCacheOptions(
  plan: RunPlan,
  row: DefensePlan,
  store: ArtifactStore,
  attackOptions: Record<string, unknown>,
  onLog?: (line: string) => void,
  signal?: AbortSignal,
): CachedAttackSuiteOptions {
  const { config } = plan;
  const entries = new Map(config.attacks.map((entry) => [attackConfigOf(entry).label, attackConfigOf(entry)]));
  return {
    store,
    isTrained: (name) => isTrainedAttack(entries.get(name)?.name ?? name),
    entryOf: (name) => {
      const entry = entries.get(name);
      return entry === undefined || (entry.label === entry.name && Object.keys(entry.params).length === 0)
        ? undefined
        : { attack: entry.name, params: entry.params };
    },
    attackOptions,
    units: {
      target: row.target.key,
      shadows: row.shadows.map((unit) => unit.key),
      // A trained attack that uses reference models depends on them too (absent without: keys unchanged).
      ...(config.references === undefined ? {} : { references: config.references.import ?? plan.references.map((unit) => unit.key) }),
    },
    label: row.label,
    onLog,
    ...(signal === undefined ? {} : { signal }),
  };
}

/** What a trained attack produced on the target; what a cache entry holds. */
interface AttackOutputs {
  scores?: Float64Array;
  decisions?: Uint8Array;
  extra?: Record<string, number>;
}

/**
 * SHA-256 of every number of some signals (typed arrays by their bytes, in key order): two signal
 * sets with the same digest give a trained attack the same inputs.
 */
export function signalsDigest(signals: unknown): string {
  return bytesContentHash(signals);
}

/**
 * The cache key of one trained attack's outputs: attack, its options, the signals (content and source
 * units), code versions. An attack that does not use the shadow models (`shadowFree`, its definition's
 * `needs.shadow: false`) has neither their signals nor their units in its key, so it is the same in
 * a run with shadow models and in one without; the key of every other attack is what it was before
 * `needs.shadow` could be false.
 */
export function attackOutputKey(
  name: string,
  input: AttackSuiteInput,
  options: Pick<CachedAttackSuiteOptions, 'attackOptions' | 'units' | 'entryOf'>,
  shadowFree = false,
): string {
  const entry = options.entryOf?.(name);
  const units = shadowFree ? Object.fromEntries(Object.entries(options.units).filter(([k]) => k !== 'shadows')) : options.units;
  return contentHash({
    ...(entry === undefined ? {} : { entry }),
    kind: 'attack-output-1',
    attack: name,
    options: options.attackOptions,
    units,
    target: signalsDigest(input.target),
    shadow: shadowFree ? 'none' : signalsDigest(input.shadow),
    versions: packageVersions(),
  });
}

// Extras may hold NaN or ±Infinity, which JSON has no literal for: stored as strings, restored on read.
const encodeExtra = (extra: Record<string, number>) =>
  new TextEncoder().encode(JSON.stringify(extra, (_, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v)));
const decodeExtra = (bytes: Uint8Array) =>
  JSON.parse(new TextDecoder().decode(bytes), (_, v: unknown) => (typeof v === 'string' ? Number(v) : v)) as Record<string, number>;
const bytesOf = (a: Float64Array | Uint8Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** An attack that answers from a cache entry: no fitting, the recorded scores, decisions and extras. */
function replayAttack(attack: ShadowAttack, cached: AttackOutputs): ShadowAttack {
  const check = (target: ModelSignals) => {
    if (cached.scores!.length !== target.size)
      throw new Error(`cached ${attack.name} outputs have ${cached.scores!.length} scores for ${target.size} target examples`);
  };
  return {
    name: attack.name,
    prepare: async () => undefined,
    score: (target) => (check(target), Float64Array.from(cached.scores!)),
    ...(cached.decisions === undefined ? {} : { decide: () => Uint8Array.from(cached.decisions!) }),
    ...(cached.extra === undefined ? {} : { report: () => ({ ...cached.extra }) }),
    dispose: () => attack.dispose(),
  };
}

/** An attack that fits as usual, logs how long it took, and records its outputs for the cache. */
function recordingAttack(attack: ShadowAttack, label: string, recorded: AttackOutputs, onLog?: (line: string) => void): ShadowAttack {
  return {
    name: attack.name,
    prepare: async (fit) => {
      const started = Date.now();
      const on = isNoShadow(fit) || isShadowFree(attack) ? '' : ` on ${fit.members.size + fit.nonMembers.size} shadow signals`;
      onLog?.(`training   ${label}: ${attack.name} attack model${on}`);
      await attack.prepare(fit);
      onLog?.(`trained    ${label}: ${attack.name} attack model in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    },
    score: (target) => (recorded.scores = attack.score(target)),
    ...(attack.decide === undefined ? {} : { decide: (target: ModelSignals) => (recorded.decisions = attack.decide!(target)) }),
    ...(attack.report === undefined ? {} : { report: (target: ModelSignals, isMember: Uint8Array) => (recorded.extra = attack.report!(target, isMember)) }),
    dispose: () => attack.dispose(),
  };
}

async function readOutputs(store: ArtifactStore, key: string, label: string, onLog?: (line: string) => void): Promise<AttackOutputs | undefined> {
  const entry = await store.read(key, {
    onCorrupted: (problems) => onLog?.(`corrupted  ${label} (${key.slice(0, 12)}): ${problems.join('; ')}; training it again`),
  });
  if (entry === undefined) return undefined;
  const scores = entry.files.get('scores.f64');
  if (scores === undefined) return undefined;
  const decisions = entry.files.get('decisions.u8');
  const extra = entry.files.get('extra.json');
  return {
    scores: new Float64Array(scores.buffer.slice(scores.byteOffset, scores.byteOffset + scores.byteLength)),
    decisions: decisions === undefined ? undefined : Uint8Array.from(decisions),
    extra: extra === undefined ? undefined : decodeExtra(extra),
  };
}

/**
 * Claims the attack models `keys` in the store (in key order, so two processes claiming overlapping
 * sets never wait on each other in a cycle), as model units are claimed: a process that finds one
 * claimed waits until its holder has written it. A store without claims gives none.
 */
async function claimAll(keys: readonly string[], options: CachedAttackSuiteOptions): Promise<UnitClaim[]> {
  const claims: UnitClaim[] = [];
  try {
    for (const key of [...new Set(keys)].sort()) {
      const claim = await options.store.claim?.(key, {
        onWait: (h) => options.onLog?.(`waiting    ${options.label}: attack model: pid ${h.pid} on ${h.host} is training it (${key.slice(0, 12)})`),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      if (claim !== undefined) claims.push(claim);
    }
    return claims;
  } catch (error) {
    await Promise.all(claims.map((c) => c.release()));
    throw error;
  }
}

/**
 * {@link runAttackSuite} with the outputs of trained attacks (NN attacks: an attack model fitted on
 * the shadow signals) cached in `store`, content-addressed by the attack, its options, the digest of
 * the target and shadow signals, their source units and the code versions. A cached attack is not
 * trained again: its scores, decisions and extras on the target come from the entry, so the
 * results equal the run that trained it. An attack model missing from the cache is claimed in the
 * store first, like a model unit (`store.claim`): of two processes that need it at once, one trains
 * it and the other waits and reads it, so it is trained once. Other attacks (threshold fits) run as
 * usual. Without `input.shadow` (a run none of whose attacks uses the shadow models), `prepare` gets a
 * stand-in that throws when read.
 */
export async function runCachedAttackSuite(input: AttackSuiteInput, options: CachedAttackSuiteOptions): Promise<AttackSuiteResult> {
  const { store, onLog } = options;
  // Per attack: a trained one's cache key and entry (when cached); other attacks have neither.
  const plan: { attack: ShadowAttack; key?: string; label?: string; cached?: AttackOutputs | undefined }[] = [];
  for (const attack of input.attacks ?? []) {
    if (!options.isTrained(attack.name)) {
      plan.push({ attack });
      continue;
    }
    const key = attackOutputKey(attack.name, input, options, isShadowFree(attack));
    const label = `${options.label}: ${attack.name} attack`;
    plan.push({ attack, key, label, cached: await readOutputs(store, key, label, onLog) });
  }
  const misses = plan.filter((p) => p.key !== undefined && p.cached === undefined);
  // An attack model takes a while to train: find out that it could not be kept before training it.
  if (misses.length > 0) await store.ensureWritable?.();
  const claims = await claimAll(
    misses.map((p) => p.key!),
    options,
  );
  try {
    // Another process may have trained a claimed model while this one waited for it: read it again.
    if (claims.length > 0) for (const p of misses) p.cached = await readOutputs(store, p.key!, p.label!, onLog);
    const pending: { key: string; name: string; recorded: AttackOutputs }[] = [];
    const attacks = plan.map(({ attack, key, label, cached }) => {
      if (key === undefined) return attack;
      if (cached !== undefined) {
        onLog?.(`cache hit  ${label!} (${key.slice(0, 12)})`);
        return replayAttack(attack, cached);
      }
      const recorded: AttackOutputs = {};
      pending.push({ key, name: attack.name, recorded });
      return recordingAttack(attack, options.label, recorded, onLog);
    });
    // No shadow signals: every attack is shadow-free (the runner trains shadows for any other), and
    // each gets its own stand-in; this one only answers the suite's check that shadow attacks have a fit set.
    const shadow = input.shadow ?? noShadowSignals(`${options.label}: the run trained no shadow models, which an attack of it reads`);
    const result = await runAttackSuite({ ...input, shadow, attacks });
    for (const { key, name, recorded } of pending) {
      if (recorded.scores === undefined) continue;
      const files: Record<string, Uint8Array> = { 'scores.f64': bytesOf(recorded.scores) };
      if (recorded.decisions !== undefined) files['decisions.u8'] = bytesOf(recorded.decisions);
      if (recorded.extra !== undefined) files['extra.json'] = encodeExtra(recorded.extra);
      await store.write(key, files, { kind: 'attack-output', label: `${options.label}/${name}`, attack: name, units: options.units });
    }
    return result;
  } finally {
    await Promise.all(claims.map((c) => c.release()));
  }
}
