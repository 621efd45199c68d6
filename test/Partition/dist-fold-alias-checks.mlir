// RUN: weft-opt %s --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(dist-fold-alias-checks{report=1})' \
// RUN:   | FileCheck %s
// RUN: weft-opt %s --pass-pipeline='builtin.module(dist-alias-check,dist-partition,func.func(dist-materialize),dist-fold-alias-checks)' \
// RUN:   | FileCheck %s --check-prefix=PIPELINE

// The distributed form differs from the region as written (it asks for
// the rank's block): the check stays and is reported.
// CHECK-LABEL: func.func @split_sequential(
// CHECK-LABEL: func.func @split_distributed(
// CHECK-LABEL: func.func @split(
// CHECK:         dist.ranges_overlap
func.func @split_sequential(%n: index, %a: memref<?xf64> {weft.c_arg = "(double *)(a)"},
                            %b: memref<?xf64> {weft.c_arg = "(double *)(b)"})
    attributes {dist.sequential} {
  return
}
func.func @split_distributed(%n: index, %a: memref<?xf64> {weft.c_arg = "(double *)(a)"},
                             %b: memref<?xf64> {weft.c_arg = "(double *)(b)"}) {
  %r = dist.rank
  return
}
// expected-remark @below {{arguments checked for overlap at entry (a and b): the region runs as written on rank 0 when they overlap}}
func.func @split(%n: index, %a: memref<?xf64> {weft.c_arg = "(double *)(a)"},
                 %b: memref<?xf64> {weft.c_arg = "(double *)(b)"})
    attributes {dist.alias_check} {
  %o = dist.ranges_overlap %a[%n, %n], %b[%n, %n] : memref<?xf64>, memref<?xf64>
  scf.if %o {
    func.call @split_sequential(%n, %a, %b) : (index, memref<?xf64>, memref<?xf64>) -> ()
    dist.set_replicas_stale
  } else {
    func.call @split_distributed(%n, %a, %b) : (index, memref<?xf64>, memref<?xf64>) -> ()
  }
  return
}

// Both forms are the region as written: one function under the region's
// name, no check.
// CHECK-NOT:   func.func @same_sequential
// CHECK-NOT:   func.func @same_distributed
// CHECK-LABEL: func.func @same(%{{[a-z0-9]+}}: index, %{{[a-z0-9]+}}: memref<?xf64>) {
// CHECK-NEXT:    affine.for
// CHECK-NOT:     dist.
// CHECK:         return
func.func @same_sequential(%n: index, %a: memref<?xf64>) attributes {dist.sequential} {
  affine.for %i = 0 to %n {
    %c = arith.constant 1.0 : f64
    affine.store %c, %a[%i] : memref<?xf64>
  }
  return
}
func.func @same_distributed(%n: index, %a: memref<?xf64>) {
  affine.for %i = 0 to %n {
    %c = arith.constant 1.0 : f64
    affine.store %c, %a[%i] : memref<?xf64>
  }
  return
}
func.func @same(%n: index, %a: memref<?xf64>) attributes {dist.alias_check} {
  %o = dist.ranges_overlap %a[%n, %n], %a[%n, %n] : memref<?xf64>, memref<?xf64>
  scf.if %o {
    func.call @same_sequential(%n, %a) : (index, memref<?xf64>) -> ()
  } else {
    func.call @same_distributed(%n, %a) : (index, memref<?xf64>) -> ()
  }
  return
}

// With a copy for overlapping arguments, that copy (plain pointers) is the
// one kept; the sequential copy's arguments were only checked disjoint.
// CHECK-NOT:   func.func @kept_overlapping
// CHECK-NOT:   func.func @kept_sequential
// CHECK-NOT:   func.func @kept_distributed
// CHECK-LABEL: func.func @kept(%{{[a-z0-9]+}}: index, %{{[a-z0-9]+}}: memref<?xf64>) {
// CHECK-NEXT:    affine.for
// CHECK-NEXT:      arith.constant 2.0
// CHECK-NOT:     dist.
// CHECK:         return
func.func @kept_overlapping(%n: index, %a: memref<?xf64>) attributes {dist.sequential} {
  affine.for %i = 0 to %n {
    %c = arith.constant 2.0 : f64
    affine.store %c, %a[%i] : memref<?xf64>
  }
  return
}
func.func @kept_sequential(%n: index, %a: memref<?xf64>) attributes {dist.args_disjoint, dist.sequential} {
  affine.for %i = 0 to %n {
    %c = arith.constant 1.0 : f64
    affine.store %c, %a[%i] : memref<?xf64>
  }
  return
}
func.func @kept_distributed(%n: index, %a: memref<?xf64>) attributes {dist.args_disjoint} {
  affine.for %i = 0 to %n {
    %c = arith.constant 1.0 : f64
    affine.store %c, %a[%i] : memref<?xf64>
  }
  return
}
func.func @kept(%n: index, %a: memref<?xf64>) attributes {dist.alias_check} {
  %o = dist.ranges_overlap %a[%n, %n], %a[%n, %n] : memref<?xf64>, memref<?xf64>
  scf.if %o {
    func.call @kept_overlapping(%n, %a) : (index, memref<?xf64>) -> ()
  } else {
    func.call @kept_sequential(%n, %a) : (index, memref<?xf64>) -> ()
  }
  return
}

// Through the pipeline: a loop the partitioner distributes keeps its
// check; a pinned split of the second region keeps it too.
// PIPELINE-LABEL: func.func @pinned_sequential(
// PIPELINE-LABEL: func.func @pinned_distributed(
// PIPELINE:         dist.local_bounds
// PIPELINE-LABEL: func.func @pinned(
// PIPELINE:         dist.ranges_overlap
func.func @pinned(%n: index {weft.c_arg = "n"},
                  %a: memref<?xf64> {weft.c_arg = "(double *)(a)", weft.may_alias},
                  %b: memref<?xf64> {weft.c_arg = "(double *)(b)", weft.may_alias}) {
  affine.for %i = 0 to %n {
    %v = affine.load %b[%i] : memref<?xf64>
    affine.store %v, %a[%i] : memref<?xf64>
  } {dist.layout = #dist.layout<[block on 0], grid = [?]>}
  return
}
