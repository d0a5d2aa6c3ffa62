import { defineConfig, type Options } from 'tsup';

/**
 * Shared build settings of every public `@mia/*` package: ESM only, `.d.ts`, sourcemaps, and
 * `@tensorflow/*` / `@mia/*` kept external (see docs/decisions/0001-esm-only-tsup.md).
 */
export function miaTsupConfig(entry: Options['entry'] = ['src/index.ts']) {
  return defineConfig({
    entry,
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    external: [/^@tensorflow\//, /^@mia\//],
  });
}
