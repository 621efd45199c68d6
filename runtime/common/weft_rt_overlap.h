/*===- weft_rt_overlap.h - Do two arguments' ranges overlap? -------*- C -*-===*
 *
 * The run-time check of a region whose pointer arguments may overlap
 * (dist-alias-check, dist.ranges_overlap): the C+MPI and the CUDA outputs
 * both call it, so weft copies this file into each of them, before
 * runtime/mpi/weft_rt_mpi.h or runtime/cuda/hpc/weft_cuda.h. C and C++.
 *
 *===----------------------------------------------------------------------===*/
#ifndef WEFT_RT_OVERLAP_H
#define WEFT_RT_OVERLAP_H

#include <stdint.h>

/* The region as written, which runs where the arguments overlap (and on a
   single rank), stays a function of its own: inlined into the dispatcher
   beside the checks, GCC 12 compiled the loops of PolyBench's atax into 14 %
   more instructions than the input's (docs/performance.md, section 11.5).
   noinline, unlike noipa, still lets GCC propagate the caller's constant
   sizes into it. */
#define WEFT_RT_AS_WRITTEN __attribute__((noinline))

/* Whether elements [alo, ahi) of the array at a (elements of asize bytes)
   and [blo, bhi) of the one at b share a byte. Offsets may be negative; the
   addresses are compared as integers, in unsigned arithmetic, so no pointer
   outside an object is formed. */
static __attribute__((unused)) int
weft_rt_ranges_overlap(const void *a, int64_t alo, int64_t ahi, int64_t asize,
                       const void *b, int64_t blo, int64_t bhi, int64_t bsize) {
  if (alo >= ahi || blo >= bhi)
    return 0;
  uintptr_t a0 = (uintptr_t)a + (uintptr_t)alo * (uintptr_t)asize;
  uintptr_t a1 = (uintptr_t)a + (uintptr_t)ahi * (uintptr_t)asize;
  uintptr_t b0 = (uintptr_t)b + (uintptr_t)blo * (uintptr_t)bsize;
  uintptr_t b1 = (uintptr_t)b + (uintptr_t)bhi * (uintptr_t)bsize;
  return a0 < b1 && b0 < a1;
}

#endif /* WEFT_RT_OVERLAP_H */
