import { parseExperimentConfig } from '@mia/experiments';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every experiment config the repository ships (the example configs the READMEs and guides tell users
// to run) parses as a whole — dataset, model, defenses, references and every attack's params — so a
// schema change cannot break one of them silently; its `name` is its file name (runs/<name> and the
// guides' commands rely on it).
const root = join(import.meta.dirname, '..');
const dirs = ['packages/experiments/configs', ...readdirSync(join(root, 'examples')).map((d) => join('examples', d, 'configs'))];
const shipped = dirs.flatMap((dir) => {
  try {
    return readdirSync(join(root, dir))
      .filter((f) => f.endsWith('.json'))
      .map((f) => join(dir, f));
  } catch {
    return [];
  }
});

describe('shipped experiment configs', () => {
  it('finds the configs', () => {
    expect(shipped).toContain('examples/lira-rmia/configs/cifar10-references.json');
    expect(shipped).toContain('packages/experiments/configs/purchase-tradeoff.json');
  });

  it.each(shipped)('%s parses and is named after its file', (path) => {
    const raw: unknown = JSON.parse(readFileSync(join(root, path), 'utf8'));
    const config = parseExperimentConfig(raw, path);
    expect(config.name).toBe(basename(path, '.json'));
  });
});
