// Per-layer convolution times of the bench's networks in two settings of the native addon: both
// activation layouts with the direct algorithm (`--compare layout`, the default: NHWC in place, or
// reordered to oneDNN's blocked layout around each call; docs/decisions/0053), or the direct and
// `auto` algorithms in the NHWC layout (`--compare algorithm`: `auto` runs Winograd where it applies;
// docs/decisions/0056), or fp32 against bf16 precision, both with the default `auto` algorithm
// (`--compare precision`: bf16 inputs, fp32 accumulation and outputs, the conversions to bf16
// included in the time; needs a CPU with AVX-512 BF16 or AMX; docs/decisions/0057).
//
//   node --conditions=@mia/source --import tsx bench/conv-layers.ts [--compare layout|algorithm|precision] [--threads 2] [--rounds 5] [--clock wall|cpu] [--models smallcnn,resnet18-w32,resnet18,resnet18-tv-w32,small-maps]
//
// Every layer runs forward, backward-data (not for the input layer, which has no gradient to pass
// on) and backward-weights; the two settings alternate round by round in one process, so they share
// the machine's load. Prints a Markdown table: median ms per call of each pass and setting, their
// ratio, and the oneDNN implementations chosen.
import { loadNativeAddon } from '../packages/backend-native/src/load-native-addon';
import { median } from './stats';

interface Layer {
  net: string;
  name: string;
  n: number;
  hw: number;
  ci: number;
  co: number;
  k: number;
  stride: number;
  first: boolean;
}

function smallCnnLayers(batch: number): Layer[] {
  return [
    ['c1', 3, 32, 32],
    ['c2', 32, 32, 32],
    ['c3', 32, 64, 16],
    ['c4', 64, 128, 8],
  ].map(([name, ci, co, hw], i) => ({
    net: 'smallcnn',
    name: String(name),
    n: batch,
    hw: Number(hw),
    ci: Number(ci),
    co: Number(co),
    k: 3,
    stride: 1,
    first: i === 0,
  }));
}

/** The distinct convolution shapes of a CIFAR-stem ResNet-18 of the given base width. */
function resnet18Layers(batch: number, width: number): Layer[] {
  const net = `resnet18-w${width}`;
  const out: Layer[] = [{ net, name: 'stem', n: batch, hw: 32, ci: 3, co: width, k: 3, stride: 1, first: true }];
  let cin = width;
  let hw = 32;
  for (const [mult, stride] of [
    [1, 1],
    [2, 2],
    [4, 2],
    [8, 2],
  ] as const) {
    const w = width * mult;
    if (stride !== 1) {
      out.push({ net, name: `${w}.c1s2`, n: batch, hw, ci: cin, co: w, k: 3, stride: 2, first: false });
      out.push({ net, name: `${w}.sc1x1`, n: batch, hw, ci: cin, co: w, k: 1, stride: 2, first: false });
      hw /= 2;
    }
    out.push({ net, name: `${w}.c3x3`, n: batch, hw, ci: w, co: w, k: 3, stride: 1, first: false });
    cin = w;
  }
  return out;
}

/** The distinct convolution shapes of a ResNet-18 with torchvision's stem (7×7/2 conv, 3×3/2 max-pool) on 32×32 images: the anchors' model at width 32. */
function resnet18TorchvisionLayers(batch: number, width: number): Layer[] {
  const net = `resnet18-tv-w${width}`;
  const out: Layer[] = [{ net, name: 'stem7x7s2', n: batch, hw: 32, ci: 3, co: width, k: 7, stride: 2, first: true }];
  let cin = width;
  let hw = 8; // after the stem (16×16) and the max-pool
  for (const [mult, stride] of [
    [1, 1],
    [2, 2],
    [4, 2],
    [8, 2],
  ] as const) {
    const w = width * mult;
    if (stride !== 1) {
      out.push({ net, name: `${w}.c1s2`, n: batch, hw, ci: cin, co: w, k: 3, stride: 2, first: false });
      out.push({ net, name: `${w}.sc1x1`, n: batch, hw, ci: cin, co: w, k: 1, stride: 2, first: false });
      hw /= 2;
    }
    out.push({ net, name: `${w}.c3x3`, n: batch, hw, ci: w, co: w, k: 3, stride: 1, first: false });
    cin = w;
  }
  return out;
}

