// REQUIRES: mpicc, mpirun
// RUN: mpicc -O1 -Wall -Werror -I%weft_src/runtime/common -I%weft_src/runtime/mpi %s -o %t.exe
// RUN: env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none WEFT_STATS=1 mpirun --oversubscribe -np 2 %t.exe 2>&1 | FileCheck %s
// RUN: env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none WEFT_STATS=1 mpirun --oversubscribe -np 3 %t.exe 2>&1 | FileCheck %s --check-prefix=THREE

// The runtime's messages without the compiler: every rank exchanges element
// sets of an 8 x 8 array with every other rank, as the generated code does
// (weft_rt_isend_elements and weft_rt_irecv_elements for each peer, then
// weft_rt_wait_all), and checks every element afterwards; a wrong element
// exits with 1 on the rank that sees it.
//
// 1. Disjoint sets (halos): pairs of ranks send each other rows [1, 3) of
//    columns [2, 6) and receive them into rows [5, 7), so no element is
//    both sent and received: the messages go straight from and to the
//    array through a datatype of their runs (2 runs each).
// 2. A set that is sent and received at once (rows [3, 5), whole rows: one
//    run): each rank's array must end with the peer's values from before
//    the exchange, so those messages go through buffers; at 3 ranks two
//    receives write the same elements, and the later peer's values win,
//    as they did when every message was packed.
//
// (mpirun forwards stdout and stderr separately: in either order.)
// CHECK-DAG: exchanges checked on 2 ranks
// CHECK-DAG: weft: 2 ranks sent 384 bytes in 4 messages
// CHECK-DAG: weft: 4 sends and receives went through a packing buffer
// THREE-DAG: exchanges checked on 3 ranks
// THREE-DAG: weft: 3 ranks sent 896 bytes in 8 messages
// THREE-DAG: weft: 12 sends and receives went through a packing buffer
#include "weft_rt_overlap.h"
#include "weft_rt_blocks.h"
#include "weft_rt_elements.h"
#include "weft_rt_mpi.h"

// Tables in the layout of include/weft/Analysis/Polyhedral/ElementSets.h:
// dims, params, pieces; per piece: divisions, rows, then each row as
// (level, kind, coefficients of the params and subscripts, constant), kind 0
// being `expr >= 0`. Parameters: lo, hi.
//   { A[i, j] : lo <= i < hi and 2 <= j < 6 }
static const int64_t band[] = {
    2, 2, 1, 0, 4,
    0, 0, -1, 0, 1, 0, 0,  // i - lo >= 0
    0, 0, 0, 1, -1, 0, -1, // hi - 1 - i >= 0
    1, 0, 0, 0, 0, 1, -2,  // j - 2 >= 0
    1, 0, 0, 0, 0, -1, 5,  // 5 - j >= 0
};
//   { A[i, j] : lo <= i < hi and 0 <= j < 8 }
static const int64_t rows[] = {
    2, 2, 1, 0, 4,
    0, 0, -1, 0, 1, 0, 0,
    0, 0, 0, 1, -1, 0, -1,
    1, 0, 0, 0, 0, 1, 0,
    1, 0, 0, 0, 0, -1, 7,
};

static double A[8][8];

static double value(int rank, int i, int j) { return 100 * rank + 8 * i + j; }

static void check(int ok, const char *what, int i, int j) {
  if (!ok) {
    printf("rank %d: %s A[%d][%d] = %g\n", weft_rt_rank, what, i, j, A[i][j]);
    exit(1);
  }
}

int main(void) {
  int me = weft_rt_rank, size = weft_rt_size;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      A[i][j] = value(me, i, j);

  // 1. Ranks 2k and 2k + 1 send each other rows [1, 3) of the band and
  // receive it into rows [5, 7): the receiver's set is the sender's moved
  // down by 4 rows, which the first value of weft_rt_values (the linear
  // index of the array's first element) expresses.
  int partner = (me ^ 1) < size ? me ^ 1 : -1;
  if (partner >= 0) {
    weft_rt_isend_elements(band, A, 8, partner, 0, weft_rt_values(0, 8, 1, 3));
    weft_rt_irecv_elements(band, A, 8, partner, 0,
                           weft_rt_values(-32, 8, 1, 3));
  }
  weft_rt_wait_all();
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      int received = partner >= 0 && i >= 5 && i < 7 && j >= 2 && j < 6;
      double expected = received ? value(partner, i - 4, j) : value(me, i, j);
      check(A[i][j] == expected, "halo", i, j);
    }

  // 2. Rows [3, 5) to and from every peer.
  for (int peer = 0; peer < size; ++peer)
    if (peer != me) {
      weft_rt_isend_elements(rows, A, 8, peer, 1, weft_rt_values(0, 8, 3, 5));
      weft_rt_irecv_elements(rows, A, 8, peer, 1, weft_rt_values(0, 8, 3, 5));
    }
  weft_rt_wait_all();
  int last = me == size - 1 ? size - 2 : size - 1;
  for (int i = 3; i < 5; ++i)
    for (int j = 0; j < 8; ++j)
      check(A[i][j] == value(last, i, j), "swapped", i, j);

  printf("exchanges checked on %d ranks\n", size);
  return 0;
}
