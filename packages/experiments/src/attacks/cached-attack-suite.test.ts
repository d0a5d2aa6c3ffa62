import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { metricAttack, nnMlhAttack, signalsFromLogits, type ModelSignals, type ShadowAttack, type SplitSignals } from '@mia/attacks';
import { seededRandom } from '@mia/core';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { isTrainedAttack } from './registry';
import { isNoShadow, noShadowSignals, withoutShadow } from './no-shadow';
import { attackOutputKey, runCachedAttackSuite, signalsDigest, type CachedAttackSuiteOptions } from './cached-attack-suite';

beforeAll(async () => {
  await tf.setBackend('cpu');
  await tf.ready();
});
const dir = mkdtempSync(join(tmpdir(), 'mia-attack-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const C = 4;
/** Members have a true-class logit margin of 3, non-members of 0.5. */
function signals(n: number, margin: number, seed: number): ModelSignals {
  const random = seededRandom(seed);
  const labels = Array.from({ length: n }, () => random.int(C));
  return signalsFromLogits(
    labels.flatMap((y) => Array.from({ length: C }, (_, j) => random.normal() + (j === y ? margin : 0))),
    labels,
    C,
  );
}
const split = (seed: number): SplitSignals => ({ members: signals(80, 3, seed), nonMembers: signals(80, 0.5, seed + 1) });
const shadow = split(10);
const target = split(20);

/** Counts how often an attack is fitted. */
function counted(attack: ShadowAttack, fits: string[]): ShadowAttack {
  return { ...attack, prepare: async (fit) => (fits.push(attack.name), attack.prepare(fit)), score: (t) => attack.score(t), decide: (t) => attack.decide!(t) };
}

describe('runCachedAttackSuite', () => {
  it('trains an NN attack once: a rerun on the same signals replays its outputs exactly, without fitting it', async () => {
    const store = new DirectoryArtifactStore(join(dir, 'a'));
    const lines: string[] = [];
    const options: CachedAttackSuiteOptions = {
      store,
      isTrained: isTrainedAttack,
      attackOptions: { seed: 7, nnEpochs: 3 },
      units: { target: 'a'.repeat(64), shadows: ['b'.repeat(64)] },
      label: 'undefended',
      onLog: (line) => lines.push(line),
    };
    const run = async (fits: string[], input = { target, shadow }) => {
      const attacks = [counted(nnMlhAttack({ seed: 7, epochs: 3 }), fits), counted(metricAttack('loss'), fits)];
      try {
        return await runCachedAttackSuite({ ...input, attacks }, options);
      } finally {
        for (const a of attacks) a.dispose();
      }
    };
    const first: string[] = [];
    const trained = await run(first);
    expect(first).toEqual(['nn-mlh', 'loss']);
    expect(lines).toEqual([
      'training   undefended: nn-mlh attack model on 160 shadow signals',
      expect.stringMatching(/^trained {4}undefended: nn-mlh attack model in \d+\.\d s$/),
    ]);
    // Only the trained attack has an entry; the threshold attack is refitted (it takes milliseconds).
    const key = attackOutputKey('nn-mlh', { target, shadow }, options);
    expect((await store.list()).map((m) => [m.key, m.meta.kind, m.meta.label])).toEqual([[key, 'attack-output', 'undefended/nn-mlh']]);

    lines.length = 0;
    const second: string[] = [];
    const replayed = await run(second);
    expect(second).toEqual(['loss']); // nn-mlh came from the cache
    expect(lines).toEqual([`cache hit  undefended: nn-mlh attack (${key.slice(0, 12)})`]);
    expect(replayed.attacks.map((a) => a.name)).toEqual(['nn-mlh', 'loss']);
    const [nnTrained, nnReplayed] = [trained.attacks[0]!, replayed.attacks[0]!];
    expect(nnReplayed.scores).toEqual(nnTrained.scores);
    expect(nnReplayed.decisions).toEqual(nnTrained.decisions);
    expect([nnReplayed.advantage, nnReplayed.auc, nnReplayed.decisionBased]).toEqual([nnTrained.advantage, nnTrained.auc, true]);
    expect(replayed.maxAdvantage).toBe(trained.maxAdvantage);

    // Other signals (one logit changed in the shadow) are another key: the attack is trained again.
    const logits = Float32Array.from(shadow.members.logits!);
    logits[0] = logits[0]! + 1;
    const changed = { ...shadow, members: signalsFromLogits(logits, shadow.members.labels, C) };
    const third: string[] = [];
    await run(third, { target, shadow: changed });
    expect(third).toEqual(['nn-mlh', 'loss']);
    expect(await store.list()).toHaveLength(2);
  });

  it('two suites that need the same attack model at once (two runs on one cache) train it once: one waits on the claim, then replays it', async () => {
    const store = new DirectoryArtifactStore(join(dir, 'concurrent'));
    const fits: string[] = [];
    const lines: string[] = [];
    const options: CachedAttackSuiteOptions = {
      store,
      isTrained: isTrainedAttack,
      attackOptions: { seed: 7, nnEpochs: 3 },
      units: { target: 'c'.repeat(64), shadows: ['d'.repeat(64)] },
      label: 'undefended',
      onLog: (line) => lines.push(line),
    };
    const run = async () => {
      const attacks = [counted(nnMlhAttack({ seed: 7, epochs: 3 }), fits), counted(metricAttack('loss'), fits)];
      try {
        return await runCachedAttackSuite({ target, shadow, attacks }, options);
      } finally {
        for (const a of attacks) a.dispose();
      }
    };
    const [a, b] = await Promise.all([run(), run()]);
    expect(fits.filter((f) => f === 'nn-mlh')).toEqual(['nn-mlh']);
    const key = attackOutputKey('nn-mlh', { target, shadow }, options).slice(0, 12);
    expect(lines.filter((l) => !l.startsWith('trained '))).toEqual([
      'training   undefended: nn-mlh attack model on 160 shadow signals',
      expect.stringMatching(new RegExp(`^waiting {4}undefended: attack model: pid ${process.pid} on .+ is training it \\(${key}\\)$`)),
      `cache hit  undefended: nn-mlh attack (${key})`,
    ]);
    expect(b.attacks[0]!.scores).toEqual(a.attacks[0]!.scores);
    expect(readdirSync(join(dir, 'concurrent', '.claims'))).toEqual([]); // every claim released
  });

  it('keys on the attack, its options, the source units and every signal value', () => {
    const base = { attackOptions: { seed: 7 }, units: { target: 'a' } };
    const key = attackOutputKey('nn-mlh', { target, shadow }, base);
    expect(attackOutputKey('nn-mlh', { target, shadow }, base)).toBe(key);
    expect(attackOutputKey('nn-rl', { target, shadow }, base)).not.toBe(key);
    expect(attackOutputKey('nn-mlh', { target, shadow }, { ...base, attackOptions: { seed: 8 } })).not.toBe(key);
    expect(attackOutputKey('nn-mlh', { target, shadow }, { ...base, units: { target: 'b' } })).not.toBe(key);
    expect(attackOutputKey('nn-mlh', { target: shadow, shadow: target }, base)).not.toBe(key);
    expect(signalsDigest({ a: Float64Array.of(1, 2) })).not.toBe(signalsDigest({ a: Float32Array.of(1, 2) }));
    expect(signalsDigest({ a: Float64Array.of(1, 2), b: undefined })).toBe(signalsDigest({ a: Float64Array.of(1, 2) }));
  });

  it('runs a trained attack with needs.shadow false without shadow signals, keyed without them, and replays it', async () => {
    const base = { attackOptions: { seed: 7 }, units: { target: 'a', shadows: ['s'] } };
    const free = attackOutputKey('free', { target, shadow }, base, true);
    // The same key with other shadows or none (a run without shadow models); not the key of an attack that uses them.
    expect(attackOutputKey('free', { target }, { ...base, units: { target: 'a' } }, true)).toBe(free);
    expect(attackOutputKey('free', { target, shadow: split(30) }, { ...base, units: { target: 'a', shadows: ['t'] } }, true)).toBe(free);
    expect(attackOutputKey('free', { target, shadow }, base)).not.toBe(free);
    expect(attackOutputKey('free', { target: split(30) }, base, true)).not.toBe(free);

    const store = new DirectoryArtifactStore(join(dir, 'free'));
    const lines: string[] = [];
    const fits: string[] = [];
    const negativeLoss: ShadowAttack = {
      name: 'free',
      prepare: async () => void fits.push('free'),
      score: (t) => Float64Array.from(t.loss, (l) => -l),
      dispose: () => undefined,
    };
    const options: CachedAttackSuiteOptions = { store, isTrained: () => true, ...base, label: 'undefended', onLog: (line) => lines.push(line) };
    const run = () => runCachedAttackSuite({ target, attacks: [withoutShadow(negativeLoss, 'free', 'free')] }, options);
    const first = await run();
    expect(fits).toEqual(['free']);
    expect(lines[0]).toBe('training   undefended: free attack model');
    expect((await store.list()).map((m) => m.key)).toEqual([attackOutputKey('free', { target }, base, true)]);
    const second = await run();
    expect(fits).toEqual(['free']); // replayed from the cache
    expect(second.attacks[0]!.scores).toEqual(first.attacks[0]!.scores);
    // An attack that needs shadow signals, in a suite without them: refused with a message naming the row.
    await expect(runCachedAttackSuite({ target, attacks: [metricAttack('loss')] }, { ...options, isTrained: () => false })).rejects.toThrow(
      'undefended: the run trained no shadow models, which an attack of it reads',
    );
  });
});

describe('noShadowSignals', () => {
  it('throws with its message on any read of the shadow signals, and is told apart from real ones', () => {
    const standIn = noShadowSignals('no shadows here');
    expect(() => standIn.members).toThrow('no shadows here');
    expect(() => standIn.nonMembers.size).toThrow('no shadows here');
    expect([isNoShadow(standIn), isNoShadow(shadow), isNoShadow(undefined)]).toEqual([true, false, false]);
  });
});
