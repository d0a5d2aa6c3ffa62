// Template part of common.h.
#pragma once

#include <exception>
#include <new>

namespace mia {

std::string describeException(const std::exception& e);

template <typename F>
Napi::Value guarded(const Args& args, const std::string& what, F body) {
  try {
    body();
  } catch (const Napi::Error&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw Napi::Error::New(args.env(), std::string(args.kernel()) + " " + what + ": out of memory");
  } catch (const std::exception& e) {
    throw Napi::Error::New(args.env(), std::string(args.kernel()) + " " + what + ": " + describeException(e));
  }
  return args.env().Undefined();
}

}  // namespace mia
