// The oneDNN CPU engine of the addon and the calling thread's stream (shared by the convolution and
// matrix-product primitives).
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

namespace mia {

dnnl::engine& cpuEngine();
dnnl::stream& cpuStream();

}  // namespace mia
