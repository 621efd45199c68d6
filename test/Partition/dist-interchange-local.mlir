// RUN: weft-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(dist-interchange-local{report=1}))' | FileCheck %s
// (A remark's "line N" counts from the start of its split.)

// mvt's second product after dist-materialize: the rank's block of i
// around the loop over j, which walks a column of A. Swapped: the
// innermost loop walks a row of A over the block.
// CHECK-LABEL: func.func @rank_block(
// CHECK:         affine.for %[[J:.+]] = 0 to %{{.+}} {
// CHECK-NEXT:      affine.for %[[I:.+]] = max #map()[%{{.+}}] to min #map1()[%{{.+}}, %{{.+}}] {
// CHECK-NEXT:        affine.load %{{.+}}[%[[I]]]
// CHECK-NEXT:        affine.load %{{.+}}[%[[J]], %[[I]]]
// CHECK-NOT:     dist.interchange
func.func @rank_block(%x: memref<?xf64>, %a: memref<?x64xf64>,
                      %y: memref<?xf64>, %n: index, %lo: index, %hi: index) {
  affine.for %i = max affine_map<()[s0] -> (0, s0)>()[%lo]
      to min affine_map<()[s0, s1] -> (s0, s1)>()[%n, %hi] {
    // expected-remark @below {{interchanged with the loop at line 15 around it, in each rank's part: the innermost loop walks consecutive elements in 2 of its distinct accesses, not 1, and carries no dependence}}
    affine.for %j = 0 to %n {
      %v = affine.load %x[%i] : memref<?xf64>
      %w = affine.load %a[%j, %i] : memref<?x64xf64>
      %z = affine.load %y[%j] : memref<?xf64>
      %p = arith.mulf %w, %z : f64
      %s = arith.addf %v, %p : f64
      affine.store %s, %x[%i] : memref<?xf64>
    }
  } {dist.interchange}
  return
}

// -----

// The region as written for one rank (dist.sequential) swaps alike,
// without a remark.
// CHECK-LABEL: func.func @one_rank_form(
// CHECK:         affine.for %[[J:.+]] = 0 to 48 {
// CHECK-NEXT:      affine.for %[[I:.+]] = 0 to 64 {
func.func @one_rank_form(%x: memref<64xf64>, %a: memref<48x64xf64>)
    attributes {dist.sequential} {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 48 {
      %v = affine.load %x[%i] : memref<64xf64>
      %w = affine.load %a[%j, %i] : memref<48x64xf64>
      %s = arith.addf %v, %w : f64
      affine.store %s, %x[%i] : memref<64xf64>
    }
  } {dist.interchange}
  return
}

// -----

// A pin's layout names the loops in their old order: it goes with the
// swap (dist-materialize applied it already).
// CHECK-LABEL: func.func @pinned(
// CHECK:         affine.for %[[J:.+]] = 0 to 48 {
// CHECK-NEXT:      affine.for %[[I:.+]] = 0 to 64 {
// CHECK-NOT:     dist.layout
func.func @pinned(%x: memref<64xf64>, %a: memref<48x64xf64>) {
  affine.for %i = 0 to 64 {
    // expected-remark @below {{interchanged with the loop at line 10 around it, in each rank's part}}
    affine.for %j = 0 to 48 {
      %v = affine.load %x[%i] : memref<64xf64>
      %w = affine.load %a[%j, %i] : memref<48x64xf64>
      %s = arith.addf %v, %w : f64
      affine.store %s, %x[%i] : memref<64xf64>
    }
  } {dist.interchange,
     dist.layout = #dist.layout<[block on 0, replicated], grid = [?]>}
  return
}

// -----

// A marked loop that no longer holds the inner loop alone stays as it is;
// the mark goes.
// CHECK-LABEL: func.func @holds_more(
// CHECK:         affine.for %[[I:.+]] = 0 to 64 {
// CHECK-NEXT:      affine.store
// CHECK-NEXT:      affine.for %[[J:.+]] = 0 to 48 {
// CHECK-NOT:     dist.interchange
func.func @holds_more(%x: memref<64xf64>, %a: memref<48x64xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 64 {
    affine.store %zero, %x[%i] : memref<64xf64>
    affine.for %j = 0 to 48 {
      %v = affine.load %x[%i] : memref<64xf64>
      %w = affine.load %a[%j, %i] : memref<48x64xf64>
      %s = arith.addf %v, %w : f64
      affine.store %s, %x[%i] : memref<64xf64>
    }
  } {dist.interchange}
  return
}

// -----

// An inner loop whose bounds use the outer loop's iterator (a triangle)
// cannot move around it.
// CHECK-LABEL: func.func @triangle(
// CHECK:         affine.for %[[I:.+]] = 0 to 64 {
// CHECK-NEXT:      affine.for %[[J:.+]] = 0 to #map(%[[I]]) {
// CHECK-NOT:     dist.interchange
func.func @triangle(%x: memref<64xf64>, %a: memref<64x64xf64>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      %v = affine.load %x[%i] : memref<64xf64>
      %w = affine.load %a[%j, %i] : memref<64x64xf64>
      %s = arith.addf %v, %w : f64
      affine.store %s, %x[%i] : memref<64xf64>
    }
  } {dist.interchange}
  return
}
