import type { TrainingKernelConfig } from '../internals/training-kernel';
import { prefixReduce } from './prefix-reduce';

/** `Sum` over a prefix of the axes (see {@link prefixReduce}); other cases use the stock kernel. @see docs/performance.md, root cause 5. */
export const sumConfig: TrainingKernelConfig = {
  kernelName: 'Sum',
  kernelFunc: (args, stock) => prefixReduce('Sum', args, stock),
};
