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

// Both forms are the region as written and the dispatcher checks no
// argument (it only chose by rank count): one function under the region's
// name.
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
func.func @same_distributed(%n: index, %a: memref<?xf64>) attributes {dist.args_disjoint} {
  affine.for %i = 0 to %n {
    %c = arith.constant 1.0 : f64
    affine.store %c, %a[%i] : memref<?xf64>
  }
  return
}
func.func @same(%n: index, %a: memref<?xf64>) attributes {dist.alias_check} {
  %p = dist.num_ranks
  %one = arith.constant 1 : index
  %o = arith.cmpi eq, %p, %one : index
  scf.if %o {
    func.call @same_sequential(%n, %a) : (index, memref<?xf64>) -> ()
  } else {
    func.call @same_distributed(%n, %a) : (index, memref<?xf64>) -> ()
  }
  return
}

// Nothing distributed, arguments checked (several processes): the check
// stays, and chooses between the region as written (plain
// pointers) and its sequential copy (arguments checked disjoint: restrict
// in C); the distributed form and the choice by rank count go.
// CHECK-NOT:   func.func @kept_distributed
// CHECK-LABEL: func.func @kept_overlapping(
// CHECK-SAME:      attributes {dist.sequential}
// CHECK-NEXT:    affine.for
// CHECK-NEXT:      arith.constant 2.0
// CHECK-LABEL: func.func @kept_sequential(
// CHECK-SAME:      attributes {dist.args_disjoint, dist.sequential}
// CHECK-LABEL: func.func @kept(
// CHECK-NEXT:    %[[O:.+]] = dist.ranges_overlap
// CHECK-NEXT:    scf.if %[[O]] {
// CHECK-NEXT:      func.call @kept_overlapping(
// CHECK-NEXT:    } else {
// CHECK-NEXT:      func.call @kept_sequential(
// CHECK-NEXT:    }
// CHECK-NEXT:    return
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
// expected-remark @below {{arguments checked for overlap at entry (a and a): the region runs as written when they overlap}}
func.func @kept(%n: index, %a: memref<?xf64> {weft.c_arg = "(double *)(a)"}) attributes {dist.alias_check} {
  %o = dist.ranges_overlap %a[%n, %n], %a[%n, %n] : memref<?xf64>, memref<?xf64>
  scf.if %o {
    %r = dist.rank
    %zero = arith.constant 0 : index
    %root = arith.cmpi eq, %r, %zero : index
    scf.if %root {
      func.call @kept_overlapping(%n, %a) : (index, memref<?xf64>) -> ()
    }
    dist.set_replicas_stale
  } else {
    %p = dist.num_ranks
    %one = arith.constant 1 : index
    %single = arith.cmpi eq, %p, %one : index
    scf.if %single {
      func.call @kept_sequential(%n, %a) : (index, memref<?xf64>) -> ()
    } else {
      func.call @kept_distributed(%n, %a) : (index, memref<?xf64>) -> ()
    }
  }
  return
}

// One process (--target=cuda): the sequential form is the region as
// written and the other one runs on disjoint arguments. They become
// `_overlapping` and `_sequential`, as above.
// CHECK-LABEL: func.func @host_overlapping(
// CHECK-SAME:      attributes {dist.sequential}
// CHECK-NEXT:    affine.for
// CHECK-NEXT:      arith.constant 3.0
// CHECK-LABEL: func.func @host_sequential(
// CHECK-SAME:      attributes {dist.args_disjoint, dist.sequential}
// CHECK-LABEL: func.func @host(
// CHECK-NEXT:    %[[O:.+]] = dist.ranges_overlap
// CHECK-NEXT:    scf.if %[[O]] {
// CHECK-NEXT:      func.call @host_overlapping(
// CHECK-NEXT:    } else {
// CHECK-NEXT:      func.call @host_sequential(
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK-NOT:   func.func @host_distributed
func.func @host_sequential(%n: index, %a: memref<?xf64>) attributes {dist.sequential} {
  affine.for %i = 0 to %n {
    %c = arith.constant 3.0 : f64
    affine.store %c, %a[%i] : memref<?xf64>
  }
  return
}
func.func @host_distributed(%n: index, %a: memref<?xf64>) attributes {dist.args_disjoint} {
  affine.for %i = 0 to %n {
    %c = arith.constant 3.0 : f64
    affine.store %c, %a[%i] : memref<?xf64>
  }
  return
}
// expected-remark @below {{arguments checked for overlap at entry (a and a): the region runs as written when they overlap}}
func.func @host(%n: index, %a: memref<?xf64> {weft.c_arg = "(double *)(a)"}) attributes {dist.alias_check} {
  %o = dist.ranges_overlap %a[%n, %n], %a[%n, %n] : memref<?xf64>, memref<?xf64>
  scf.if %o {
    func.call @host_sequential(%n, %a) : (index, memref<?xf64>) -> ()
  } else {
    func.call @host_distributed(%n, %a) : (index, memref<?xf64>) -> ()
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
