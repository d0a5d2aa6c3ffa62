// 2-D convolutions through oneDNN, computed in place on the caller's NHWC activations and HWIO
// filters. Activations stay NHWC for the primitive ("nhwc" layout, the default: oneDNN picks the
// filter layout and the small filter is reordered each call) or are reordered to oneDNN's blocked
// layout around each call ("blocked"). With the "auto" algorithm (the default), 3×3 stride-1
// convolutions of 64 or more input and output channels on outputs whose sides are multiples of 4
// (whole Winograd tiles) use oneDNN's Winograd kernels where it has them
// (they need the blocked layout: activations are reordered around the call), direct elsewhere.
// In bf16 precision (precision.h) the inputs of a pass (activations, filters, output gradients) are
// reordered to bf16 through the scratch buffers and the primitive accumulates and writes fp32, except
// where oneDNN 2.6's fp32 kernels are as fast (bf16Direct, winogradCandidate).
// Primitives are cached per thread by shape, layout, algorithm, precision and thread count.
#include "conv.h"

#include <omp.h>
#include <oneapi/dnnl/dnnl.hpp>

#include <memory>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "common.h"
#include "onednn.h"
#include "precision.h"
#include "scratch.h"

namespace mia {
namespace {

using dnnl::memory;
using tag = memory::format_tag;
using dt = memory::data_type;

enum class Layout { kNhwc, kBlocked };
Layout gLayout = Layout::kNhwc;
enum class Algorithm { kAuto, kDirect };
Algorithm gAlgorithm = Algorithm::kAuto;

struct ConvDims {
  int64_t n, h, w, ci, kh, kw, co, oh, ow, sh, sw, pt, pl, pb, pr, dh, dw;
};

enum class Kind : char { kForward = 'f', kData = 'd', kWeights = 'w' };

// One tensor argument: the caller's memory (pointer set per call) and, when the primitive wants
// another layout, a reorder through a scratch buffer.
struct Slot {
  int arg;
  bool input;
  memory user;
  memory::desc inner;
  bool reorder = false;
  dnnl::primitive reorderPrim;
};

struct Entry {
  dnnl::primitive prim;
  std::vector<Slot> slots;
  memory::desc scratchpad;
  std::string impl;
};

thread_local std::unordered_map<std::string, std::unique_ptr<Entry>> cache;

// NHWC is the default: per layer of ResNet-18 and SmallCNN (bench/conv-layers.ts) the blocked layout
// is slower on AVX-512 for every network and 1.5-3.5x slower on 1x1 and first layers; on AVX2 it was
// 8-12% faster for ResNet-18 only (docs/decisions/0053). "blocked" stays selectable.
bool useBlocked(const ConvDims&) { return gLayout == Layout::kBlocked; }

// Winograd F(4×4, 3×3) (oneDNN's jit_wino_4x3, AVX-512) on 3×3, stride-1, undilated layers with at
// least 64 input and output channels (multiples of 16) and an output whose height and width are
// multiples of 4: per layer of ResNet-18 and SmallCNN (bench/conv-layers.ts) 0.46-0.75× the direct
// kernels' time in all three passes from 64 channels on 8×8 to 32×32 maps; no faster at 32 channels
// (the reorders to and from the blocked layout it needs cost what the arithmetic saves); and up to
// 12× slower where its 4×4 output tiles are partly padding (1×1, 2×2, 3×3, 5×5, 6×6 maps). Its error
// is about twice the direct kernels' (≈1e-6 relative; docs/decisions/0056).
bool winogradShape(const ConvDims& p) {
  return gAlgorithm == Algorithm::kAuto && p.kh == 3 && p.kw == 3 && p.sh == 1 && p.sw == 1 && p.dh == 1 && p.dw == 1 && p.ci >= 64 && p.co >= 64 &&
         p.ci % 16 == 0 && p.co % 16 == 0 && p.oh % 4 == 0 && p.ow % 4 == 0;
}

// In bf16 precision, whether a pass runs oneDNN's direct bf16 kernel: bf16 inputs (activations,
// filters, output gradients), fp32 accumulation, fp32 outputs, biases and weight gradients. Not the
// weight gradient of small layers: oneDNN 2.6's bf16 backward-weights kernel (jit_bf16) has a large
// fixed cost per call, and with two threads it took 1.1-3.9× the fp32 kernel's time on every layer
// of the anchors' ResNet-18 (torchvision stem, width 32: ≤ 8×8 maps, under 2^28 multiply-adds per
// call) and up to 2.2× on 1×1 shortcuts, while from 2^29 multiply-adds on it takes 0.64-0.76×; nor
// that of layers with fewer than 16 input channels (a network's first layer), where it is slower on
// one thread (3.2 against 2.4 ms for SmallCNN's) and, with two threads on a busy machine, took up to
// 2.5 s per call against fp32's 0.1-0.2 s (bench/conv-layers.ts --compare precision; docs/decisions/0057).
bool bf16Direct(Kind kind, const ConvDims& p) {
  if (precision() != Precision::kBf16) return false;
  if (kind != Kind::kWeights) return true;
  const double macs = static_cast<double>(p.n) * p.oh * p.ow * p.co * p.ci * p.kh * p.kw;
  return p.ci >= 16 && macs >= static_cast<double>(1 << 28);
}

// Whether a pass runs Winograd (fp32: oneDNN has no bf16 Winograd): on its layers where the pass
// computes in fp32, and in bf16 precision also where bf16 runs on AVX-512 BF16 rather than AMX. There
// the direct bf16 kernels are not faster than fp32 Winograd (bf16 dot products at twice the fp32
// rate, Winograd a little over half the multiplications): 0.81-1.31× its time per pass, 1.05-1.08×
// on average, on ResNet-18's and SmallCNN's Winograd layers, while AMX's bf16 tiles are several times
// faster.
bool winogradCandidate(Kind kind, const ConvDims& p) { return winogradShape(p) && (!bf16Direct(kind, p) || !cpuHasAmx()); }

memory::desc act(int64_t n, int64_t c, int64_t h, int64_t w, bool any, dt type = dt::f32) { return {{n, c, h, w}, type, any ? tag::any : tag::nhwc}; }
memory::desc filter(const ConvDims& p, bool any, dt type = dt::f32) { return {{p.co, p.ci, p.kh, p.kw}, type, any ? tag::any : tag::hwio}; }

Slot makeSlot(int arg, bool input, const memory::desc& user, const memory::desc& wanted) {
  Slot s;
  s.arg = arg;
  s.input = input;
  s.user = memory(user, cpuEngine(), DNNL_MEMORY_NONE);
  if (wanted != user) {
    s.reorder = true;
    s.inner = wanted;
    memory inner(wanted, cpuEngine(), DNNL_MEMORY_NONE);
    s.reorderPrim = input ? dnnl::reorder(s.user, inner) : dnnl::reorder(inner, s.user);
  }
  return s;
}

std::string cacheKey(Kind kind, const ConvDims& p, bool bias, bool relu, bool blocked) {
  std::ostringstream k;
  k << static_cast<char>(kind) << (blocked ? 'b' : 'n') << (bias ? 'B' : '-') << (relu ? 'R' : '-') << (gAlgorithm == Algorithm::kAuto ? 'a' : 'd')
    << (precision() == Precision::kBf16 ? "h" : "") << omp_get_max_threads();
  for (int64_t v : {p.n, p.h, p.w, p.ci, p.kh, p.kw, p.co, p.oh, p.ow, p.sh, p.sw, p.pt, p.pl, p.pb, p.pr, p.dh, p.dw}) k << ',' << v;
  return k.str();
}

dnnl::primitive_attr scratchpadAttr(bool relu) {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  if (relu) {
    dnnl::post_ops ops;
#if DNNL_VERSION_MAJOR >= 3
    ops.append_eltwise(dnnl::algorithm::eltwise_relu, 0.f, 0.f);  // 3.0 dropped the scale argument (was 1)
#else
    ops.append_eltwise(1.f, dnnl::algorithm::eltwise_relu, 0.f, 0.f);
#endif
    attr.set_post_ops(ops);
  }
  return attr;
}

// The three primitive descriptors. oneDNN 3.0 folded the operation descriptors
// (convolution_*::desc) into the primitive_desc constructors (engine first, attributes after the
// geometry or the forward hint); 2.x builds the operation descriptor first, as before.
struct Geometry {
  memory::dims strides, dil, padL, padR;
};
Geometry geometry(const ConvDims& p) { return {{p.sh, p.sw}, {p.dh - 1, p.dw - 1}, {p.pt, p.pl}, {p.pb, p.pr}}; }

using ForwardPd = dnnl::convolution_forward::primitive_desc;
using DataPd = dnnl::convolution_backward_data::primitive_desc;
using WeightsPd = dnnl::convolution_backward_weights::primitive_desc;
constexpr auto kProp = dnnl::prop_kind::forward_training;
using Alg = dnnl::algorithm;

ForwardPd makeForwardPd(Alg alg, const memory::desc& src, const memory::desc& wei, const memory::desc* bias, const memory::desc& dst,
                        const Geometry& g, const dnnl::primitive_attr& attr) {
#if DNNL_VERSION_MAJOR >= 3
  if (bias) return ForwardPd(cpuEngine(), kProp, alg, src, wei, *bias, dst, g.strides, g.dil, g.padL, g.padR, attr);
  return ForwardPd(cpuEngine(), kProp, alg, src, wei, dst, g.strides, g.dil, g.padL, g.padR, attr);
#else
  if (bias) return ForwardPd(dnnl::convolution_forward::desc(kProp, alg, src, wei, *bias, dst, g.strides, g.dil, g.padL, g.padR), attr, cpuEngine());
  return ForwardPd(dnnl::convolution_forward::desc(kProp, alg, src, wei, dst, g.strides, g.dil, g.padL, g.padR), attr, cpuEngine());
#endif
}

DataPd makeDataPd(Alg alg, const memory::desc& diffSrc, const memory::desc& wei, const memory::desc& diffDst, const Geometry& g, const ForwardPd& hint,
                  const dnnl::primitive_attr& attr) {
#if DNNL_VERSION_MAJOR >= 3
  return DataPd(cpuEngine(), alg, diffSrc, wei, diffDst, g.strides, g.dil, g.padL, g.padR, hint, attr);
#else
  return DataPd(dnnl::convolution_backward_data::desc(alg, diffSrc, wei, diffDst, g.strides, g.dil, g.padL, g.padR), attr, cpuEngine(), hint);
#endif
}

WeightsPd makeWeightsPd(Alg alg, const memory::desc& src, const memory::desc& diffWei, const memory::desc& diffDst, const Geometry& g, const ForwardPd& hint,
                        const dnnl::primitive_attr& attr) {
#if DNNL_VERSION_MAJOR >= 3
  return WeightsPd(cpuEngine(), alg, src, diffWei, diffDst, g.strides, g.dil, g.padL, g.padR, hint, attr);
#else
  return WeightsPd(dnnl::convolution_backward_weights::desc(alg, src, diffWei, diffDst, g.strides, g.dil, g.padL, g.padR), attr, cpuEngine(),
                   hint);
#endif
}

// The forward primitive descriptor (also the hint of the backward passes), with inputs of `type`.
ForwardPd forwardPd(Alg alg, dt type, const ConvDims& p, bool blocked, bool bias, bool relu) {
  const auto src = act(p.n, p.ci, p.h, p.w, blocked, type), dst = act(p.n, p.co, p.oh, p.ow, blocked), wei = filter(p, true, type);
  if (bias) {
    const memory::desc b({p.co}, dt::f32, tag::x);
    return makeForwardPd(alg, src, wei, &b, dst, geometry(p), scratchpadAttr(relu));
  }
  return makeForwardPd(alg, src, wei, nullptr, dst, geometry(p), scratchpadAttr(relu));
}

// Builds the entry's primitive and argument slots with `alg` and inputs of `type` (f32 or bf16; the
// outputs are f32). Returns false, leaving `e` untouched, when oneDNN has no implementation of that
// algorithm for these shapes; other errors propagate.
bool build(Entry& e, Alg alg, dt type, Kind kind, const ConvDims& p, bool blocked, bool bias, bool relu) {
  const memory::desc src = act(p.n, p.ci, p.h, p.w, false), dst = act(p.n, p.co, p.oh, p.ow, false), wei = filter(p, false);
  const bool optional = alg != Alg::convolution_direct;
  Entry built;
  try {
    const ForwardPd fwd = forwardPd(alg, type, p, blocked, bias && kind == Kind::kForward, relu && kind == Kind::kForward);
    if (kind == Kind::kForward) {
      built.prim = dnnl::convolution_forward(fwd);
      built.impl = fwd.impl_info_str();
      built.scratchpad = fwd.scratchpad_desc();
      built.slots.push_back(makeSlot(DNNL_ARG_SRC, true, src, fwd.src_desc()));
      built.slots.push_back(makeSlot(DNNL_ARG_WEIGHTS, true, wei, fwd.weights_desc()));
      if (bias) built.slots.push_back(makeSlot(DNNL_ARG_BIAS, true, memory::desc({p.co}, dt::f32, tag::x), fwd.bias_desc()));
      built.slots.push_back(makeSlot(DNNL_ARG_DST, false, dst, fwd.dst_desc()));
    } else if (kind == Kind::kData) {
      const DataPd pd = makeDataPd(alg, act(p.n, p.ci, p.h, p.w, blocked), filter(p, true, type), act(p.n, p.co, p.oh, p.ow, blocked, type), geometry(p),
                                   fwd, scratchpadAttr(false));
      built.prim = dnnl::convolution_backward_data(pd);
      built.impl = pd.impl_info_str();
      built.scratchpad = pd.scratchpad_desc();
      built.slots.push_back(makeSlot(DNNL_ARG_DIFF_DST, true, dst, pd.diff_dst_desc()));
      built.slots.push_back(makeSlot(DNNL_ARG_WEIGHTS, true, wei, pd.weights_desc()));
      built.slots.push_back(makeSlot(DNNL_ARG_DIFF_SRC, false, src, pd.diff_src_desc()));
    } else {
      const WeightsPd pd = makeWeightsPd(alg, act(p.n, p.ci, p.h, p.w, blocked, type), filter(p, true), act(p.n, p.co, p.oh, p.ow, blocked, type),
                                         geometry(p), fwd, scratchpadAttr(false));
      built.prim = dnnl::convolution_backward_weights(pd);
      built.impl = pd.impl_info_str();
      built.scratchpad = pd.scratchpad_desc();
      built.slots.push_back(makeSlot(DNNL_ARG_SRC, true, src, pd.src_desc()));
      built.slots.push_back(makeSlot(DNNL_ARG_DIFF_DST, true, dst, pd.diff_dst_desc()));
      built.slots.push_back(makeSlot(DNNL_ARG_DIFF_WEIGHTS, false, wei, pd.diff_weights_desc()));
    }
  } catch (const dnnl::error& err) {
    if (optional && err.status == dnnl_unimplemented) return false;
    throw;
  }
  e = std::move(built);
  return true;
}

Entry& entryFor(Kind kind, const ConvDims& p, bool bias, bool relu) {
  const bool blocked = useBlocked(p);
  const std::string key = cacheKey(kind, p, bias, relu, blocked);
  auto it = cache.find(key);
  if (it != cache.end()) return *it->second;
  auto e = std::make_unique<Entry>();
  // Winograd where oneDNN implements it here (its kernels want the blocked layout), else direct.
  if (!(winogradCandidate(kind, p) && build(*e, Alg::convolution_winograd, dt::f32, kind, p, true, bias, relu))) {
    build(*e, Alg::convolution_direct, bf16Direct(kind, p) ? dt::bf16 : dt::f32, kind, p, blocked, bias, relu);
  }
  Entry& ref = *e;
  cache.emplace(key, std::move(e));
  return ref;
}

void execute(Entry& e, const std::vector<void*>& ptrs) {
  auto& strm = cpuStream();
  std::unordered_map<int, memory> args;
  // Scratch slot 0 is oneDNN's scratchpad; slots 1.. hold reordered tensors.
  args[DNNL_ARG_SCRATCHPAD] = memory(e.scratchpad, cpuEngine(), scratch(0, e.scratchpad.get_size() + 64));
  std::vector<memory> inner(e.slots.size());
  for (size_t i = 0; i < e.slots.size(); i++) {
    Slot& s = e.slots[i];
    s.user.set_data_handle(ptrs[i]);
    if (s.reorder) {
      inner[i] = memory(s.inner, cpuEngine(), scratch(static_cast<int>(i) + 1, s.inner.get_size() + 64));
      if (s.input) s.reorderPrim.execute(strm, {{DNNL_ARG_FROM, s.user}, {DNNL_ARG_TO, inner[i]}});
    }
    args[s.arg] = s.reorder ? inner[i] : s.user;
  }
  e.prim.execute(strm, args);
  for (size_t i = 0; i < e.slots.size(); i++) {
    Slot& s = e.slots[i];
    if (s.reorder && !s.input) s.reorderPrim.execute(strm, {{DNNL_ARG_FROM, inner[i]}, {DNNL_ARG_TO, s.user}});
  }
  strm.wait();
}

// dims: [n, h, w, ci, kh, kw, co, oh, ow, sh, sw, padTop, padLeft, padBottom, padRight, dilH, dilW].
// The bottom/right pads are set to what the output size needs (oneDNN requires
// oh = ⌊(h + pt + pb − ekh)/sh⌋ + 1 exactly) when they are within a stride of it.
ConvDims readDims(const Args& a, size_t i) {
  auto d = a.integers(i, "dims", 17, 0);
  ConvDims p{d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10], d[11], d[12], d[13], d[14], d[15], d[16]};
  const char* names[] = {"n", "h", "w", "ci", "kh", "kw", "co", "oh", "ow", "sh", "sw"};
  for (int k = 0; k < 11; k++) {
    if (d[k] < 1) a.rangeError(std::string("dims.") + names[k] + " must be ≥ 1, got " + std::to_string(d[k]));
  }
  if (p.dh < 1 || p.dw < 1) a.rangeError("dims: dilations must be ≥ 1, got " + std::to_string(p.dh) + "×" + std::to_string(p.dw));
  auto fit = [&](int64_t in, int64_t k, int64_t dil, int64_t s, int64_t padBegin, int64_t& padEnd, int64_t out, const char* axis) {
    const int64_t ek = (k - 1) * dil + 1;
    const int64_t need = (out - 1) * s + ek - in - padBegin;
    // The end padding may differ from what `out` needs by less than a stride (rows never read under
    // floor rounding, rows read past the padding under ceil rounding); more means `out` is wrong.
    const bool follows = need - padEnd <= s - 1 && padEnd - need <= s - 1;
    const int64_t given = padEnd;
    if (follows) padEnd = need < 0 ? 0 : need;
    if (!follows || (in + padBegin + padEnd - ek) < 0 || (in + padBegin + padEnd - ek) / s + 1 != out) {
      std::ostringstream m;
      m << "dims: output " << axis << " " << out << " does not follow from input " << in << ", filter " << k << ", dilation " << dil << ", stride " << s
        << " and padding " << padBegin << "/" << given;
      a.rangeError(m.str());
    }
  };
  fit(p.h, p.kh, p.dh, p.sh, p.pt, p.pb, p.oh, "height");
  fit(p.w, p.kw, p.dw, p.sw, p.pl, p.pr, p.ow, "width");
  return p;
}

std::string describe(const ConvDims& p) {
  std::ostringstream s;
  s << "x [" << p.n << "," << p.h << "," << p.w << "," << p.ci << "], filter [" << p.kh << "," << p.kw << "," << p.ci << "," << p.co << "], out ["
    << p.n << "," << p.oh << "," << p.ow << "," << p.co << "], strides " << p.sh << "×" << p.sw << ", pads " << p.pt << "/" << p.pl << "/" << p.pb
    << "/" << p.pr << ", dilations " << p.dh << "×" << p.dw;
  return s.str();
}

}  // namespace

