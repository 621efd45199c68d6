// RUN: weft-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(dist-name-bounds))' | FileCheck %s
//
// The names (`i_lo`, `i_hi`, from the iterator's source name) are checked
// on the C output: test/Driver/dist-output-names.c.

// A loop cut to the rank's block (max and min bounds of top-level values)
// gets its bounds computed once before the outermost loop, and runs
// between them; the body is unchanged. The inner loop's bounds are
// constants and stay.
// CHECK-LABEL: func.func @block_rows
// CHECK:      %[[LO:.*]] = affine.max #{{.*}}()[%{{.*}}]
// CHECK-NEXT: %[[HI:.*]] = affine.min #{{.*}}()[%{{.*}}, %{{.*}}]
// CHECK-NEXT: affine.for %{{.*}} = 0 to 10 {
// CHECK-NEXT:   affine.for %[[I:.*]] = %[[LO]] to %[[HI]] {
// CHECK-NEXT:     affine.for %[[J:.*]] = 1 to 99 {
// CHECK-NEXT:       affine.load %{{.*}}[%[[I]] - 1, %[[J]]]
// CHECK-NEXT:       affine.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
func.func @block_rows(%a: memref<100x100xf64>, %b: memref<100x100xf64>,
                      %n: index, %me: index, %np: index) {
  %c1 = arith.constant 1 : index
  %lo, %hi, %st = dist.local_bounds %c1 to %n at %me of %np by #dist.dim<block on 0>
  affine.for %t = 0 to 10 {
    affine.for %i = max affine_map<()[s0] -> (1, s0)>()[%lo]
        to min affine_map<()[s0, s1] -> (s0 - 1, s1)>()[%n, %hi] {
      affine.for %j = 1 to 99 {
        %v = affine.load %a[%i - 1, %j] : memref<100x100xf64>
        affine.store %v, %b[%i, %j] : memref<100x100xf64>
      }
    }
  }
  return
}

// -----

// A bound that follows an enclosing loop (a triangle) stays in the loop's
// header: it is not a value of the function's top level. The outer loop's
// bounds are.
// CHECK-LABEL: func.func @triangle
// CHECK:      %[[LO:.*]] = affine.max
// CHECK-NEXT: %[[HI:.*]] = affine.min
// CHECK-NEXT: affine.for %[[I:.*]] = %[[LO]] to %[[HI]] {
// CHECK-NEXT:   affine.for %{{.*}} = max #{{.*}}(%[[I]])[%{{.*}}] to 100 {
func.func @triangle(%a: memref<100x100xf64>, %me: index, %np: index) {
  %c0 = arith.constant 0 : index
  %c100 = arith.constant 100 : index
  %lo, %hi, %st = dist.local_bounds %c0 to %c100 at %me of %np by #dist.dim<block on 0>
  affine.for %i = max affine_map<()[s0] -> (0, s0)>()[%lo]
      to min affine_map<()[s0] -> (100, s0)>()[%hi] {
    affine.for %j = max affine_map<(d0)[s0] -> (d0, s0)>(%i)[%lo] to 100 {
      %v = affine.load %a[%j, %i] : memref<100x100xf64>
      affine.store %v, %a[%i, %j] : memref<100x100xf64>
    }
  }
  return
}

// -----

// Without dist.local_bounds (a sequential copy, an undistributed region)
// nothing changes.
// CHECK-LABEL: func.func @sequential
// CHECK-NOT:  affine.max
// CHECK:      affine.for %{{.*}} = max #{{.*}}()[%{{.*}}] to min
func.func @sequential(%a: memref<100xf64>, %n: index, %m: index) {
  affine.for %i = max affine_map<()[s0] -> (1, s0)>()[%m]
      to min affine_map<()[s0] -> (99, s0)>()[%n] {
    %v = affine.load %a[%i - 1] : memref<100xf64>
    affine.store %v, %a[%i] : memref<100xf64>
  }
  return
}
