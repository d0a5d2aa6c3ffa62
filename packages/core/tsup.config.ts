import { miaTsupConfig } from '../../tsup.config.base';

export default miaTsupConfig({ index: 'src/index.ts', 'layers/index': 'src/layers/index.ts', 'testing/index': 'src/testing/index.ts' });
