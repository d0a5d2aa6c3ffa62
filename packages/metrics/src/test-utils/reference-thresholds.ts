/**
 * O(n²) transcriptions of the reference threshold searches, for tests only (excluded from the
 * published files). Each follows its Python loop operation by operation.
 */

/** SM/RL/CCLr/PASTr `thre_setting(tr, te)`: concat order, balanced accuracy, strict `>`. */
export function referenceThreSetting(tr: number[], te: number[]): { threshold: number; accuracy: number } {
  let threshold = 0;
  let maxAcc = 0;
  for (const value of [...tr, ...te]) {
    const trRatio = tr.filter((v) => v >= value).length / tr.length;
    const teRatio = te.filter((v) => v < value).length / te.length;
    const acc = 0.5 * (trRatio + teRatio);
    if (acc > maxAcc) {
      threshold = value;
      maxAcc = acc;
    }
  }
  return { threshold, accuracy: maxAcc };
}

/** SEL `threshold_based_inference_attack` search: sorted ascending, raw count, strict `>`. */
export function referenceSelSearch(tr: number[], te: number[]): { threshold: number; correct: number } {
  let threshold = 0;
  let maxGap = 0;
  for (const value of [...tr, ...te].sort((a, b) => a - b)) {
    const ratio1 = tr.filter((v) => v >= value).length;
    const ratio2 = te.length - te.filter((v) => v >= value).length;
    if (ratio1 + ratio2 > maxGap) {
      maxGap = ratio1 + ratio2;
      threshold = value;
    }
  }
  return { threshold, correct: maxGap };
}
