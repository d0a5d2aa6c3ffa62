/** What {@link NativeAddon.info} reports. */
export interface NativeAddonInfo {
  /** oneDNN version, e.g. `2.6.3`. */
  readonly onednn: string;
  /** oneDNN's CPU threading runtime (`omp` for Debian's build). */
  readonly cpuRuntime: string;
  /** The instruction set oneDNN's JIT uses here (`avx2`, `avx512_core`, …). */
  readonly isa: string;
  /** OpenMP threads of the calling thread. */
  readonly threads: number;
  /** Processors OpenMP sees. */
  readonly procs: number;
  /** Convolution layout: `nhwc` or `blocked`. */
  readonly convLayout: string;
  /** Convolution algorithm: `auto` (Winograd on the 3×3 stride-1 layers of ≥ 64 channels with whole 4×4 output tiles, where oneDNN has it) or `direct`. */
  readonly convAlgorithm: string;
  /** Precision of the convolutions and matrix products: `fp32`, or `bf16` (bf16 inputs, fp32 accumulation and outputs). */
  readonly precision: string;
  /** Whether oneDNN runs bf16 dot products in hardware on this CPU (ISA `avx512_core_bf16`, AMX or later), which `bf16` needs. */
  readonly bf16: boolean;
  /** Cached convolution primitives of the calling thread: key → oneDNN implementation and reorders. */
  readonly primitives: Readonly<Record<string, string>>;
  /** Bytes of scratch buffers held by the calling thread. */
  readonly scratchBytes: number;
  /** Instruction set of the hand-written batch norm loops: `avx512`, `avx2` or `baseline`. */
  readonly simd: string;
}

/** Activations the native convolution fuses. */
export type NativeConvActivation = 'linear' | 'relu';

/**
 * The functions of the compiled addon (`build/Release/mia_native.node`). Every function computes in
 * place on the memory behind the `Float32Array` views it is given and checks types, lengths and
 * dimensions before using a pointer (a bad argument throws a `TypeError` / `RangeError` naming the
 * function and the argument). Shapes are NHWC activations, HWIO filters, row-major matrices.
 * @internal
 */
