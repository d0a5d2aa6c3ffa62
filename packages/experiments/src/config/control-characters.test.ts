import { InvalidArgumentError } from '@mia/core';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMia } from '../test-utils/run-mia';
import { parseExperimentConfig } from './parse-config';
import { codePointName, controlCharacterIssues } from './control-characters';

const base = {
  name: 'hostile',
  description: 'two lines\nand a\ttab are fine here',
  scale: 'smoke',
  dataset: { name: 'purchaseLike', size: 600 },
  partition: { preset: 'PAST6', maxPerRole: 50 },
  model: { name: 'mlp', options: { hidden: [8] } },
  training: { epochs: 4, batchSize: 16, lr: 0.1 },
  defenses: [{ name: 'none', label: 'undefended' }],
  attacks: ['loss'],
};

const errorOf = (input: unknown): string => {
  try {
    parseExperimentConfig(input);
  } catch (error) {
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected the config to be rejected');
};

describe('control characters in a config', () => {
  it('a config with tabs and line breaks in its description only is accepted', () => {
    expect(parseExperimentConfig(base).description).toBe(base.description);
  });

  it('rejects an ANSI escape in a defense label at config check, naming the field and the code point, without echoing the escape', () => {
    const message = errorOf({ ...base, defenses: [{ name: 'none', label: '\u001b[2J\u001b]0;pwned\u0007undefended' }] });
    expect(message).toContain(
      'defenses[0].label: expected a label without control characters (they would reach terminals, logs and reports as escape codes), got "\\u001b[2J\\u001b]0;pwned\\u0007undefended", with U+001B (ESC) at index 0',
    );
    // The message itself carries no control character (it is printed to the terminal).
    expect(message).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it('names every field with a control character: attack label and name, grid value, C1 CSI, DEL, a line break in a label', () => {
    const issues = controlCharacterIssues({
      ...base,
      description: 'ok\u0007',
      defenses: [
        { name: 'none', label: 'a\nb' },
        { name: 'ccl', label: 'ccl', grid: { concave: ['quadratic\u009b31m'] } },
      ],
      attacks: ['lo\u007fss', { name: 'loss', label: 'x\u001b[31m' }],
      paper: { source: 'p', values: { 'row\u0000': { p1: 1 } } },
    });
    expect(issues.map((i) => [i.path, i.got.replace(/^.*, with /, '')])).toEqual([
      ['description', 'U+0007 (BEL) at index 2'],
      ['defenses[0].label', 'U+000A (LF) at index 1'],
      ['defenses[1].grid.concave[0]', 'U+009B (CSI) at index 9'],
      ['attacks[0]', 'U+007F (DEL) at index 2'],
      ['attacks[1].label', 'U+001B (ESC) at index 1'],
      ['paper.values', 'U+0000 (NUL) at index 3'],
    ]);
  });

  it('`mia run` refuses such a config before anything runs, and prints no escape code to the terminal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mia-control-'));
    try {
      writeFileSync(join(dir, 'c.json'), JSON.stringify({ ...base, defenses: [{ name: 'none', label: '\u001b]0;pwned\u0007\u001b[31mred' }] }));
      const run = await runMia(['run', join(dir, 'c.json'), '--out', join(dir, 'out')], { env: { MIA_CACHE_DIR: join(dir, 'cache') } });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('defenses[0].label: expected a label without control characters');
      expect(run.stderr).toContain('with U+001B (ESC) at index 0');
      expect(run.stdout + run.stderr).not.toMatch(/[\u001b\u0007\u009b]/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('leaves printable Unicode alone (labels in any script, symbols such as α and ±)', () => {
    expect(controlCharacterIssues({ ...base, defenses: [{ name: 'ccl', label: 'CCL α = 0.5 ± 0 — 日本語' }] })).toEqual([]);
    expect(codePointName('\u0085')).toBe('U+0085');
  });
});
