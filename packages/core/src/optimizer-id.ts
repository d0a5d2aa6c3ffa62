let counter = 0;

/** A process-unique id for naming an optimizer's buffer variables. @internal */
export function nextOptimizerId(): string {
  counter += 1;
  return counter.toString(36);
}
