//===- weft_rt_scratch.h - Per-thread reusable buffers (internal) -*- C++
//-*-===//
//
// Kernels need small temporary arrays (a weight tile, attention scores).
// Allocating them on every call costs more than the work itself on small
// models, so each thread keeps one growing buffer per use.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_SCRATCH_H
#define WEFT_RT_SCRATCH_H

#include <cstddef>
#include <vector>

namespace weft::rt::detail {

/// At least n floats owned by the calling thread; `Use` (any tag type)
/// separates buffers that can be live at the same time.
template <typename Use> float *threadScratch(size_t n) {
  thread_local std::vector<float> buffer;
  if (buffer.size() < n)
    buffer.resize(n);
  return buffer.data();
}

} // namespace weft::rt::detail

#endif
