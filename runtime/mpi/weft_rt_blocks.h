/*===- weft_rt_blocks.h - The blocks of a distributed loop ----------*- C -*-===*
 *
 * weft copies this file, before runtime/mpi/weft_rt_mpi.h, into every
 * program it generates for --target=mpi and --target=mpi-cuda: the
 * iterations of [lb, ub) that rank p of np owns (dist.local_bounds). Every
 * rank computes every rank's block from the same arguments, so all agree
 * on who owns what without a message. Blocks are contiguous and in rank
 * order.
 *
 * No MPI here: test/unittests checks the blocks.
 *
 *===----------------------------------------------------------------------===*/
#ifndef WEFT_RT_BLOCKS_H
#define WEFT_RT_BLOCKS_H

#include <stdint.h>

/* Balanced blocks: with q = n / np, r = n % np, ranks below r own q + 1
   indices, the others q. */
static __attribute__((unused)) int64_t
weft_rt_block_lo(int64_t lb, int64_t ub, int64_t p, int64_t np) {
  int64_t n = ub > lb ? ub - lb : 0;
  int64_t q = n / np, r = n % np;
  return lb + p * q + (p < r ? p : r);
}

static __attribute__((unused)) int64_t
weft_rt_block_hi(int64_t lb, int64_t ub, int64_t p, int64_t np) {
  return weft_rt_block_lo(lb, ub, p + 1, np);
}

/* Blocks of equal work where iteration lb + k costs
   w_first + (w_last - w_first) * k / (n - 1): a triangular nest's rows
   (row i runs i inner iterations) split where the work before the block
   reaches p / np of the total, rather than at equal lengths. The work of
   the first k iterations, k * w_first + d * k * (k - 1) / 2, grows with k
   (weights are not negative), so a binary search finds the smallest k that
   reaches the target. Equal, negative or absent weights (n < 2) give the
   balanced blocks above. */
static __attribute__((unused)) int64_t
weft_rt_weighted_block_lo(int64_t lb, int64_t ub, int64_t p, int64_t np,
                          int64_t w_first, int64_t w_last) {
  int64_t n = ub > lb ? ub - lb : 0;
  if (n < 2 || w_first < 0 || w_last < 0 || w_first == w_last)
    return weft_rt_block_lo(lb, ub, p, np);
  if (p <= 0)
    return lb;
  if (p >= np)
    return lb + n;
  double a = (double)w_first;
  double d = ((double)w_last - (double)w_first) / (double)(n - 1);
  double total = (double)n * a + d * (double)n * (double)(n - 1) / 2;
  double target = total * (double)p / (double)np;
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t k = lo + (hi - lo) / 2;
    double work = (double)k * a + d * (double)k * (double)(k - 1) / 2;
    if (work >= target)
      hi = k;
    else
      lo = k + 1;
  }
  return lb + lo;
}

static __attribute__((unused)) int64_t
weft_rt_weighted_block_hi(int64_t lb, int64_t ub, int64_t p, int64_t np,
                          int64_t w_first, int64_t w_last) {
  return weft_rt_weighted_block_lo(lb, ub, p + 1, np, w_first, w_last);
}

#endif /* WEFT_RT_BLOCKS_H */
