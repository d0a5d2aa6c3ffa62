/**
 * A CIFAR-10 binary batch of `labels.length` images where image i, channel c, pixel p has byte
 * `(i·7 + c·50 + p) mod 256`, so every position is checkable by formula.
 */
export function cifar10Batch(labels: readonly number[], labelBytes: readonly number[][] = labels.map((l) => [l])): Uint8Array {
  const per = labelBytes[0]!.length + 3072;
  const out = new Uint8Array(labels.length * per);
  labels.forEach((_, i) => {
    out.set(labelBytes[i]!, i * per);
    for (let c = 0; c < 3; c++) for (let p = 0; p < 1024; p++) out[i * per + labelBytes[i]!.length + c * 1024 + p] = fixturePixel(i, c, p);
  });
  return out;
}

/** The byte {@link cifar10Batch} stores for image i, channel c, pixel p (row-major within the 32×32 plane). */
export function fixturePixel(i: number, c: number, p: number): number {
  return (i * 7 + c * 50 + p) % 256;
}
