import { defineConfig } from 'vitest/config';

// Tests run on the TypeScript sources of every workspace package through the "@mia/source"
// export condition, so no test waits for a build (docs/decisions/0002-tests-on-source.md).
const conditions = ['@mia/source', 'module', 'node', 'import', 'default'];

interface TaskLike {
  type: string;
  mode?: string;
  result?: { state?: string };
  tasks?: TaskLike[];
}

/** Prints the plain closing line `N passed, N failed, N skipped` that CI logs are read for. */
const plainSummary = {
  onFinished(files: TaskLike[] = []) {
    const count = { passed: 0, failed: 0, skipped: 0 };
    const walk = (t: TaskLike) => {
      if (t.type === 'test') {
        if (t.result?.state === 'pass') count.passed += 1;
        else if (t.result?.state === 'fail') count.failed += 1;
        else count.skipped += 1;
      }
      for (const c of t.tasks ?? []) walk(c);
    };
    for (const f of files) walk(f);
    process.stdout.write(`\ntests: ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped\n`);
  },
};

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@mia/source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'examples/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', plainSummary],
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // tfjs-backend-cpu prints its "install tfjs-node" banner once per process that uses it (most test
    // files set the cpu backend directly); drop exactly that banner, keep every other log and warning.
    onConsoleLog: (log) => !log.includes('looks like you are running TensorFlow.js in Node.js'),
    // Names a test that blocks its worker's event loop long enough to break vitest's own messaging.
    setupFiles: ['test/setup/event-loop-watch.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
