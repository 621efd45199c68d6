// RUN: weft compile %s -o - | grep -v '^// CHECK' | FileCheck %s

// A scalar argument of a distributed region comes from code outside it,
// which other ranks may have run on outdated copies of arrays an earlier
// region left on rank 0: when that is so, rank 0 broadcasts it. It goes
// through a one-element array named after it, and every scalar shares one
// message table.

// CHECK: static WEFT_RT_REGION void weft_scale_scop0_distributed(
// CHECK: static const int64_t scalar_message[9] =
// CHECK: bool replicas_stale = weft_rt_replicas_stale();
// CHECK-NEXT: int32_t n_on_rank0[1];
// CHECK-NEXT: n_on_rank0[0] = n;
// CHECK-NEXT: if (replicas_stale) {
// CHECK: weft_rt_bcast_elements(scalar_message, n_on_rank0, 4, 0, values);
// CHECK: double f_on_rank0[1];
// CHECK-NEXT: f_on_rank0[0] = f;
// CHECK: weft_rt_bcast_elements(scalar_message, f_on_rank0, 8, 0, values);
// CHECK: double f_1 = f_on_rank0[0];

double A[100];

void scale(int n, double f) {
  int i;
#pragma scop
#pragma weft distribute(i: block)
  for (i = 0; i < n; i++)
    A[i] = f * A[i];
#pragma endscop
}
