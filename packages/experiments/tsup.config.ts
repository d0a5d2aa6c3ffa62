import { miaTsupConfig } from '../../tsup.config.base';

export default miaTsupConfig({
  index: 'src/index.ts',
  cli: 'src/cli.ts',
  'train-worker': 'src/train-worker.ts',
  'queue/index': 'src/queue/index.ts',
  'reproduce/index': 'src/reproduce/index.ts',
});
