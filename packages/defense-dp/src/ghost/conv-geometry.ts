import type { ResolvedConv2d } from './per-example-tape';

/** Output size and zero padding of a convolution, by tfjs' rules (`'same'`: the smaller half before). @internal */
export interface ConvGeometry {
  readonly outH: number;
  readonly outW: number;
  /** `[top, bottom, left, right]`. */
  readonly padding: readonly [number, number, number, number];
}

/** {@link ConvGeometry} of a convolution of an `h × w` input with a `kh × kw` kernel. @internal */
export function convGeometry(h: number, w: number, kh: number, kw: number, o: ResolvedConv2d): ConvGeometry {
  const [sh, sw] = o.strides;
  const [dh, dw] = o.dilations;
  const spanH = (kh - 1) * dh + 1;
  const spanW = (kw - 1) * dw + 1;
  if (o.pad === 'same') {
    const outH = Math.ceil(h / sh);
    const outW = Math.ceil(w / sw);
    const padH = Math.max((outH - 1) * sh + spanH - h, 0);
    const padW = Math.max((outW - 1) * sw + spanW - w, 0);
    return { outH, outW, padding: [Math.floor(padH / 2), padH - Math.floor(padH / 2), Math.floor(padW / 2), padW - Math.floor(padW / 2)] };
  }
  const [top, bottom, left, right] =
    o.pad === 'valid' ? [0, 0, 0, 0] : typeof o.pad === 'number' ? [o.pad, o.pad, o.pad, o.pad] : [o.pad[1][0], o.pad[1][1], o.pad[2][0], o.pad[2][1]];
  return {
    outH: Math.floor((h + top + bottom - spanH) / sh) + 1,
    outW: Math.floor((w + left + right - spanW) / sw) + 1,
    padding: [top, bottom, left, right],
  };
}
