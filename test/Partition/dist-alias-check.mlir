// RUN: weft-opt %s --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(dist-alias-check)' \
// RUN:   | FileCheck %s
// RUN: weft-opt %s 2>/dev/null \
// RUN:   --pass-pipeline='builtin.module(dist-alias-check{live-out-everywhere=1})' \
// RUN:   | FileCheck %s --check-prefix=EVERYWHERE

// Every region becomes a dispatcher that runs the region as written on one
// rank (dist.num_ranks is 1) and the distributed form otherwise. Where
// arguments are checked for overlap, overlapping ones get a copy of their
// own, the region as written on rank 0; the sequential copy and the
// distributed form then take only arguments that do not overlap
// (dist.args_disjoint: `restrict` in C). Each copy is called once, so that
// the C compiler inlines it.
// A pointer written (a) and one read (b), plus a global (X): the pairs
// (a, b) and (a, X) may overlap, (b, X) is only read. The boxes are a's
// [1, n + 1) and b's [0, 2n - 1), each bounded where the loop runs.

// CHECK-LABEL: func.func @shift_overlapping(
// CHECK-SAME:    attributes {dist.sequential}
// CHECK:         affine.for
// CHECK-LABEL: func.func @shift_sequential(
// CHECK-SAME:    attributes {dist.args_disjoint, dist.sequential}
// CHECK:         affine.for
// CHECK-LABEL: func.func @shift_distributed(
// CHECK-SAME:    attributes {dist.args_disjoint}
// CHECK-NOT:     dist.ranges_overlap
// CHECK:         affine.for
// CHECK-LABEL: func.func @shift(
// CHECK-SAME:    %[[N:[a-z0-9]+]]: i32 {weft.c_arg = "n"}
// CHECK-SAME:    %[[A:[a-z0-9]+]]: memref<?xf64> {weft.c_arg = "(double *)(a)", weft.may_alias}
// CHECK-SAME:    %[[B:[a-z0-9]+]]: memref<?xf64> {weft.c_arg = "(double *)(b)", weft.may_alias}
// CHECK-SAME:    %[[X:[a-z0-9]+]]: memref<100xf64> {weft.c_arg = "(double *)(X)"}
// CHECK-SAME:    attributes {dist.alias_check}
// CHECK:         %[[AB:.*]] = dist.ranges_overlap %[[A]][%{{.*}}, %{{.*}}], %[[B]][%{{.*}}, %{{.*}}] : memref<?xf64>, memref<?xf64>
// CHECK:         %[[AX:.*]] = dist.ranges_overlap %[[A]][%{{.*}}, %{{.*}}], %[[X]][%{{.*}}, %{{.*}}] : memref<?xf64>, memref<100xf64>
// CHECK-NOT:     dist.ranges_overlap
// CHECK:         %[[ANY:.*]] = arith.ori %[[AB]], %[[AX]] : i1
// CHECK:         scf.if %[[ANY]] {
// CHECK:           %[[R:.*]] = dist.rank
// CHECK:           %[[ROOT:.*]] = arith.cmpi eq, %[[R]], %{{.*}} : index
// CHECK:           scf.if %[[ROOT]] {
// CHECK:             func.call @shift_overlapping(%[[N]], %[[A]], %[[B]], %[[X]])
// CHECK:           }
// CHECK:           dist.set_replicas_stale
// CHECK:         } else {
// CHECK:           %[[NP:.*]] = dist.num_ranks
// CHECK:           %[[ONE:.*]] = arith.cmpi eq, %[[NP]], %{{.*}} : index
// CHECK:           scf.if %[[ONE]] {
// CHECK:             func.call @shift_sequential(%[[N]], %[[A]], %[[B]], %[[X]])
// CHECK:           } else {
// CHECK:             func.call @shift_distributed(%[[N]], %[[A]], %[[B]], %[[X]])
// CHECK:           }
// CHECK:         }

