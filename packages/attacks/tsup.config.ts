import { miaTsupConfig } from '../../tsup.config.base';

export default miaTsupConfig(['src/index.ts', 'src/matchers.ts']);
