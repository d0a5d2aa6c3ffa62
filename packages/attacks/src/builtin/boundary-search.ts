import type { Random } from '@mia/core';

const l2Norm = (v: Float64Array) => {
  let sum = 0;
  for (const value of v) sum += value * value;
  return Math.sqrt(sum);
};

/**
 * HopSkipJump's Monte-Carlo estimate of the boundary's normal at `current`: Σ_b w_b·u_b / B over the
 * directions actually taken after clipping, u_b = (point_b − current)/δ (as ART does), with the
 * baseline w_b = sign_b − mean sign, or the common sign when every sign agrees (the authors' code);
 * sign_b = +1 when point_b is of another class.
 */
function boundaryNormal(points: readonly Float64Array[], other: readonly boolean[], current: Float64Array, delta: number): Float64Array {
  const evals = points.length;
  const meanSign = other.reduce((a, o) => a + (o ? 1 : -1), 0) / evals;
  const gradient = new Float64Array(current.length);
  for (let b = 0; b < evals; b++) {
    const weight = Math.abs(meanSign) === 1 ? meanSign : (other[b] ? 1 : -1) - meanSign;
    const point = points[b]!;
    const factor = weight / (evals * delta);
    for (let i = 0; i < current.length; i++) gradient[i] = gradient[i]! + factor * (point[i]! - current[i]!);
  }
  return gradient;
}

/** Settings of one record's {@link boundarySearch} (internal to the boundary-distance attack). */
export interface BoundarySearchSettings {
  /** Label queries this record may use, ≥ 1. */
  readonly budget: number;
  /** HopSkipJump's B₀: directions of the first gradient estimate; iteration t uses B₀·√t. */
  readonly initEvals: number;
  /** Cap of the directions of one gradient estimate. */
  readonly maxEvals: number;
  /** Uniform random draws tried to find a first point of another class. */
  readonly initTrials: number;
  readonly clipMin: number;
  readonly clipMax: number;
}

/** What one record's search found. */
export interface BoundarySearchResult {
  /** L2 distance to the closest point of another class found (0 when x itself is misclassified). */
  readonly distance: number;
  /** Whether a point of another class was found (else `distance` is the farthest random draw tried). */
  readonly resolved: boolean;
}

/**
 * HopSkipJump's L2 untargeted search for one record under a query budget, as a generator: it yields
 * each batch of query points (rows of d values), receives their predicted labels, and returns the
 * distance. It never yields a batch that would take it past `budget` queries.
 *
 * 1. One query of x: misclassified → distance 0 (Choquette-Choo et al.; ART's `LabelOnlyDecisionBoundary`).
 * 2. Uniform random points in [clipMin, clipMax]^d until one is not of class y (≤ `initTrials`).
 * 3. Binary search on the segment from x to that point down to θ = 0.01/√d of its length.
 * 4. Iterations t = 1, 2, …: a Monte-Carlo estimate of the boundary's normal from B_t = min(B₀√t,
 *    maxEvals) label queries at δ-perturbations (δ₁ = 0.1·(clipMax − clipMin), then √d·θ·dist, with
 *    the baseline correction of the authors' code), a geometric step search from ε = dist/√t
 *    (halving until the point is adversarial), and a binary search back to the boundary. An
 *    iteration starts only when B_t ≥ 2 directions fit in the budget beside one step and a binary
 *    search; later phases stop when the budget does.
 *
 * Every point the search keeps is of another class, so the smallest distance found is an upper bound
 * of the true distance that tightens with the budget.
 *
 * @see Chen, Jordan & Wainwright, "HopSkipJumpAttack: A Query-Efficient Decision-Based Attack", IEEE S&P 2020;
 *   ART's `HopSkipJump` (norm 2, untargeted) for δ, θ and the baseline.
 */