export interface NativeAddon {
  info(): NativeAddonInfo;
  setNumThreads(threads: number): void;
  getNumThreads(): number;
  /** The batch norm loops' instruction set (`auto`: the widest the CPU runs); throws when the CPU cannot run it. For tests and benchmarks. */
  setSimd(name: 'avx512' | 'avx2' | 'baseline' | 'auto'): void;
  clearCache(): void;
  /** glibc's mmap/trim thresholds raised (true) or restored (false); returns whether glibc accepted them. */
  keepFreedMemory(keep: boolean): boolean;
  setConvLayout(layout: 'nhwc' | 'blocked'): void;
  setConvAlgorithm(algorithm: 'auto' | 'direct'): void;
  /** Precision of the calling thread's convolutions and matrix products; `bf16` throws a RangeError where `info().bf16` is false. */
  setPrecision(precision: 'fp32' | 'bf16'): void;
  /** dims: [n, h, w, ci, kh, kw, co, oh, ow, sh, sw, padTop, padLeft, padBottom, padRight, dilH, dilW]. */
  conv2dForward(x: Float32Array, filter: Float32Array, bias: Float32Array | null, y: Float32Array, dims: number[], activation: NativeConvActivation): void;
  conv2dBackwardData(dy: Float32Array, filter: Float32Array, dx: Float32Array, dims: number[]): void;
  conv2dBackwardWeights(x: Float32Array, dy: Float32Array, dw: Float32Array, dims: number[]): void;
  gemm(
    transposeA: boolean,
    transposeB: boolean,
    m: number,
    n: number,
    k: number,
    a: Float32Array,
    b: Float32Array,
    c: Float32Array,
    batch: number,
    strideA: number,
    strideB: number,
  ): void;
  biasActivation(y: Float32Array, rows: number, cols: number, bias: Float32Array | null, activation: string, alpha: number): void;
  /** y = act(x·W + b), x [rows, inFeatures], W [inFeatures, outFeatures]; activation 'linear' | 'relu' | 'tanh'. */
  denseForward(
    x: Float32Array,
    weight: Float32Array,
    bias: Float32Array,
    y: Float32Array,
    rows: number,
    inFeatures: number,
    outFeatures: number,
    activation: string,
  ): void;
  /** dx = (dy·act′(y))·Wᵀ (y may be null for 'linear'). */
  denseGradInput(
    dy: Float32Array,
    y: Float32Array | null,
    weight: Float32Array,
    dx: Float32Array,
    rows: number,
    inFeatures: number,
    outFeatures: number,
    activation: string,
  ): void;
  /** dW = xᵀ·(dy·act′(y)). */
  denseGradWeight(
    x: Float32Array,
    dy: Float32Array,
    y: Float32Array | null,
    dw: Float32Array,
    rows: number,
    inFeatures: number,
    outFeatures: number,
    activation: string,
  ): void;
  /** db = Σ over rows of dy·act′(y). */
  denseGradBias(dy: Float32Array, y: Float32Array | null, db: Float32Array, rows: number, outFeatures: number, activation: string): void;
  /** Softmax cross-entropy per row (`none`, loss of `rows` values) or its mean (`mean`, one value). */
  softmaxCrossEntropy(logits: Float32Array, labels: Int32Array, loss: Float32Array, rows: number, classes: number, reduction: 'none' | 'mean'): void;
  /** Its gradient for the logits; dy of `rows` values (`none`) or one (`mean`). */
  softmaxCrossEntropyGrad(
    dy: Float32Array,
    logits: Float32Array,
    labels: Int32Array,
    dlogits: Float32Array,
    rows: number,
    classes: number,
    reduction: 'none' | 'mean',
  ): void;
  /** out[o, i, :] = x[o, indices[i], :] with x [outer, dim, slice] (bits copied); false, writing nothing, when an index is outside [0, dim). */
  gather(x: Float32Array, indices: Int32Array, out: Float32Array, outer: number, dim: number, slice: number): boolean;
  binary(op: string, a: Float32Array, aShape: number[], b: Float32Array, bShape: number[], out: Float32Array, outShape: number[]): void;
  unary(op: string, x: Float32Array, y: Float32Array, size: number, alpha: number): void;
  addN(inputs: Float32Array[], out: Float32Array, size: number): void;
  reluGrad(dy: Float32Array, x: Float32Array, dx: Float32Array, size: number): void;
  tanhGrad(dy: Float32Array, y: Float32Array, dx: Float32Array, size: number): void;
  reduce(op: 'sum' | 'mean' | 'max' | 'min', x: Float32Array, outer: number, mid: number, inner: number, out: Float32Array): void;
  /** dims: [n, h, w, c, kh, kw, sh, sw, padTop, padLeft, oh, ow]. */
  pool2d(mode: 'max' | 'avg', x: Float32Array, y: Float32Array, dims: number[]): void;
  maxPoolGrad(dy: Float32Array, x: Float32Array, dx: Float32Array, dims: number[]): void;
  avgPoolGrad(dy: Float32Array, dx: Float32Array, dims: number[]): void;
  batchNorm(
    x: Float32Array,
    mean: Float32Array,
    variance: Float32Array,
    offset: Float32Array | null,
    scale: Float32Array | null,
    y: Float32Array,
    rows: number,
    channels: number,
    eps: number,
  ): void;
  batchNormTrain(
    x: Float32Array,
    scale: Float32Array | null,
    offset: Float32Array | null,
    y: Float32Array,
    mean: Float32Array,
    variance: Float32Array,
    rows: number,
    channels: number,
    eps: number,
    relu?: boolean,
  ): void;
  batchNormTrainGrad(
    dy: Float32Array,
    x: Float32Array,
    mean: Float32Array,
    variance: Float32Array,
    scale: Float32Array | null,
    dx: Float32Array,
    dScale: Float32Array,
    dOffset: Float32Array,
    rows: number,
    channels: number,
    eps: number,
    y?: Float32Array | null,
  ): void;
  /** One `sgd` step of one variable: new variable (and momentum buffer when momentum > 0); momentumBuffer null on the first step. */
  sgdUpdate(
    variable: Float32Array,
    gradient: Float32Array,
    momentumBuffer: Float32Array | null,
    newVariable: Float32Array,
    newMomentumBuffer: Float32Array | null,
    size: number,
    lr: number,
    momentum: number,
    dampening: number,
    nesterov: boolean,
    weightDecay: number,
  ): void;
  /** One `adam` step of one variable: new variable and moments; biasCorrectionK = 1 − betaK^t. */
  adamUpdate(
    variable: Float32Array,
    gradient: Float32Array,
    m: Float32Array,
    v: Float32Array,
    newVariable: Float32Array,
    newM: Float32Array,
    newV: Float32Array,
    size: number,
    lr: number,
    beta1: number,
    beta2: number,
    epsilon: number,
    weightDecay: number,
    biasCorrection1: number,
    biasCorrection2: number,
  ): void;
}
