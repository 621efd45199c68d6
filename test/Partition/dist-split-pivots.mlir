// RUN: weft-opt %s --split-input-file --verify-diagnostics \
// RUN:   --mlir-print-op-on-diagnostic=false \
// RUN:   --pass-pipeline='builtin.module(dist-split-pivots{report=1})' | FileCheck %s

// Floyd-Warshall: the i loop carries dependences only through row k (read
// before i = k, rewritten at i = k, read after it). It becomes three loops
// over [0, k), [k, k + 1) and [k + 1, n), in the original order; the j
// loops inside are not split, although column k is a pivot of theirs too.
// CHECK-LABEL: func.func @floyd_warshall
// CHECK: affine.for %[[K:.*]] = 0 to %[[N:.*]] {
// CHECK-NEXT: affine.for %{{.*}} = 0 to min #{{.*}}(%[[K]])[%[[N]]] {
// CHECK-NEXT: affine.for %{{.*}} = 0 to %[[N]] {
// CHECK-NOT: dist.pivot_split
// CHECK: } {dist.pivot_split = 0 : i64}
// CHECK-NEXT: affine.for %{{.*}} = max #{{.*}}(%[[K]]) to min #{{.*}}(%[[K]])[%[[N]]] {
// CHECK: } {dist.pivot_split = 0 : i64}
// CHECK-NEXT: affine.for %{{.*}} = max #{{.*}}(%[[K]]) to %[[N]] {
// CHECK: } {dist.pivot_split = 0 : i64}
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @floyd_warshall(%p: memref<?x?xf64>, %n: index) {
  affine.for %k = 0 to %n {
    // expected-remark @below {{split at iteration i1 = i0: every flow dependence the loop carries starts or ends there}}
    affine.for %i = 0 to %n {
      affine.for %j = 0 to %n {
        %a = affine.load %p[%i, %j] : memref<?x?xf64>
        %b = affine.load %p[%i, %k] : memref<?x?xf64>
        %c = affine.load %p[%k, %j] : memref<?x?xf64>
        %s = arith.addf %b, %c : f64
        %m = arith.minimumf %a, %s : f64
        affine.store %m, %p[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}

// -----

// The pieces' bounds: [lb, min(ub, p)), [max(lb, p), min(ub, p + 1)),
// [max(lb, p + 1), ub), here with a pivot that is a symbol (the last
// element, read by every earlier iteration and then rewritten).
// CHECK-DAG: #[[UB1:.*]] = affine_map<()[s0, s1] -> (s0, s1 - 1)>
// CHECK-DAG: #[[LB2:.*]] = affine_map<()[s0] -> (s0 - 1, 2)>
// CHECK-DAG: #[[UB2:.*]] = affine_map<()[s0, s1] -> (s0, s1)>
// CHECK-DAG: #[[LB3:.*]] = affine_map<()[s0] -> (s0, 2)>
// CHECK-LABEL: func.func @last_element
// CHECK: affine.for %{{.*}} = 2 to min #[[UB1]]()[%[[M:.*]], %[[N:.*]]] {
// CHECK: affine.for %{{.*}} = max #[[LB2]]()[%[[N]]] to min #[[UB2]]()[%[[M]], %[[N]]] {
// CHECK: affine.for %{{.*}} = max #[[LB3]]()[%[[N]]] to %[[M]] {
func.func @last_element(%a: memref<?xf64>, %m: index, %n: index) {
  // expected-remark @below {{split at iteration i0 = p1 - 1: every flow dependence the loop carries starts or ends there}}
  affine.for %i = 2 to %m {
    %x = affine.load %a[%i] : memref<?xf64>
    %y = affine.load %a[symbol(%n) - 1] : memref<?xf64>
    %z = arith.mulf %x, %y : f64
    affine.store %z, %a[%i] : memref<?xf64>
  }
  return
}

// -----

// Every later iteration reads what iteration 0 wrote: peeling it off is a
// split at the constant 0. No iteration runs before it, so there are two
// pieces, [0, 1) and [1, n).
// CHECK-LABEL: func.func @first_element
// CHECK: affine.for %{{.*}} = 0 to min #{{.*}}()[%{{.*}}] {
// CHECK: } {dist.pivot_split = 0 : i64}
// CHECK-NEXT: affine.for %{{.*}} = 1 to %{{.*}} {
// CHECK: } {dist.pivot_split = 0 : i64}
// CHECK-NEXT: return
func.func @first_element(%a: memref<?xf64>, %n: index) {
  // expected-remark @below {{split at iteration i0 = 0}}
  affine.for %i = 0 to %n {
    %x = affine.load %a[%i] : memref<?xf64>
    %y = affine.load %a[0] : memref<?xf64>
    %z = arith.addf %x, %y : f64
    affine.store %z, %a[%i] : memref<?xf64>
  }
  return
}

// -----

// Dependences between neighbouring iterations meet at no single iteration;
// a loop that holds a parallel loop is a time loop, whose inner loops are
// the units. Neither is split.
// CHECK-LABEL: func.func @no_pivot
// CHECK-NOT: dist.pivot_split
func.func @no_pivot(%a: memref<?xf64>, %b: memref<?x?xf64>, %n: index) {
  affine.for %i = 1 to %n {
    %x = affine.load %a[%i - 1] : memref<?xf64>
    affine.store %x, %a[%i] : memref<?xf64>
  }
  affine.for %t = 0 to %n {
    affine.for %i = 0 to %n {
      %y = affine.load %b[%t, %i] : memref<?x?xf64>
      affine.store %y, %b[%t + 1, %i] : memref<?x?xf64>
    }
  }
  return
}

// -----

// Two split loops get two ids.
// CHECK-LABEL: func.func @two_splits
// CHECK-COUNT-2: dist.pivot_split = 0
// CHECK-COUNT-3: dist.pivot_split = 1
func.func @two_splits(%a: memref<?xf64>, %b: memref<?xf64>, %n: index) {
  // expected-remark @below {{split at iteration i0 = 0}}
  affine.for %i = 0 to %n {
    %x = affine.load %a[%i] : memref<?xf64>
    %y = affine.load %a[0] : memref<?xf64>
    %z = arith.addf %x, %y : f64
    affine.store %z, %a[%i] : memref<?xf64>
  }
  // expected-remark @below {{split at iteration i0 = 3}}
  affine.for %i = 0 to %n {
    %x = affine.load %b[%i] : memref<?xf64>
    %y = affine.load %b[3] : memref<?xf64>
    %z = arith.addf %x, %y : f64
    affine.store %z, %b[%i] : memref<?xf64>
  }
  return
}