// With the results needed everywhere, every rank runs the region as
// written on overlapping arguments.
// EVERYWHERE-LABEL: func.func @shift(
// EVERYWHERE:         scf.if
// EVERYWHERE-NEXT:      func.call @shift_overlapping
// EVERYWHERE-NEXT:    } else {
// EVERYWHERE:           dist.num_ranks
// EVERYWHERE:           scf.if
// EVERYWHERE-NEXT:        func.call @shift_sequential
// EVERYWHERE-NEXT:      } else {
// EVERYWHERE-NEXT:        func.call @shift_distributed
// EVERYWHERE-NOT:     set_replicas_stale
// EVERYWHERE-LABEL: func.func @distinct(

func.func @shift(%n32: i32 {weft.c_arg = "n"},
                 %a: memref<?xf64> {weft.c_arg = "(double *)(a)", weft.may_alias},
                 %b: memref<?xf64> {weft.c_arg = "(double *)(b)", weft.may_alias},
                 %x: memref<100xf64> {weft.c_arg = "(double *)(X)"}) {
  %n = arith.index_cast %n32 : i32 to index
  affine.for %i = 0 to %n {
    %v = affine.load %b[%i * 2] : memref<?xf64>
    %w = affine.load %x[%i] : memref<100xf64>
    %s = arith.addf %v, %w : f64
    affine.store %s, %a[%i + 1] : memref<?xf64>
  }
  return
}

// Distinct objects, restrict pointers (no weft.may_alias) and pointers the
// user asserted distinct (weft.noalias) need no check: the dispatcher only
// chooses by the number of ranks.
// CHECK-NOT:   func.func @distinct_overlapping(
// CHECK-LABEL: func.func @distinct_sequential(
// CHECK-SAME:    attributes {dist.sequential}
// CHECK-LABEL: func.func @distinct_distributed(
// CHECK-SAME:    attributes {dist.args_disjoint}
// CHECK-LABEL: func.func @distinct(
// CHECK-SAME:    attributes {dist.alias_check}
// CHECK:         %[[NP:.*]] = dist.num_ranks
// CHECK:         %[[ONE:.*]] = arith.cmpi eq, %[[NP]], %{{.*}} : index
// CHECK:         scf.if %[[ONE]] {
// CHECK-NEXT:      func.call @distinct_sequential(
// CHECK-NEXT:    } else {
// CHECK-NEXT:      func.call @distinct_distributed(
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @distinct(%n: index,
                    %a: memref<?xf64> {weft.c_arg = "(double *)(a)"},
                    %b: memref<?xf64> {weft.c_arg = "(double *)(b)", weft.may_alias, weft.noalias},
                    %x: memref<100xf64> {weft.c_arg = "(double *)(X)"}) {
  affine.for %i = 0 to %n {
    %v = affine.load %b[%i] : memref<?xf64>
    %w = affine.load %x[%i] : memref<100xf64>
    %s = arith.addf %v, %w : f64
    affine.store %s, %a[%i] : memref<?xf64>
  }
  return
}

// Pointers the region only reads cannot change each other (it writes only
// its own local here). A written scalar is checked against the pointers: a
// pointer may point at it.
// CHECK-LABEL: func.func @readOnly(
// CHECK-SAME:    attributes {dist.alias_check}
// CHECK-NOT:     dist.ranges_overlap
// CHECK:         func.call @readOnly_sequential(
// CHECK:         func.call @readOnly_distributed(
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @readOnly(%n: index,
                    %a: memref<?xf64> {weft.c_arg = "(double *)(a)", weft.may_alias},
                    %b: memref<?xf64> {weft.c_arg = "(double *)(b)", weft.may_alias}) {
  %out = memref.alloca() : memref<f64>
  affine.for %i = 0 to %n {
    %v = affine.load %a[%i] : memref<?xf64>
    %w = affine.load %b[%i] : memref<?xf64>
    %s = arith.addf %v, %w : f64
    affine.store %s, %out[] : memref<f64>
  }
  return
}
// CHECK-LABEL: func.func @scalar(
// CHECK-SAME:    attributes {dist.alias_check}
// CHECK:         dist.ranges_overlap {{.*}} : memref<?xf64>, memref<f64>
func.func @scalar(%n: index {weft.c_arg = "n"},
                  %a: memref<?xf64> {weft.c_arg = "(double *)(a)", weft.may_alias},
                  %out: memref<f64> {weft.c_arg = "&s"}) {
  affine.for %i = 0 to %n {
    %v = affine.load %a[%i] : memref<?xf64>
    %o = affine.load %out[] : memref<f64>
    %t = arith.addf %o, %v : f64
    affine.store %t, %out[] : memref<f64>
  }
  return
}