export function* boundarySearch(
  x: Float64Array,
  label: number,
  settings: BoundarySearchSettings,
  random: Random,
): Generator<Float32Array[], BoundarySearchResult, Int32Array> {
  const { budget, clipMin, clipMax } = settings;
  const d = x.length;
  const theta = 0.01 / Math.sqrt(d);
  const binarySteps = Math.ceil(Math.log2(1 / theta));
  let used = 0;
  const remaining = () => budget - used;
  // Queries rows and counts them; callers check `remaining()` first.
  function* ask(rows: Float64Array[]): Generator<Float32Array[], Int32Array, Int32Array> {
    used += rows.length;
    return yield rows.map((r) => Float32Array.from(r));
  }
  const isOther = (predicted: number) => predicted !== label;
  const clip = (v: number) => (v < clipMin ? clipMin : v > clipMax ? clipMax : v);
  const distanceTo = (p: Float64Array) => {
    let sum = 0;
    for (let i = 0; i < d; i++) sum += (p[i]! - x[i]!) ** 2;
    return Math.sqrt(sum);
  };
  const between = (p: Float64Array, alpha: number) => {
    const out = new Float64Array(d);
    for (let i = 0; i < d; i++) out[i] = (1 - alpha) * x[i]! + alpha * p[i]!;
    return out;
  };
  function* binarySearch(adversarial: Float64Array): Generator<Float32Array[], Float64Array, Int32Array> {
    let [low, high] = [0, 1];
    while (high - low > theta && remaining() > 0) {
      const mid = (low + high) / 2;
      const [predicted] = yield* ask([between(adversarial, mid)]);
      if (isOther(predicted!)) high = mid;
      else low = mid;
    }
    return between(adversarial, high);
  }

  const [clean] = yield* ask([x]);
  if (isOther(clean!)) return { distance: 0, resolved: true };
  let current: Float64Array | undefined;
  let farthest = 0;
  for (let trial = 0; trial < settings.initTrials && remaining() > 0 && current === undefined; trial++) {
    const point = Float64Array.from({ length: d }, () => clipMin + (clipMax - clipMin) * random.next());
    const [predicted] = yield* ask([point]);
    if (isOther(predicted!)) current = point;
    else farthest = Math.max(farthest, distanceTo(point));
  }
  if (current === undefined) return { distance: farthest, resolved: false };
  current = yield* binarySearch(current);
  let best = distanceTo(current);
  for (let t = 1; ; t++) {
    const dist = distanceTo(current);
    const evals = Math.min(Math.floor(settings.initEvals * Math.sqrt(t)), settings.maxEvals, remaining() - 1 - binarySteps);
    if (evals < 2 || dist === 0) break;
    const delta = t === 1 ? 0.1 * (clipMax - clipMin) : Math.sqrt(d) * theta * dist;
    const points: Float64Array[] = [];
    for (let b = 0; b < evals; b++) {
      const point = new Float64Array(d);
      let norm = 0;
      for (let i = 0; i < d; i++) {
        point[i] = random.normal();
        norm += point[i]! * point[i]!;
      }
      const scale = delta / (Math.sqrt(norm) || 1);
      for (let i = 0; i < d; i++) point[i] = clip(current[i]! + scale * point[i]!);
      points.push(point);
    }
    const labels = yield* ask(points);
    const gradient = boundaryNormal(points, Array.from(labels, isOther), current, delta);
    const gradientNorm = l2Norm(gradient);
    if (!(gradientNorm > 0)) break;
    let epsilon = dist / Math.sqrt(t);
    let next: Float64Array | undefined;
    while (next === undefined && remaining() > 0 && epsilon > 1e-12 * (clipMax - clipMin)) {
      const candidate = new Float64Array(d);
      for (let i = 0; i < d; i++) candidate[i] = clip(current[i]! + (epsilon * gradient[i]!) / gradientNorm);
      const [predicted] = yield* ask([candidate]);
      if (isOther(predicted!)) next = candidate;
      else epsilon /= 2;
    }
    if (next === undefined) break;
    current = yield* binarySearch(next);
    best = Math.min(best, distanceTo(current));
  }
  return { distance: best, resolved: true };
}
