// RUN: weft compile --target=cuda --gpu-choice=always %s -o %t.cu
// RUN: grep -v '^// CHECK' %t.cu | FileCheck %s
// RUN: g++ -x c++ -O2 -Wall -Werror -fopenmp -DWEFT_CUDA_EMULATE %t.cu -o %t.emu -lm
// RUN: gcc -O2 %s -o %t.ref -lm
// RUN: %t.ref > %t.ref.out
// RUN: %t.emu > %t.emu.out
// RUN: cmp %t.ref.out %t.emu.out

// What the kernels and launches of loops that do not start at 0 read like.
#include <stdio.h>

enum { N = 300 };
static double a[N], b[N][N];

// A sum from 1 to n - 1: the grid-stride loop runs over `i` itself, to the
// source's bound, computed in the kernel from n; its block count `i_blocks`
// is the host's rounded-up division, capped (the output's comments that
// hold these lines are left out of what FileCheck reads).
// CHECK: static __global__ void weft_f_scop0_distributed_kernel(int64_t i_blocks, int64_t n, double *restrict a, double *restrict s) {
// CHECK: for (int64_t i = 1 + ((int64_t)blockIdx.x * 256 + (int64_t)threadIdx.x); i < n - 1; i += i_blocks * 256) {
// CHECK-NEXT: s_partial += a[i] * a[i];
//
// A 2-D grid over i from 2 and j from 1: the trip counts the host computes
// are named after the loops they count, the grid's sizes are divisions
// rounded up.
// CHECK: static __global__ void weft_f_scop0_distributed_kernel_0(int64_t i_count, int64_t j_count, double *restrict b, double *restrict a, int64_t b_dim1) {
// CHECK: if (((int64_t)blockIdx.y * 8 + (int64_t)threadIdx.y < i_count) & ((int64_t)blockIdx.x * 32 + (int64_t)threadIdx.x < j_count)) {
//
// CHECK: static void weft_f_scop0_distributed(
// CHECK: int64_t [[WANT:tmp_[0-9]+]] = ((int64_t)n - 2 + 255) / 256;
// CHECK-NEXT: int64_t i_blocks = [[WANT]] < 1728 ? [[WANT]] : 1728;
// CHECK-NEXT: WEFT_CUDA_LAUNCH(weft_f_scop0_distributed_kernel, i_blocks, 1, 1, 256, 1, 1, i_blocks, (int64_t)n, d_a, d_s);
// CHECK-NEXT: WEFT_CUDA_LAUNCH(weft_f_scop0_distributed_kernel_0, ((int64_t)n - 2 + 31) / 32, ((int64_t)n - 2 + 7) / 8, 1, 32, 8, 1, (int64_t)n - 2, (int64_t)n - 2, d_b, d_a, b_dim1);
static void f(int n, double s[1], double a[n], double b[n][n]) {
#pragma scop
  for (int i = 1; i < n - 1; i++)
    s[0] += a[i] * a[i];
  for (int i = 2; i < n; i++)
    for (int j = 1; j < n - 1; j++)
      b[i][j] = b[i][j] * 0.5 + a[j];
#pragma endscop
}

int main(void) {
  double s[1] = {0};
  for (int i = 0; i < N; i++) {
    a[i] = i % 9 - 4;
    for (int j = 0; j < N; j++)
      b[i][j] = (i * 3 + j) % 7;
  }
  f(N, s, a, b);
  f(3, s, a, b);
  f(1, s, a, b);
  double check = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      check += b[i][j] * (i + 1) + j;
  printf("%.17g %.17g\n", s[0], check);
  return 0;
}
