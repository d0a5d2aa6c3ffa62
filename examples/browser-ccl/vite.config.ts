import { defaultClientConditions, defineConfig } from 'vite';

// `@mia/source` makes the workspace packages resolve to their TypeScript sources (no build
// needed; docs/decisions/0002-tests-on-source.md). A user's project resolves them to `dist` as usual.
export default defineConfig({
  resolve: { conditions: ['@mia/source', ...defaultClientConditions], dedupe: ['@tensorflow/tfjs-core'] },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
  build: { chunkSizeWarningLimit: 4096 },
  logLevel: 'warn',
});
