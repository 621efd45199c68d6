// RUN: weft compile --target=cuda --report %s -o %t.cu 2>&1 | FileCheck %s
// RUN: weft compile --target=cuda --report --fp-reductions=ordered %s -o %t.ordered.cu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ORDERED
// RUN: grep -c '^    weft_cuda_atomic_add(' %t.cu | FileCheck %s --check-prefix=ATOMICS
// RUN: grep -c '^    weft_cuda_atomic_[a-z]*(' %t.ordered.cu >%t.count || true
// RUN: FileCheck %s --check-prefix=ORDERED-ATOMICS --input-file %t.count

// --report on reductions with the cost model's choice (N = 4096, M = 512):
// a residual norm and its maximum inside a time loop around a sweep, whose
// arrays stay on the device, run there with their threads combining the
// sums (shared memory per block, one atomic per block); a dot product
// alone stays on the host (its copies cost more than the CPU's sum); a
// running sum whose partial results are stored is no reduction. With
// --fp-reductions=ordered the loops with floating-point reductions stay on
// the host in program order (the integer count in the same loop with them).

#define N 4096
#define M 512
double u[N][M], v[N][M], a[N], b[N], p[N];

double solve(int steps) {
  double norm = 0.0, big = 0.0, dot = 0.0, run = 0.0;
  int count = 0;
  int t, i, j;
#pragma scop
  for (t = 0; t < steps; t++) {
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < M - 1; j++)
        v[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < M - 1; j++) {
        norm += (v[i][j] - u[i][j]) * (v[i][j] - u[i][j]);
        big = v[i][j] > big ? v[i][j] : big;
        count += v[i][j] > 0.5 ? 1 : 0;
      }
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < M - 1; j++)
        u[i][j] = v[i][j];
  }
  for (i = 0; i < N; i++)
    dot += a[i] * b[i];
  for (i = 0; i < N; i++)
    p[i] = (run += a[i]);
#pragma endscop
  return norm + big + dot + run + count;
}

// CHECK: cuda-report-reductions.c:26:3: remark: stays on the host: it carries a dependence through u
// CHECK: cuda-report-reductions.c:30:5: remark: runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line 31 along threadIdx.x (the arrays' contiguous dimension); predicted {{.*}}; its threads combine norm (add), big (max), count (add): each block's partial results in warp shuffles, then across warps in shared memory, then one atomic update per block
// CHECK: cuda-report-reductions.c:40:3: remark: stays on the host: predicted {{.*}} on the CPU against {{.*}} on the device
// CHECK: cuda-report-reductions.c:42:3: remark: stays on the host: it carries a dependence through run; the loops in it are candidates
// ATOMICS: 2

// ORDERED: cuda-report-reductions.c:30:5: remark: stays on the host: it carries a dependence through norm (a reduction its threads cannot combine: --fp-reductions=ordered keeps its floating-point reduction in program order); the loops in it are candidates
// ORDERED: cuda-report-reductions.c:31:7: remark: stays on the host: it carries a dependence through norm (a reduction its threads cannot combine: --fp-reductions=ordered keeps its floating-point reduction in program order)
// ORDERED-ATOMICS: 0
