import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from '@mia/core';
import { afterAll, describe, expect, it } from 'vitest';
import { experimentJsonSchema } from './json-schema';
import { loadExperimentConfig } from './load-config';
import { parseExperimentConfig } from './parse-config';

const base = {
  name: 'references-config',
  scale: 'smoke',
  dataset: { name: 'purchaseLike', size: 1200 },
  partition: { preset: 'CCL4', maxPerRole: 100 },
  model: { name: 'mlp', options: { hidden: [8] } },
  training: { epochs: 2, batchSize: 16, lr: 0.1 },
  defenses: [{ name: 'none' }],
};
const problems = (extra: Record<string, unknown>): string[] => {
  try {
    parseExperimentConfig({ ...base, ...extra });
  } catch (error) {
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    return (error as Error).message
      .split('\n')
      .slice(1)
      .map((l) => l.trim());
  }
  return [];
};

describe('references in a config', () => {
  it('accepts { count, scheme } and { import }, and lira and rmia with their params', () => {
    const config = parseExperimentConfig({
      ...base,
      references: { count: 16, scheme: 'paired' },
      attacks: ['loss', { name: 'lira', params: { mode: 'offline', models: 4 } }, { name: 'rmia', label: 'rmia γ2', params: { gamma: 2 } }],
    });
    expect(config.references).toEqual({ count: 16, scheme: 'paired' });
    expect(problems({ references: { import: '/tmp/refs' }, attacks: ['lira'] })).toEqual([]);
  });

  it('names every problem by its path before anything trains', () => {
    expect(problems({ attacks: ['loss', 'lira', 'rmia'] })).toEqual([
      'references: expected { count: N } (N ≥ 2 reference models trained by the run) or { import: "<dir>" }: attacks[1] (lira) needs reference models, got none',
    ]);
    expect(problems({ references: { count: 3 }, attacks: ['lira'] })).toEqual([
      'references.count: expected an even number (half of the reference models keep each example), got 3',
    ]);
    expect(problems({ references: { count: 1 }, attacks: ['lira'] })).toEqual([expect.stringMatching(/^references\.count: expected .*2.*, got 1$/)]);
    expect(problems({ references: { count: 4, scheme: 'carlni' }, attacks: ['lira'] })).toEqual([expect.stringMatching(/^references\.scheme: /)]);
    expect(problems({ references: { count: 4, import: '/x' }, attacks: ['lira'] })).toEqual([
      'references.import: expected absent when references.count is given (train or import, not both), got "/x"',
    ]);
    expect(problems({ references: {}, attacks: ['lira'] })).toEqual([
      'references: expected { count: N, scheme? } (train N reference models) or { import: "<dir>" }, got neither count nor import',
    ]);
    expect(problems({ references: { import: '/x', scheme: 'paired' }, attacks: ['lira'] })).toEqual([
      'references.scheme: expected absent with references.import (the imported keep masks say who trained on what), got "paired"',
    ]);
  });

  it("checks the attacks' params against the references: models ≤ count, a prefix only of paired models", () => {
    expect(problems({ references: { count: 4, scheme: 'paired' }, attacks: [{ name: 'lira', params: { models: 8 } }] })).toEqual([
      'attacks[0].params.models: expected at most references.count (4), got 8',
    ]);
    expect(problems({ references: { count: 4 }, attacks: [{ name: 'rmia', params: { models: 2 } }] })).toEqual([
      expect.stringMatching(/^attacks\[0\]\.params\.models: expected references\.count \(4\) with scheme "carlini" .* use scheme "paired".*, got 2$/),
    ]);
    expect(problems({ references: { count: 8, scheme: 'paired' }, attacks: [{ name: 'lira', params: { models: 3 } }] })).toEqual([
      'attacks[0].params.models: expected an even number (whole pairs of the "paired" scheme), got 3',
    ]);
    // RMIA tunes a on the first model against the others: with 2 models it needs a given a.
    expect(problems({ references: { count: 2 }, attacks: ['rmia'] })).toEqual([
      expect.stringMatching(/^attacks\[0\]\.params\.a: expected a number in \[0, 1\] with fewer than 4 reference models .*, got absent \(tune\)$/),
    ]);
    expect(problems({ references: { count: 2 }, attacks: [{ name: 'rmia', params: { a: 0.3 } }] })).toEqual([]);
    expect(problems({ references: { count: 4 }, attacks: [{ name: 'lira', params: { mode: 'both' } }] })).toEqual([
      expect.stringMatching(/^attacks\[0\]\.params\.mode: expected one of "online", "offline"/),
    ]);
  });

  it('refuses RMIA against a defense that perturbs its outputs while it trains (no population query)', () => {
    expect(problems({ references: { count: 4 }, defenses: [{ name: 'memguard' }], partition: { preset: 'CCL5', maxPerRole: 100 }, attacks: ['rmia'] })).toEqual(
      [expect.stringMatching(/^attacks\[0\]: expected an attack that does not query the target on population examples: defense memguard \(defenses\[0\]\)/)],
    );
  });

  it('reads references.import relative to the config file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mia-references-config-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'run.json'), JSON.stringify({ ...base, references: { import: 'refs' }, attacks: ['lira'] }));
    expect((await loadExperimentConfig(join(dir, 'run.json'))).references).toEqual({ import: join(dir, 'refs') });
  });

  it('is in the JSON Schema (`mia schema`), with the schemes as literals', () => {
    const schema = experimentJsonSchema() as { properties: Record<string, any> };
    const references = schema.properties.references;
    expect(Object.keys(references.properties)).toEqual(['count', 'scheme', 'import']);
    expect(JSON.stringify(references.properties.scheme)).toContain('"carlini"');
    expect(JSON.stringify(references.properties.scheme)).toContain('"paired"');
    const attacks = schema.properties.attacks.items.anyOf as Array<{ properties?: Record<string, any> }>;
    const lira = attacks.find((v) => v.properties?.name?.const === 'lira')!;
    expect(Object.keys(lira.properties!.params.properties)).toEqual(['mode', 'fixVariance', 'offlineForm', 'perSide', 'maxPerSide', 'models']);
  });
});