Napi::Value Conv2dForward(const Napi::CallbackInfo& info) {
  Args a(info, "conv2dForward");
  ConvDims p = readDims(a, 4);
  const std::string activation = a.string(5, "activation");
  if (activation != "linear" && activation != "relu") a.rangeError("activation: expected 'linear' or 'relu', got '" + activation + "'");
  float* x = a.f32(0, "x", a.elements({p.n, p.h, p.w, p.ci}, "x"));
  float* w = a.f32(1, "filter", a.elements({p.kh, p.kw, p.ci, p.co}, "filter"));
  const bool hasBias = !info[2].IsNull() && !info[2].IsUndefined();
  float* b = hasBias ? a.f32(2, "bias", p.co) : nullptr;
  float* y = a.f32(3, "y", a.elements({p.n, p.oh, p.ow, p.co}, "y"));
  return guarded(a, describe(p), [&] {
    Entry& e = entryFor(Kind::kForward, p, hasBias, activation == "relu");
    if (hasBias) execute(e, {x, w, b, y});
    else execute(e, {x, w, y});
  });
}

Napi::Value Conv2dBackwardData(const Napi::CallbackInfo& info) {
  Args a(info, "conv2dBackwardData");
  ConvDims p = readDims(a, 3);
  float* dy = a.f32(0, "dy", a.elements({p.n, p.oh, p.ow, p.co}, "dy"));
  float* w = a.f32(1, "filter", a.elements({p.kh, p.kw, p.ci, p.co}, "filter"));
  float* dx = a.f32(2, "dx", a.elements({p.n, p.h, p.w, p.ci}, "dx"));
  return guarded(a, describe(p), [&] { execute(entryFor(Kind::kData, p, false, false), {dy, w, dx}); });
}