/** 3×3 stride-1 layers on small feature maps (ResNet-18 with torchvision's stem on 32×32 images ends at 1×1): where Winograd's 4×4 output tiles are mostly padding. */
function smallMapLayers(): Layer[] {
  return (
    [
      [128, 8, 32],
      [128, 8, 64],
      [128, 6, 64],
      [128, 5, 128],
      [128, 4, 64],
      [128, 4, 128],
      [64, 4, 512],
      [128, 3, 64],
      [128, 2, 128],
      [128, 2, 256],
      [64, 2, 512],
      [128, 1, 256],
    ] as const
  ).map(([n, hw, c]) => ({ net: 'small-maps', name: `${hw}×${hw}×${c}`, n, hw, ci: c, co: c, k: 3, stride: 1, first: false }));
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}

const threads = Number(arg('threads', '2'));
const rounds = Number(arg('rounds', '5'));
const models = arg('models', 'smallcnn,resnet18-w32,resnet18').split(',');
const addon = loadNativeAddon();
addon.setNumThreads(threads);
addon.keepFreedMemory(true);

const layers: Layer[] = [];
for (const m of models) {
  if (m === 'smallcnn') layers.push(...smallCnnLayers(128));
  else if (m === 'resnet18') layers.push(...resnet18Layers(64, 64));
  else if (m === 'resnet18-w32') layers.push(...resnet18Layers(128, 32));
  else if (m === 'resnet18-tv-w32') layers.push(...resnet18TorchvisionLayers(128, 32));
  else if (m === 'small-maps') layers.push(...smallMapLayers());
  else throw new Error(`--models: expected smallcnn, resnet18, resnet18-w32, resnet18-tv-w32 or small-maps, got '${m}'`);
}

const compare = arg('compare', 'layout');
if (compare !== 'layout' && compare !== 'algorithm' && compare !== 'precision')
  throw new Error(`--compare: expected layout, algorithm or precision, got '${compare}'`);
if (compare === 'precision' && !addon.info().bf16) throw new Error(`--compare precision: this CPU has no bf16 dot products (oneDNN ISA ${addon.info().isa})`);
/** The two settings compared: a label, how to select it, and the cache-key prefix of its primitives after the kind letter. */
const settings =
  compare === 'precision'
    ? [
        { label: 'fp32', apply: () => (addon.setConvLayout('nhwc'), addon.setConvAlgorithm('auto'), addon.setPrecision('fp32')), key: 'n--a' },
        { label: 'bf16', apply: () => (addon.setConvLayout('nhwc'), addon.setConvAlgorithm('auto'), addon.setPrecision('bf16')), key: 'n--ah' },
      ]
    : compare === 'layout'
      ? [
          { label: 'NHWC', apply: () => (addon.setConvAlgorithm('direct'), addon.setConvLayout('nhwc')), key: 'n--d' },
          { label: 'blocked', apply: () => (addon.setConvAlgorithm('direct'), addon.setConvLayout('blocked')), key: 'b--d' },
        ]
      : [
          { label: 'direct', apply: () => (addon.setConvLayout('nhwc'), addon.setConvAlgorithm('direct')), key: 'n--d' },
          { label: 'auto', apply: () => (addon.setConvLayout('nhwc'), addon.setConvAlgorithm('auto')), key: 'n--a' },
        ];
const [first, second] = settings as [(typeof settings)[0], (typeof settings)[0]];
type Pass = 'fwd' | 'data' | 'weights';
const passes: Pass[] = ['fwd', 'data', 'weights'];

