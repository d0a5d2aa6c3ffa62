#include "onednn.h"

namespace mia {

dnnl::engine& cpuEngine() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

dnnl::stream& cpuStream() {
  thread_local dnnl::stream s(cpuEngine());
  return s;
}

}  // namespace mia
