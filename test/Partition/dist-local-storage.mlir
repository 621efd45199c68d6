// RUN: weft-opt %s --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(dist-partition,func.func(dist-materialize{report=1}),cse)' \
// RUN:   | FileCheck %s
// RUN: weft-opt %s \
// RUN:   --pass-pipeline='builtin.module(dist-partition,func.func(dist-materialize{local-storage=0}))' \
// RUN:   | FileCheck %s --check-prefix=FULL

// Private arrays (weft.region_only, written before they are read) get
// rank-local storage: A, distributed by rows, holds the rank's rows plus
// one halo row on each side; T, distributed by columns, the rank's columns
// plus the one to the right. Every access, the message code's too,
// subtracts the first index held; the messages name the first element held. `out` is read after the region and keeps
// its full storage.

// expected-remark @below {{stored rank-locally: (double *)(A): each rank allocates the indices [[rlo0, rhi0] -> { [(0)] : rlo0 < 0 and rhi0 > 0; [(-1 + rlo0)] : 0 < rlo0 <= 98 and rhi0 > rlo0; [(rlo0)] : rhi0 > 0 and ((rlo0 = 99 and rhi0 >= 100) or rlo0 = 0) }, [rlo0, rhi0] -> { [(100)] : rlo0 <= 99 and rhi0 > rlo0 and rhi0 >= 99; [(rhi0)] : rhi0 = 1 and rlo0 <= 0; [(1 + rhi0)] : rhi0 > rlo0 and 2 <= rhi0 <= 98 }) of dimension 0}}
// expected-remark @below {{stored rank-locally: (double *)(T): each rank allocates the indices [[rlo0, rhi0] -> { [(0)] : rlo0 < 0 and rhi0 > 0; [(rlo0)] : 0 <= rlo0 <= 99 and rhi0 > rlo0 }, [rlo0, rhi0] -> { [(100)] : rlo0 <= 99 and rhi0 > rlo0 and rhi0 >= 99; [(rhi0)] : rhi0 = 1 and rlo0 <= 0; [(1 + rhi0)] : rhi0 > rlo0 and 2 <= rhi0 <= 98 }) of dimension 1}}
func.func @smooth(%a: memref<100x8xf64> {weft.region_only, weft.c_arg = "(double *)(A)"},
                  %t: memref<8x100xf64> {weft.region_only, weft.c_arg = "(double *)(T)"},
                  %out: memref<100xf64> {weft.c_arg = "(double *)(out)"}) {
  %v = arith.constant 1.0 : f64
  // expected-remark @below {{sent after this unit}}
  affine.for %i = 0 to 100 {
    affine.for %j = 0 to 8 {
      affine.store %v, %a[%i, %j] : memref<100x8xf64>
      affine.store %v, %t[%j, %i] : memref<8x100xf64>
    }
  } {dist.layout = #dist.layout<[block on 0, replicated], grid = [?]>}
  // expected-remark @below {{sent after this unit}}
  affine.for %i = 1 to 99 {
    %x = affine.load %a[%i - 1, 0] : memref<100x8xf64>
    %y = affine.load %a[%i + 1, 0] : memref<100x8xf64>
    %z = affine.load %t[3, %i + 1] : memref<8x100xf64>
    %s = arith.addf %x, %y : f64
    %w = arith.addf %s, %z : f64
    affine.store %w, %out[%i] : memref<100xf64>
  } {dist.layout = #dist.layout<[block on 0], grid = [?]>}
  return
}
// CHECK-LABEL: func.func @smooth(
// CHECK: %[[A:.*]] = memref.alloc(%{{.*}}) : memref<?x8xf64>
// CHECK: %[[T:.*]] = memref.alloc(%{{.*}}) : memref<8x?xf64>
// CHECK: affine.store %{{.*}}, %[[A]][%[[I:.*]] - symbol(%[[A0:.*]]), %{{.*}}] : memref<?x8xf64>
// CHECK: affine.store %{{.*}}, %[[T]][%{{.*}}, %[[I]] - symbol(%[[T0:.*]])] : memref<8x?xf64>
// The halos' messages name global subscripts, and the first element each
// storage holds (origin):
// CHECK: dist.isend %[[T]] elements "{{.*}} M1[3, i1] : {{.*}}" ({{.*}}) origin [%[[Z:.*]], %[[T0]]] to
// CHECK: dist.irecv %[[T]] elements "{{.*}}" ({{.*}}) origin [%[[Z]], %[[T0]]] from
// CHECK: dist.isend %[[A]] elements "{{.*}} M0[rhi0, 0] : {{.*}}" ({{.*}}) origin [%[[A0]], %[[Z]]] to
// CHECK: dist.irecv %[[A]] elements "{{.*}}" ({{.*}}) origin [%[[A0]], %[[Z]]] from
// CHECK: dist.wait_all
// CHECK: affine.load %[[A]][%{{.*}} - symbol(%[[A0]]) - 1, 0] : memref<?x8xf64>
// CHECK: affine.load %[[A]][%{{.*}} - symbol(%[[A0]]) + 1, 0] : memref<?x8xf64>
// CHECK: affine.load %[[T]][3, %{{.*}} - symbol(%[[T0]]) + 1] : memref<8x?xf64>
// CHECK: affine.store %{{.*}}, %arg2[%{{.*}}] : memref<100xf64>
// CHECK: memref.dealloc %[[A]]
// CHECK: memref.dealloc %[[T]]
// CHECK-NEXT: return

// FULL-NOT: memref.alloc(
// FULL: affine.store %{{.*}}, %arg0[%{{.*}}, %{{.*}}] : memref<100x8xf64>
// FULL-NOT: memref.alloc(
