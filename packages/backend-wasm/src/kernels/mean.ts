import type { TrainingKernelConfig } from '../internals/training-kernel';
import { prefixReduce } from './prefix-reduce';

/** `Mean` over a prefix of the axes (see {@link prefixReduce}); other cases use the stock kernel. @see docs/performance.md, root cause 5. */
export const meanConfig: TrainingKernelConfig = {
  kernelName: 'Mean',
  kernelFunc: (args, stock) => prefixReduce('Mean', args, stock),
};
