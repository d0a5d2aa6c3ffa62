import { defineConfig } from 'vitest/config';

// Tests run on the TypeScript sources of every workspace package through the "@mia/source"
// export condition, so no test waits for a build (docs/decisions/0002-tests-on-source.md).
const conditions = ['@mia/source', 'module', 'node', 'import', 'default'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@mia/source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'examples/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
