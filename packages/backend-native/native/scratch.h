// Thread-local, 64-byte aligned buffers reused across calls (the wasm heap and these buffers are
// touched once and kept: on VMs where page faults are expensive, allocating per call costs more than
// the work).
#pragma once

#include <cstddef>

namespace mia {

// Buffer `slot` of the calling thread, at least `bytes` long (grown when needed; contents undefined).
void* scratch(int slot, size_t bytes);
// Bytes held by the calling thread's scratch buffers.
size_t scratchBytes();
// Frees the calling thread's scratch buffers.
void releaseScratch();

}  // namespace mia
