// RUN: weft-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(dist-run-on-root{report=1})' | FileCheck %s

// A region nothing distributed: rank 0 alone runs it, under its name with
// _rank0, and the other ranks' copies are marked stale.
// CHECK-LABEL: func.func @sum_scop0_rank0(
// CHECK:         affine.for
// CHECK-LABEL: func.func @sum_scop0(
// CHECK-SAME:      %[[N:[^:]+]]: index, %[[X:[^:]+]]: memref<?xf64>)
// CHECK-SAME:      attributes {dist.alias_check}
// CHECK-NEXT:    %[[ME:.+]] = dist.rank
// CHECK-NEXT:    %[[ZERO:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[ROOT:.+]] = arith.cmpi eq, %[[ME]], %[[ZERO]]
// CHECK-NEXT:    scf.if %[[ROOT]] {
// CHECK-NEXT:      func.call @sum_scop0_rank0(%[[N]], %[[X]])
// CHECK-NEXT:    }
// CHECK-NEXT:    dist.set_replicas_stale
// CHECK-NEXT:    return
// expected-remark @below {{runs on rank 0 alone, nothing in it being distributed: the other ranks' copies of the arrays it writes are marked stale}}
func.func @sum_scop0(%n: index, %x: memref<?xf64>) {
  affine.for %i = 1 to %n {
    %a = affine.load %x[%i - 1] : memref<?xf64>
    %b = affine.load %x[%i] : memref<?xf64>
    %s = arith.addf %a, %b : f64
    affine.store %s, %x[%i] : memref<?xf64>
  }
  return
}

// -----

// A region with messages in it, its forms and their dispatcher, and a
// declaration: none changes.
// CHECK-NOT:     _rank0
// CHECK-NOT:     dist.set_replicas_stale
// CHECK-LABEL: func.func @copy_scop0_distributed(
// CHECK:         dist.isend
func.func private @sqrt(f64) -> f64
func.func @copy_scop0_sequential(%x: memref<8xf64>) attributes {dist.sequential} {
  return
}
func.func @copy_scop0_distributed(%x: memref<8xf64>) {
  %me = dist.rank
  dist.isend %x elements "{ A[i] : 0 <= i < 8 }" () to %me tag 0 : memref<8xf64>
  dist.wait_all
  return
}
func.func @copy_scop0(%x: memref<8xf64>) attributes {dist.alias_check} {
  %np = dist.num_ranks
  %one = arith.constant 1 : index
  %seq = arith.cmpi eq, %np, %one : index
  scf.if %seq {
    func.call @copy_scop0_sequential(%x) : (memref<8xf64>) -> ()
  } else {
    func.call @copy_scop0_distributed(%x) : (memref<8xf64>) -> ()
  }
  return
}

// -----

// The dispatcher of a region nothing distributed that checks its arguments
// for overlap (dist-fold-alias-checks') is the region: it becomes the
// function rank 0 runs; the forms it chooses between stay as they are.
// CHECK-LABEL: func.func @pair_scop0_overlapping(
// CHECK-LABEL: func.func @pair_scop0_sequential(
// CHECK-LABEL: func.func @pair_scop0_rank0(
// CHECK:         dist.ranges_overlap
// CHECK-LABEL: func.func @pair_scop0(
// CHECK:         scf.if
// CHECK-NEXT:      func.call @pair_scop0_rank0(
func.func @pair_scop0_overlapping(%a: memref<?xf64>, %b: memref<?xf64>)
    attributes {dist.sequential} {
  return
}
func.func @pair_scop0_sequential(%a: memref<?xf64>, %b: memref<?xf64>)
    attributes {dist.sequential} {
  return
}
// expected-remark @below {{runs on rank 0 alone}}
func.func @pair_scop0(%a: memref<?xf64>, %b: memref<?xf64>)
    attributes {dist.alias_check} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %o = dist.ranges_overlap %a[%c0, %c8], %b[%c0, %c8] : memref<?xf64>, memref<?xf64>
  scf.if %o {
    func.call @pair_scop0_overlapping(%a, %b) : (memref<?xf64>, memref<?xf64>) -> ()
  } else {
    func.call @pair_scop0_sequential(%a, %b) : (memref<?xf64>, memref<?xf64>) -> ()
  }
  return
}

// -----

// A scalar of the caller the region sets and code after it may read: rank
// 0 fills a one-element array with it after the region and broadcasts it;
// a scalar only the region reads (weft.region_only) is not sent.
// CHECK-LABEL: func.func @residual_scop0(
// CHECK-SAME:      %[[R:[^:]+]]: memref<f64>, %[[T:[^:]+]]: memref<f64> {weft.region_only})
// CHECK:         %[[SLOT:.+]] = memref.alloca() : memref<1xf64>
// CHECK-NEXT:    scf.if
// CHECK-NEXT:      func.call @residual_scop0_rank0(%[[R]], %[[T]])
// CHECK-NEXT:      %[[V:.+]] = memref.load %[[R]][]
// CHECK-NEXT:      memref.store %[[V]], %[[SLOT]][%{{.+}}]
// CHECK-NEXT:    }
// CHECK-NEXT:    dist.set_replicas_stale
// CHECK-NEXT:    dist.broadcast %[[SLOT]] elements "{ S[0] }" () root
// CHECK-NEXT:    %[[W:.+]] = memref.load %[[SLOT]][%{{.+}}]
// CHECK-NEXT:    memref.store %[[W]], %[[R]][]
// CHECK-NEXT:    return
// expected-remark @below {{runs on rank 0 alone, nothing in it being distributed: then rank 0 sends #0 to the other ranks;}}
func.func @residual_scop0(%r: memref<f64>, %t: memref<f64> {weft.region_only}) {
  %one = arith.constant 1.0 : f64
  affine.store %one, %t[] : memref<f64>
  %v = affine.load %t[] : memref<f64>
  affine.store %v, %r[] : memref<f64>
  return
}

// -----

// A scalar MPI cannot send (f16): every rank computes the region, as
// before.
// CHECK-LABEL: func.func @half_scop0(
// CHECK-NOT:     dist.rank
// CHECK:         affine.store
func.func @half_scop0(%h: memref<f16>) {
  %one = arith.constant 1.0 : f16
  affine.store %one, %h[] : memref<f16>
  return
}

// -----

// `#pragma weft nodist` (weft.nodist): every rank runs it, as the directive
// says.
// CHECK-LABEL: func.func @seeded_scop0(
// CHECK-NOT:     dist.rank
// CHECK:         affine.store
func.func @seeded_scop0(%s: memref<1xf64>) attributes {weft.nodist} {
  %one = arith.constant 1.0 : f64
  affine.store %one, %s[0] : memref<1xf64>
  return
}
