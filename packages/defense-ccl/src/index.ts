export { cclLoss, type CompileLoss } from './ccl-loss';
export { cclPlugin } from './ccl-plugin';
export { convexConcaveLoss, convexConcaveLossPerExample } from './convex-concave-loss';
export { concaveTerm, exponentialConcave, quadraticConcave, type ConcaveTerm, type ConcaveTermOptions } from './concave-term';
export { cclOptionsSchema, type CclOptions } from './ccl-options';
