import { miaTsupConfig } from '../../tsup.config.base';

// Entry names fix the built paths: bin/mia.js imports dist/cli.js, and the worker pools start
// dist/train-worker.js beside the chunk they are bundled into.
export default miaTsupConfig({
  index: 'src/index.ts',
  cli: 'src/cli/main.ts',
  'train-worker': 'src/place/train-worker.ts',
  'queue/index': 'src/queue/index.ts',
  'reproduce/index': 'src/reproduce/index.ts',
});
