/**
 * One output phase of a strided transposed convolution along one spatial axis.
 *
 * The input gradient of a stride-s convolution, restricted to the positions i ≡ `offset` (mod s),
 * is a stride-1 correlation of dy with the filter taps k ≡ (offset + pad) (mod s), reversed. So a
 * stride-s `Conv2DBackpropInput` splits into s×s small stride-1 convolutions with no zero
 * multiplications (sub-pixel decomposition), instead of one convolution over a zero-upsampled dy
 * (s² times the work).
 */
export interface AxisPhase {
  /** First input position of the phase; the phase covers offset, offset + s, ... */
  offset: number;
  /** Number of input positions in the phase. */
  count: number;
  /** Filter tap of each sub-filter position (already reversed); empty when no tap reaches the phase. */
  taps: number[];
  /** First dy position read (after cropping to the valid range). */
  dyBegin: number;
  /** Number of dy positions read (0 when the phase gets no gradient). */
  dySize: number;
  /** Zero padding before and after the cropped dy range. */
  padBefore: number;
  padAfter: number;
}

/**
 * Plans the phases of one axis.
 *
 * @param inSize - input length H.
 * @param outSize - output (dy) length Ho.
 * @param kernel - filter length k.
 * @param stride - stride s ≥ 1.
 * @param padBefore - zero padding before the input (padInfo.top or .left).
 * @returns one entry per non-empty phase, in offset order.
 */
export function planAxisPhases(inSize: number, outSize: number, kernel: number, stride: number, padBefore: number): AxisPhase[] {
  const phases: AxisPhase[] = [];
  for (let offset = 0; offset < stride && offset < inSize; offset++) {
    const count = Math.ceil((inSize - offset) / stride);
    const r = (offset + padBefore) % stride; // filter taps k ≡ r (mod s) reach this phase
    const q = (offset + padBefore - r) / stride; // dy index of tap r for the first position
    const numTaps = r < kernel ? Math.ceil((kernel - r) / stride) : 0;
    const taps = Array.from({ length: numTaps }, (_, m) => r + stride * (numTaps - 1 - m));
    const first = q - (numTaps - 1);
    const last = q + count - 1;
    const lo = Math.max(0, first);
    const hi = Math.min(outSize - 1, last);
    const empty = numTaps === 0 || hi < lo;
    phases.push({
      offset,
      count,
      taps: empty ? [] : taps,
      dyBegin: empty ? 0 : lo,
      dySize: empty ? 0 : hi - lo + 1,
      padBefore: empty ? 0 : lo - first,
      padAfter: empty ? 0 : last - hi,
    });
  }
  return phases;
}