Napi::Value Conv2dBackwardWeights(const Napi::CallbackInfo& info) {
  Args a(info, "conv2dBackwardWeights");
  ConvDims p = readDims(a, 3);
  float* x = a.f32(0, "x", a.elements({p.n, p.h, p.w, p.ci}, "x"));
  float* dy = a.f32(1, "dy", a.elements({p.n, p.oh, p.ow, p.co}, "dy"));
  float* dw = a.f32(2, "dw", a.elements({p.kh, p.kw, p.ci, p.co}, "dw"));
  return guarded(a, describe(p), [&] { execute(entryFor(Kind::kWeights, p, false, false), {x, dy, dw}); });
}

Napi::Value SetConvLayout(const Napi::CallbackInfo& info) {
  Args a(info, "setConvLayout");
  const std::string l = a.string(0, "layout");
  if (l == "nhwc") gLayout = Layout::kNhwc;
  else if (l == "blocked") gLayout = Layout::kBlocked;
  else a.rangeError("layout: expected 'nhwc' or 'blocked', got '" + l + "'");
  return info.Env().Undefined();
}

std::string convLayoutName() { return gLayout == Layout::kNhwc ? "nhwc" : "blocked"; }

Napi::Value SetConvAlgorithm(const Napi::CallbackInfo& info) {
  Args a(info, "setConvAlgorithm");
  const std::string l = a.string(0, "algorithm");
  if (l == "auto") gAlgorithm = Algorithm::kAuto;
  else if (l == "direct") gAlgorithm = Algorithm::kDirect;
  else a.rangeError("algorithm: expected 'auto' or 'direct', got '" + l + "'");
  return info.Env().Undefined();
}

std::string convAlgorithmName() { return gAlgorithm == Algorithm::kAuto ? "auto" : "direct"; }

Napi::Object ConvPrimitives(Napi::Env env) {
  auto o = Napi::Object::New(env);
  for (auto& [k, e] : cache) {
    std::string reorders;
    for (auto& s : e->slots) reorders += s.reorder ? "R" : "-";
    o.Set(k, e->impl + " reorders:" + reorders);
  }
  return o;
}

void clearConvCache() { cache.clear(); }

}  // namespace mia
