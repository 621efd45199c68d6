// RUN: weft-opt %s --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(dist-partition{report=1},func.func(dist-materialize{report=1}))' \
// RUN:   | FileCheck %s
// RUN: weft-opt %s --pass-pipeline='builtin.module(dist-partition{split-fp-reductions=0})' \
// RUN:   | FileCheck %s --check-prefix=ORDERED

// Column sums: the i loop only adds into y[j], so dist-partition may split
// it; dist-materialize then makes every rank whose block does not hold
// i = 0 start y from 0.0, and combines the partial sums with an all-reduce
// of all of y after the loop. y then needs no message: every rank has it.

// expected-remark @below {{read from before the region (from rank 0 when other ranks' copies are outdated): value: { M0[i0] : 0 <= i0 <= 299 }; value: { M1[i0, i1] : 0 <= i0 <= 3999 and 0 <= i1 <= 299 };}}
// expected-remark @below {{partition chosen by the dynamic program over 1 units (1 candidates, 1 states)}}
func.func @colsum(%a: memref<4000x300xf64>, %y: memref<300xf64>) {
  // expected-remark @below {{distributed: blocks of its iterations on each rank, partial results combined with MPI_Allreduce (add)}}
  // expected-remark @below {{partial results combined after this unit (all-reduce): add { M0[i0] : 0 <= i0 <= 299 }, starting from the identity: [rlo0, rhi0] -> { M0[i0] : 0 <= i0 <= 299 and (rlo0 > 0 or (rlo0 <= 0 and rhi0 <= 0)) };}}
  affine.for %i = 0 to 4000 {
    affine.for %j = 0 to 300 {
      %s = affine.load %y[%j] : memref<300xf64>
      %x = affine.load %a[%i, %j] : memref<4000x300xf64>
      %t = arith.addf %s, %x : f64
      affine.store %t, %y[%j] : memref<300xf64>
    }
  }
  return
}
// The reset: the identity stored into y, under the rank's block test.
// CHECK-LABEL: func.func @colsum
// CHECK: %[[ME:.*]] = dist.rank
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: memref.store %[[ZERO]], %{{.*}}[%{{.*}}] : memref<300xf64>
// CHECK: affine.for %{{.*}} = max
// CHECK-NOT: dist.reduce
// CHECK: dist.allreduce add %arg1 elements "{ M0[i0] : 0 <= i0 <= 299 }" () : memref<300xf64>
// CHECK-NOT: dist.isend
// CHECK: return

// Kept in program order, the i loop runs on every rank; only the j loop
// (no carried dependence) is split.
// ORDERED: affine.for %{{.*}} = 0 to 4000 {
// ORDERED-NEXT: affine.for %{{.*}} = 0 to 300 {
// ORDERED-NOT: dist.reduce
// ORDERED: } {dist.distribute = #dist.dim<block on 0>, dist.unit}
// ORDERED-NEXT: }
// ORDERED-NEXT: return
