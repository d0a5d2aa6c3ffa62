#include "common.h"

#include <omp.h>
#include <oneapi/dnnl/dnnl.hpp>
#include <pthread.h>

#include <cmath>
#include <sstream>

namespace mia {

Napi::Value Args::at(size_t i, const char* name) const {
  if (i >= info_.Length() || info_[i].IsUndefined()) typeError(std::string(name) + " is missing");
  return info_[i];
}

void Args::typeError(const std::string& message) const {
  throw Napi::TypeError::New(info_.Env(), std::string(kernel_) + ": " + message);
}

void Args::rangeError(const std::string& message) const {
  throw Napi::RangeError::New(info_.Env(), std::string(kernel_) + ": " + message);
}

static const char* typedArrayName(napi_typedarray_type t) {
  switch (t) {
    case napi_int8_array: return "Int8Array";
    case napi_uint8_array: return "Uint8Array";
    case napi_uint8_clamped_array: return "Uint8ClampedArray";
    case napi_int16_array: return "Int16Array";
    case napi_uint16_array: return "Uint16Array";
    case napi_int32_array: return "Int32Array";
    case napi_uint32_array: return "Uint32Array";
    case napi_float32_array: return "Float32Array";
    case napi_float64_array: return "Float64Array";
    default: return "a typed array of another type";
  }
}

static std::string describeValue(const Napi::Value& v) {
  if (v.IsTypedArray()) return typedArrayName(v.As<Napi::TypedArray>().TypedArrayType());
  if (v.IsNumber()) return "number " + v.ToString().Utf8Value();
  if (v.IsString()) return "a string";
  if (v.IsArray()) return "an array";
  if (v.IsNull()) return "null";
  if (v.IsBoolean()) return "a boolean";
  if (v.IsObject()) return "an object";
  return "another value";
}

float* Args::f32(size_t i, const char* name, int64_t need) const {
  Napi::Value v = at(i, name);
  if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != napi_float32_array) {
    typeError(std::string(name) + ": expected a Float32Array, got " + describeValue(v));
  }
  auto a = v.As<Napi::Float32Array>();
  if (need < 0 || static_cast<int64_t>(a.ElementLength()) < need) {
    rangeError(std::string(name) + ": expected a view of at least " + std::to_string(need) + " elements, got " +
               std::to_string(a.ElementLength()));
  }
  return a.Data();
}

int32_t* Args::i32(size_t i, const char* name, int64_t need) const {
  Napi::Value v = at(i, name);
  if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != napi_int32_array) {
    typeError(std::string(name) + ": expected an Int32Array, got " + describeValue(v));
  }
  auto a = v.As<Napi::Int32Array>();
  if (need < 0 || static_cast<int64_t>(a.ElementLength()) < need) {
    rangeError(std::string(name) + ": expected a view of at least " + std::to_string(need) + " elements, got " +
               std::to_string(a.ElementLength()));
  }
  return a.Data();
}

double Args::number(size_t i, const char* name) const {
  Napi::Value v = at(i, name);
  if (!v.IsNumber()) typeError(std::string(name) + ": expected a number, got " + describeValue(v));
  double d = v.As<Napi::Number>().DoubleValue();
  if (!std::isfinite(d)) rangeError(std::string(name) + ": expected a finite number, got " + v.ToString().Utf8Value());
  return d;
}

int64_t Args::integer(size_t i, const char* name, int64_t min, int64_t max) const {
  double d = number(i, name);
  if (d != std::floor(d) || d < static_cast<double>(min) || d > static_cast<double>(max)) {
    rangeError(std::string(name) + ": expected an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "], got " +
               info_[i].ToString().Utf8Value());
  }
  return static_cast<int64_t>(d);
}

int64_t Args::elements(std::initializer_list<int64_t> factors, const char* what) const {
  int64_t p = 1;
  for (int64_t f : factors) {
    if (f < 0 || __builtin_mul_overflow(p, f, &p) || p > (int64_t(1) << 40)) {
      rangeError(std::string(what) + ": more than 2^40 elements");
    }
  }
  return p;
}

bool Args::boolean(size_t i, const char* name) const {
  Napi::Value v = at(i, name);
  if (!v.IsBoolean()) typeError(std::string(name) + ": expected a boolean, got " + describeValue(v));
  return v.As<Napi::Boolean>().Value();
}

std::string Args::string(size_t i, const char* name) const {
  Napi::Value v = at(i, name);
  if (!v.IsString()) typeError(std::string(name) + ": expected a string, got " + describeValue(v));
  return v.As<Napi::String>().Utf8Value();
}

std::vector<int64_t> Args::integers(size_t i, const char* name, size_t count, int64_t min) const {
  Napi::Value v = at(i, name);
  std::vector<int64_t> out;
  auto check = [&](double d, size_t k) {
    if (!std::isfinite(d) || d != std::floor(d) || d < static_cast<double>(min) || d >= 2147483648.0) {
      std::ostringstream m;
      m << name << "[" << k << "]: expected a finite integer ≥ " << min << ", got " << d;
      rangeError(m.str());
    }
    out.push_back(static_cast<int64_t>(d));
  };
  if (v.IsTypedArray() && v.As<Napi::TypedArray>().TypedArrayType() == napi_int32_array) {
    auto a = v.As<Napi::Int32Array>();
    for (size_t k = 0; k < a.ElementLength(); k++) check(a[k], k);
  } else if (v.IsArray()) {
    auto a = v.As<Napi::Array>();
    for (uint32_t k = 0; k < a.Length(); k++) {
      Napi::Value e = a.Get(k);
      if (!e.IsNumber()) typeError(std::string(name) + "[" + std::to_string(k) + "]: expected a number, got " + describeValue(e));
      check(e.As<Napi::Number>().DoubleValue(), k);
    }
  } else {
    typeError(std::string(name) + ": expected an array of integers, got " + describeValue(v));
  }
  if (count != 0 ? out.size() != count : out.size() > 8) {
    rangeError(std::string(name) + ": expected " + (count != 0 ? std::to_string(count) : std::string("0 to 8")) + " values, got " +
               std::to_string(out.size()));
  }
  return out;
}

namespace {
sigset_t asynchronousSignals() {
  sigset_t set;
  sigfillset(&set);
  for (int fault : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT}) sigdelset(&set, fault);
  return set;
}
const sigset_t kAsynchronous = asynchronousSignals();
}  // namespace

SignalsHeld::SignalsHeld() { pthread_sigmask(SIG_BLOCK, &kAsynchronous, &previous_); }
SignalsHeld::~SignalsHeld() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }

void holdSignalsInWorkers() {
#pragma omp parallel
  {
    if (omp_get_thread_num() != 0) pthread_sigmask(SIG_BLOCK, &kAsynchronous, nullptr);
  }
}

std::string describeException(const std::exception& e) {
  if (auto* d = dynamic_cast<const dnnl::error*>(&e)) {
    return std::string("oneDNN: ") + d->what() + " (status " + std::to_string(static_cast<int>(d->status)) + ")";
  }
  return e.what();
}

std::string shapeString(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); i++) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

int64_t product(const std::vector<int64_t>& shape) {
  int64_t p = 1;
  for (int64_t d : shape) p *= d;
  return p;
}

}  // namespace mia
