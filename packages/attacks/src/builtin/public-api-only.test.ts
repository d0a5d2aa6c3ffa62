import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The attacks in this folder are added the way an outside author adds one: through the package's
// public index (and @mia/core, @mia/metrics, tfjs-core), never through a private module.
const here = dirname(fileURLToPath(import.meta.url));
const ALLOWED = [/^\.\.\/index$/, /^\.\/[a-z-]+$/, /^@mia\/(core|metrics)$/, /^@tensorflow\/tfjs-core$/];

/** The module specifiers a TypeScript source imports or re-exports (comments removed). */
function importsOf(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  return [...code.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]/g), ...code.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (m) => m[1]!,
  );
}

describe('builtin attacks use the public API only', () => {
  const files = readdirSync(here).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

  it('every source file imports only ../index, a sibling, @mia/core, @mia/metrics or tfjs-core', () => {
    expect(files.length).toBeGreaterThan(5);
    const offenders = files.flatMap((f) =>
      importsOf(readFileSync(join(here, f), 'utf8'))
        .filter((s) => !ALLOWED.some((r) => r.test(s)))
        .map((s) => `${f} imports ${s}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the check catches a private import', () => {
    const text = "import { checkSplit } from '../attacks/check-signals';\nimport { metricAttack } from '../index';";
    expect(importsOf(text).filter((s) => !ALLOWED.some((r) => r.test(s)))).toEqual(['../attacks/check-signals']);
  });
});
