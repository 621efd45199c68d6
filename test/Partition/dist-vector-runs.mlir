// RUN: weft-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(dist-vector-runs))' | FileCheck %s
// RUN: weft-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(dist-vector-runs{run-length=4}),lower-affine)' \
// RUN:   | FileCheck %s --check-prefix=LOWERED
// RUN: not weft-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(dist-vector-runs{run-length=1}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADLENGTH

// A rank's block of a stencil row: the j loop's bounds are run-time values.
// It becomes runs of 16 iterations and a remainder, both with the body as
// it was; the bounds are computed once, before the outer loop. The i loop
// is not innermost and stays.
// CHECK-LABEL: func.func @stencil_row
// CHECK:      %[[LO:.*]] = affine.max #{{.*}}()[%[[BLO:.*]]]
// CHECK-NEXT: %[[HI:.*]] = affine.min #{{.*}}()[%[[N:.*]], %[[BHI:.*]]]
// CHECK-NEXT: %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT: %[[SPAN:.*]] = arith.subi %[[HI]], %[[LO]] : index
// CHECK-NEXT: %[[PART:.*]] = arith.remsi %[[SPAN]], %[[C16]] : index
// CHECK-NEXT: %[[END:.*]] = arith.subi %[[HI]], %[[PART]] : index
// CHECK-NEXT: affine.for %[[I:.*]] = 1 to 99 {
// CHECK-NEXT:   affine.for %[[START:.*]] = %[[LO]] to %[[END]] step 16 {
// CHECK-NEXT:     affine.for %[[J:.*]] = #{{.*}}(%[[START]]) to #{{.*}}(%[[START]]) {
// CHECK-NEXT:       affine.load %{{.*}}[%[[I]], %[[J]] - 1]
// CHECK-NEXT:       affine.load %{{.*}}[%[[I]], %[[J]] + 1]
// CHECK-NEXT:       arith.addf
// CHECK-NEXT:       affine.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   affine.for %[[J2:.*]] = %[[END]] to %[[HI]] {
// CHECK-NEXT:     affine.load %{{.*}}[%[[I]], %[[J2]] - 1]
// CHECK-NEXT:     affine.load %{{.*}}[%[[I]], %[[J2]] + 1]
// CHECK-NEXT:     arith.addf
// CHECK-NEXT:     affine.store %{{.*}}, %{{.*}}[%[[I]], %[[J2]]]
// CHECK-NEXT:   }
// CHECK-NEXT: }
// Lowered: the inner loop runs exactly run-length iterations from its
// run's start, the remainder from the runs' end to the upper bound.
// LOWERED-LABEL: func.func @stencil_row
// LOWERED:      %[[C4:.*]] = arith.constant 4 : index
// LOWERED-NEXT: %[[SPAN:.*]] = arith.subi %[[HI:.*]], %[[LO:.*]] : index
// LOWERED-NEXT: %[[REM:.*]] = arith.remsi %[[SPAN]], %[[C4]] : index
// LOWERED-NEXT: %[[END:.*]] = arith.subi %[[HI]], %[[REM]] : index
// LOWERED:      %[[STEP:.*]] = arith.constant 4 : index
// LOWERED-NEXT: scf.for %[[START:.*]] = %[[LO]] to %[[END]] step %[[STEP]] {
// LOWERED-NEXT:   %[[C4B:.*]] = arith.constant 4 : index
// LOWERED-NEXT:   %[[STARTEND:.*]] = arith.addi %[[START]], %[[C4B]] : index
// LOWERED:        scf.for %{{.*}} = %[[START]] to %[[STARTEND]] step
// LOWERED:      scf.for %{{.*}} = %[[END]] to %[[HI]] step
func.func @stencil_row(%a: memref<100x100xf64>, %b: memref<100x100xf64>,
                       %n: index, %me: index, %np: index) {
  %c1 = arith.constant 1 : index
  %lo, %hi, %st = dist.local_bounds %c1 to %n at %me of %np by #dist.dim<block on 1>
  affine.for %i = 1 to 99 {
    affine.for %j = max affine_map<()[s0] -> (1, s0)>()[%lo]
        to min affine_map<()[s0, s1] -> (s0 - 1, s1)>()[%n, %hi] {
      %l = affine.load %a[%i, %j - 1] : memref<100x100xf64>
      %r = affine.load %a[%i, %j + 1] : memref<100x100xf64>
      %s = arith.addf %l, %r : f64
      affine.store %s, %b[%i, %j] : memref<100x100xf64>
    }
  }
  return
}

// -----

// Left alone: a loop that carries a dependence (each iteration reads the
// element the previous one wrote: no vector lanes); a loop with a constant
// trip count (gcc vectorises it as it is); a loop walking a column (no
// contiguous access); a loop whose bound depends on the loop around it (the
// bounds are computed once, outside the nest).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:   arith.remsi
// CHECK-NOT:   step 16
// CHECK:       return
func.func @left_alone(%a: memref<100x100xf64>, %n: index, %me: index,
                      %np: index) {
  %c1 = arith.constant 1 : index
  %lo, %hi, %st = dist.local_bounds %c1 to %n at %me of %np by #dist.dim<block on 1>
  affine.for %i = 1 to 99 {
    affine.for %j = %lo to %hi {
      %l = affine.load %a[%i, %j - 1] : memref<100x100xf64>
      affine.store %l, %a[%i, %j] : memref<100x100xf64>
    }
    affine.for %j = 0 to 64 {
      %l = affine.load %a[%i, %j] : memref<100x100xf64>
      affine.store %l, %a[%i + 1, %j] : memref<100x100xf64>
    }
    affine.for %k = %lo to %hi {
      %l = affine.load %a[%k, 0] : memref<100x100xf64>
      affine.store %l, %a[%k, 1] : memref<100x100xf64>
    }
    affine.for %j = affine_map<(d0)[s0] -> (d0 + s0)>(%i)[%lo] to %hi {
      %l = affine.load %a[%i, %j] : memref<100x100xf64>
      affine.store %l, %a[%i + 1, %j] : memref<100x100xf64>
    }
  }
  return
}

// -----

// Left alone: a function with no distributed loop (the sequential copy, a
// region the partitioner did not distribute) stays as the user wrote it.
// CHECK-LABEL: func.func @not_distributed
// CHECK-NOT:   arith.remsi
// CHECK:       return
func.func @not_distributed(%a: memref<100x100xf64>, %b: memref<100x100xf64>,
                           %n: index) {
  affine.for %i = 1 to 99 {
    affine.for %j = 1 to %n {
      %l = affine.load %a[%i, %j] : memref<100x100xf64>
      affine.store %l, %b[%i, %j] : memref<100x100xf64>
    }
  }
  return
}

// BADLENGTH: run-length must be at least 2, not 1
