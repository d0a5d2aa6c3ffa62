#include "scratch.h"

#include <cstdlib>
#include <new>
#include <vector>

namespace mia {

namespace {
struct Buffer {
  void* data = nullptr;
  size_t bytes = 0;
};
struct Pool {
  std::vector<Buffer> buffers;
  ~Pool() {
    for (Buffer& b : buffers) std::free(b.data);
  }
};
thread_local Pool pool;
}  // namespace

void* scratch(int slot, size_t bytes) {
  if (static_cast<size_t>(slot) >= pool.buffers.size()) pool.buffers.resize(slot + 1);
  Buffer& b = pool.buffers[slot];
  if (b.bytes < bytes) {
    std::free(b.data);
    b.data = nullptr;
    b.bytes = 0;
    size_t rounded = (bytes + 4095) & ~size_t(4095);
    void* p = nullptr;
    if (posix_memalign(&p, 64, rounded) != 0) throw std::bad_alloc();
    b.data = p;
    b.bytes = rounded;
  }
  return b.data;
}

size_t scratchBytes() {
  size_t total = 0;
  for (const Buffer& b : pool.buffers) total += b.bytes;
  return total;
}

void releaseScratch() {
  for (Buffer& b : pool.buffers) std::free(b.data);
  pool.buffers.clear();
}

}  // namespace mia
