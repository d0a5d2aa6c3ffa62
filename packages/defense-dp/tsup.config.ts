import { miaTsupConfig } from '../../tsup.config.base';

export default miaTsupConfig();
