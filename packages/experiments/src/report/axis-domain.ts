/** Options of {@link uncertaintyDomain}. */
export interface UncertaintyDomainOptions {
  /** Narrowest span of the axis, in the data's units. @default 0.05 (5 points of accuracy or advantage) */
  readonly minSpan?: number;
  /** Each point's interval is value ± `reach` · SE. @default 2 */
  readonly reach?: number;
  /** The values the axis can show at all (accuracy [0, 1], advantage [−1, 1]). @default [0, 1] */
  readonly bounds?: readonly [number, number];
}

/**
 * An axis domain that does not exaggerate: it covers every point ± 2 SE (the 2-SE rule of
 * docs/protocol.md §5.1, so a difference the text calls "within noise" never spans more than about
 * half the axis) with a 5 % margin, and is at least `minSpan` wide, centred on the points and kept
 * inside `bounds`.
 *
 * Why not zero-based: test accuracies of 60–65 % on a 0–100 % axis squeeze a several-point cost of
 * a defense into a few pixels, and the papers' trade-off figures are not zero-based either; a floor
 * of 5 points (and ± 2 SE) is what keeps a 0.3-point wobble from filling the plot as a 0.6325–0.6365
 * axis did.
 * @param points - the plotted values with their SE (an SE that is undefined or not finite counts as 0).
 * @returns `[low, high]`.
 */
export function uncertaintyDomain(points: ReadonlyArray<{ value: number; se?: number }>, options: UncertaintyDomainOptions = {}): [number, number] {
  const { minSpan = 0.05, reach = 2, bounds = [0, 1] } = options;
  const finite = points.filter((p) => Number.isFinite(p.value));
  if (finite.length === 0) return [bounds[0], bounds[1]];
  const half = (p: { se?: number }) => reach * (p.se !== undefined && Number.isFinite(p.se) ? Math.abs(p.se) : 0);
  let low = Math.min(...finite.map((p) => p.value - half(p)));
  let high = Math.max(...finite.map((p) => p.value + half(p)));
  // 5 % of margin on each side, so no point or bar end sits on the plot's frame.
  const span = Math.min(bounds[1] - bounds[0], Math.max(minSpan, 1.1 * (high - low)));
  const centre = (low + high) / 2;
  low = centre - span / 2;
  high = centre + span / 2;
  // Shift (not shrink) a window that sticks out of the bounds.
  if (low < bounds[0]) [low, high] = [bounds[0], bounds[0] + span];
  if (high > bounds[1]) [low, high] = [bounds[1] - span, bounds[1]];
  return [low, high];
}