function dims(l: Layer): number[] {
  const pad = (l.k - 1) >> 1; // PyTorch's padding of the networks' odd filters: 0 (1×1), 1 (3×3), 3 (7×7)
  const oh = Math.floor((l.hw + 2 * pad - l.k) / l.stride) + 1;
  const padEnd = (oh - 1) * l.stride + l.k - l.hw - pad;
  return [l.n, l.hw, l.hw, l.ci, l.k, l.k, l.co, oh, oh, l.stride, l.stride, pad, pad, Math.max(0, padEnd), Math.max(0, padEnd), 1, 1];
}

const clock = arg('clock', 'wall');
if (clock !== 'wall' && clock !== 'cpu') throw new Error(`--clock: expected wall or cpu, got '${clock}'`);

/** ms of one call: wall time, or (`--clock cpu`) the process's CPU time, which a busy machine inflates far less (with one thread; more threads add their waiting). */
function run(l: Layer, pass: Pass, buffers: Record<string, Float32Array>): number {
  const d = dims(l);
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  if (pass === 'fwd') addon.conv2dForward(buffers.x!, buffers.w!, null, buffers.y!, d, 'linear');
  else if (pass === 'data') addon.conv2dBackwardData(buffers.y!, buffers.w!, buffers.x!, d);
  else addon.conv2dBackwardWeights(buffers.x!, buffers.y!, buffers.w!, d);
  if (clock === 'cpu') {
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000;
  }
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

const info = addon.info();
console.log(
  `# Convolution layers, ${first.label} vs ${second.label} — ${new Date().toISOString()}\n\noneDNN ${info.onednn} (${info.cpuRuntime}, ISA ${info.isa}), ${threads} threads, ${rounds} rounds (the two settings alternate per round; median ${clock === 'cpu' ? 'process CPU' : 'wall'} ms per call after one untimed call).\n`,
);
console.log(
  `| net | layer | batch × hw × ci → co, k/s | pass | ${first.label} ms | ${second.label} ms | ${second.label} ÷ ${first.label} | ${first.label} impl | ${second.label} impl |`,
);
console.log('|---|---|---|---|---|---|---|---|---|');
const totals = new Map<string, { a: number; b: number }>();
for (const l of layers) {
  const d = dims(l);
  const buffers = {
    x: new Float32Array(l.n * l.hw * l.hw * l.ci).map(() => Math.random() - 0.5),
    w: new Float32Array(l.k * l.k * l.ci * l.co).map(() => Math.random() - 0.5),
    y: new Float32Array(l.n * d[7]! * d[8]! * l.co).map(() => Math.random() - 0.5),
  };
  for (const pass of passes) {
    if (pass === 'data' && l.first) continue;
    const times = new Map(settings.map((x) => [x, [] as number[]]));
    for (const setting of settings) {
      setting.apply();
      run(l, pass, buffers);
    }
    for (let r = 0; r < rounds; r++) {
      for (const setting of r % 2 === 0 ? settings : [...settings].reverse()) {
        setting.apply();
        times.get(setting)!.push(run(l, pass, buffers));
      }
    }
    const impls = Object.entries(addon.info().primitives);
    const implOf = (key: string): string => {
      const kind = pass === 'fwd' ? 'f' : pass === 'data' ? 'd' : 'w';
      return impls.find(([k]) => k === `${kind}${key}${threads},${d.join(',')}`)?.[1] ?? '?';
    };
    const a = median(times.get(first)!);
    const b = median(times.get(second)!);
    const t = totals.get(l.net) ?? { a: 0, b: 0 };
    t.a += a;
    t.b += b;
    totals.set(l.net, t);
    console.log(
      `| ${l.net} | ${l.name} | ${l.n}×${l.hw}×${l.ci} → ${l.co}, ${l.k}/${l.stride} | ${pass} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(b / a).toFixed(2)} | ${implOf(first.key)} | ${implOf(second.key)} |`,
    );
  }
}
console.log('\nSums of the medians per network (each distinct shape once, not weighted by how often the network uses it):\n');
for (const [net, t] of totals) console.log(`- ${net}: ${first.label} ${t.a.toFixed(1)} ms, ${second.label} ${t.b.toFixed(1)} ms (${(t.b / t.a).toFixed(2)})`);
