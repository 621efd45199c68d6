//===- weft_rt_parallel.cpp - Threaded loops for the CPU kernels ----------===//
#include "weft_rt_parallel.h"

namespace weft::rt {

int maxThreads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

} // namespace weft::rt