// A region the partitioner cannot model runs replicated, the region as
// written on every rank: nothing to check. So does a nodist region.
// CHECK-LABEL: func.func @indirect(
// CHECK-NOT:     dist.
// CHECK:         return
func.func @indirect(%n: index,
                    %a: memref<?xf64> {weft.c_arg = "(double *)(a)", weft.may_alias},
                    %b: memref<?xf64> {weft.c_arg = "(double *)(b)", weft.may_alias},
                    %idx: memref<?xindex> {weft.c_arg = "(long *)(idx)", weft.may_alias}) {
  affine.for %i = 0 to %n {
    %k = affine.load %idx[%i] : memref<?xindex>
    %v = memref.load %b[%k] : memref<?xf64>
    affine.store %v, %a[%i] : memref<?xf64>
  }
  return
}
// CHECK-LABEL: func.func @nodist(
// CHECK-NOT:     dist.ranges_overlap
// CHECK:         return
func.func @nodist(%n: index,
                  %a: memref<?xf64> {weft.c_arg = "(double *)(a)", weft.may_alias},
                  %b: memref<?xf64> {weft.c_arg = "(double *)(b)", weft.may_alias})
    attributes {weft.nodist} {
  affine.for %i = 0 to %n {
    %v = affine.load %b[%i] : memref<?xf64>
    affine.store %v, %a[%i] : memref<?xf64>
  }
  return
}

// Rows of array pointers with a dynamic extent: the offsets of the box's
// corners are linearised with the extent argument (weft.dim_args), the
// last element being (n - 1) * m + (m - 1) of a.
// CHECK-LABEL: func.func @rows(
// CHECK-SAME:    %[[M:[a-z0-9]+]]: index {weft.c_arg = "m"}) attributes {dist.alias_check}
// CHECK:         arith.muli %{{.*}}, %[[M]]
// CHECK:         dist.ranges_overlap {{.*}} : memref<?x?xf64>, memref<?x?xf64>
// CHECK-NOT:     dist.ranges_overlap
func.func @rows(%n: index {weft.c_arg = "n"},
                %a: memref<?x?xf64> {weft.c_arg = "(double *)(a)", weft.dim_args = array<i64: -1, 3>, weft.may_alias},
                %b: memref<?x?xf64> {weft.c_arg = "(double *)(b)", weft.dim_args = array<i64: -1, 3>, weft.may_alias},
                %m: index {weft.c_arg = "m"}) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %m {
      %v = affine.load %b[%i, %j] : memref<?x?xf64>
      affine.store %v, %a[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

// A bound read from memory the region writes: no box can be computed at
// entry, so the region always runs as written.
// CHECK-LABEL: func.func @boundInMemory(
// CHECK:         %[[TRUE:.*]] = arith.constant true
// CHECK:         scf.if %[[TRUE]]
// CHECK:           func.call @boundInMemory_overlapping
// expected-warning @below {{cannot bound the accesses of the pointer arguments (a bound reads memory the region may change): the region always runs as written, on one rank}}
func.func @boundInMemory(%a: memref<?xf64> {weft.c_arg = "(double *)(a)", weft.may_alias},
                         %k: memref<index> {weft.c_arg = "&k"}) {
  %n = affine.load %k[] : memref<index>
  affine.for %i = 0 to %n {
    %c = arith.constant 0.0 : f64
    affine.store %c, %a[%i] : memref<?xf64>
  }
  return
}
