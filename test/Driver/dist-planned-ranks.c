// RUN: weft compile --report --nominal-size 1000000 %s -o %t.c 2>&1 | FileCheck %s --check-prefix=FOUR
// RUN: weft compile --report --ranks 1 --nominal-size 1000000 %s -o %t1.c 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: weft compile --report --ranks 16 --nominal-size 100000 %s -o %t16.c 2>&1 | FileCheck %s --check-prefix=SIXTEEN
// RUN: weft compile --report --ranks 16 --nominal-size 1000000 %s -o %t16.c 2>&1 | FileCheck %s --check-prefix=NODE
// RUN: weft compile --report --ranks 16 --ranks-per-node=1 --nominal-size 1000000 %s -o %t16.c 2>&1 | FileCheck %s --check-prefix=APART
// RUN: not weft compile --ranks-per-node=-2 %s -o %t0.c 2>&1 | FileCheck %s --check-prefix=PERNODE
// RUN: rm -f %t0.c && not weft compile --ranks 0 %s -o %t0.c 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: test ! -e %t0.c
// RUN: not weft compile --nominal-size -3 %s -o %t0.c 2>&1 | FileCheck %s --check-prefix=SIZE

// --ranks and --nominal-size say what the cost estimate plans for. The
// program runs on any number of ranks either way; planned for one rank,
// distributing costs messages and saves nothing; at the default nominal n
// of 4096 the sweep's 64 KB stay in one core's cache, and the messages cost
// more than the sweep. --ranks-per-node says how many of them share a
// node's memory: by default the 16 ranks fill one node of the `cpu` device
// and each reads its 1 MB of the sweep at 122.88 / 16 GB/s, not the 30
// GB/s of a core alone (docs/cost-model.md, "Ranks that share a node").

double A[1000000], B[1000000];

void smooth(int n) {
  int i;
#pragma scop
// FOUR: dist-planned-ranks.c:[[@LINE+6]]:3: remark: distributed: blocks of its iterations on each rank (predicted region time at 4 ranks
// ONE: dist-planned-ranks.c:[[@LINE+5]]:3: remark: not distributed: distributing it is predicted to be slower (predicted region time at 1 ranks
// SIXTEEN: dist-planned-ranks.c:[[@LINE+4]]:3: remark: distributed: blocks of its iterations on each rank (predicted region time at 16 ranks
// NODE: dist-planned-ranks.c:[[@LINE+3]]:3: remark: distributed: blocks of its iterations on each rank (predicted region time at 16 ranks 1.70e-04 s; 5.33e-04 s if replicated)
// APART: dist-planned-ranks.c:[[@LINE+2]]:3: remark: distributed: blocks of its iterations on each rank (predicted region time at 16 ranks 7.27e-05 s; 5.33e-04 s if replicated)
// SMALL: dist-planned-ranks.c:[[@LINE+1]]:3: remark: not distributed: distributing it is predicted to be slower (predicted region time at 4 ranks
  for (i = 1; i < n - 1; i++)
    B[i] = A[i - 1] + A[i] + A[i + 1];
#pragma endscop
}
// ZERO: weft compile: error: --ranks must be at least 1
// SIZE: weft compile: error: --nominal-size must be at least 1, got -3
// PERNODE: weft compile: for the --ranks-per-node option: '-2' value invalid for uint argument!
