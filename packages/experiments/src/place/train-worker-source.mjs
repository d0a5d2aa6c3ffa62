// Worker entry when running from TypeScript sources (tests, `pnpm mia`): registers the tsx loader in
// this thread, then loads the real worker. The published build uses train-worker.js directly.
import { register } from 'tsx/esm/api';

register();
await import(new URL('./train-worker.ts', import.meta.url).href);
