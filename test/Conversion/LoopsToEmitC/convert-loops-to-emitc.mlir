// RUN: weft-opt %s --convert-loops-to-emitc --split-input-file --verify-diagnostics | FileCheck %s

// Arguments: memref -> pointer, index -> i64; the function becomes static.
// Loads are copied into a variable at once; stores assign the subscript.
// An array reached through a pointer (weft.may_alias) that is the
// function's only array is `restrict`: there is nothing for it to overlap.
// CHECK-LABEL: emitc.func @scale
// CHECK-SAME: (%[[X:.*]]: !emitc.opaque<"double *restrict">, %[[N:.*]]: i64, %[[A:.*]]: f64)
// CHECK-SAME: specifiers = ["static"]
// CHECK: %[[C0:.*]] = "emitc.constant"() <{value = 0 : i64}> : () -> i64
// CHECK: %[[C1:.*]] = "emitc.constant"() <{value = 1 : i64}> : () -> i64
// CHECK: emitc.for %[[I:.*]] = %[[C0]] to %[[N]] step %[[C1]] {{ *}}: i64 {
// CHECK:   %[[S:.*]] = emitc.subscript %[[X]][%[[I]]] : (!emitc.opaque<"double *restrict">, i64) -> f64
// CHECK:   %[[V:.*]] = "emitc.variable"() <{value = #emitc.opaque<"">}> : () -> f64
// CHECK:   emitc.assign %[[S]] : f64 to %[[V]] : f64
// CHECK:   %[[M:.*]] = emitc.mul %[[V]], %[[A]] : (f64, f64) -> f64
// CHECK:   %[[S2:.*]] = emitc.subscript %[[X]][%[[I]]] : (!emitc.opaque<"double *restrict">, i64) -> f64
// CHECK:   emitc.assign %[[M]] : f64 to %[[S2]] : f64
// CHECK: emitc.return
// CHECK-NOT: func.func
func.func @scale(%x: memref<?xf64> {weft.may_alias}, %n: index, %a: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %m = arith.mulf %v, %a : f64
    memref.store %m, %x[%i] : memref<?xf64>
  }
  return
}

// -----

// The same pointer beside an array that is a distinct object (a global,
// no weft.may_alias): the pointer may point into it, and both stay plain.
// CHECK-LABEL: emitc.func @pointer_and_object
// CHECK-SAME: (%{{.*}}: !emitc.ptr<f64>, %{{.*}}: !emitc.ptr<f64>, %{{.*}}: i64)
func.func @pointer_and_object(%x: memref<?xf64> {weft.may_alias},
                              %g: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %g[%i] : memref<?xf64>
    memref.store %v, %x[%i] : memref<?xf64>
  }
  return
}

// -----

// Arrays that cannot overlap (none may alias another, or dist-alias-check
// checked them at entry: dist.args_disjoint) are restrict pointers, which
// lets the C compiler vectorise without run-time alias checks.
// CHECK-LABEL: emitc.func @disjoint
// CHECK-SAME: (%[[X:.*]]: !emitc.opaque<"double *restrict">, %[[Y:.*]]: !emitc.opaque<"float *restrict">, %{{.*}}: i64)
// CHECK: emitc.subscript %[[Y]][%{{.*}}] : (!emitc.opaque<"float *restrict">, i64) -> f32
// CHECK: emitc.subscript %[[X]][%{{.*}}] : (!emitc.opaque<"double *restrict">, i64) -> f64
func.func @disjoint(%x: memref<?xf64>, %y: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %y[%i] : memref<?xf32>
    %w = arith.extf %v : f32 to f64
    memref.store %w, %x[%i] : memref<?xf64>
  }
  return
}

// CHECK-LABEL: emitc.func @checked
// CHECK-SAME: (%{{.*}}: !emitc.opaque<"double *restrict">, %{{.*}}: !emitc.opaque<"double *restrict">)
func.func @checked(%x: memref<?xf64> {weft.may_alias}, %y: memref<?xf64> {weft.may_alias})
    attributes {dist.args_disjoint} {
  %c0 = arith.constant 0 : index
  %v = memref.load %y[%c0] : memref<?xf64>
  memref.store %v, %x[%c0] : memref<?xf64>
  return
}

// An asserted array (weft.noalias) does not keep the others from it.
// CHECK-LABEL: emitc.func @asserted
// CHECK-SAME: (%{{.*}}: !emitc.opaque<"double *restrict">, %{{.*}}: !emitc.opaque<"double *restrict">)
func.func @asserted(%x: memref<?xf64> {weft.may_alias, weft.noalias}, %y: memref<?xf64> {weft.may_alias, weft.noalias}) {
  %c0 = arith.constant 0 : index
  %v = memref.load %y[%c0] : memref<?xf64>
  memref.store %v, %x[%c0] : memref<?xf64>
  return
}

// -----

// Values yielded by scf.if live in a variable declared before the emitc.if.
// CHECK-LABEL: emitc.func @select
// CHECK: %[[R:.*]] = "emitc.variable"() <{value = #emitc.opaque<"">}> : () -> i32
// CHECK: emitc.if %{{.*}} {
// CHECK:   emitc.assign %{{.*}} : i32 to %[[R]] : i32
// CHECK: } else {
// CHECK:   %[[D:.*]] = emitc.div
// CHECK:   emitc.assign %[[D]] : i32 to %[[R]] : i32
// CHECK: }
// CHECK: %[[S:.*]] = emitc.subscript %{{.*}}[%{{.*}}] : (!emitc.opaque<"int32_t *restrict">, i64) -> i32
// CHECK: emitc.assign %[[R]] : i32 to %[[S]] : i32
func.func @select(%out: memref<i32>, %a: i32, %b: i32) {
  %c = arith.cmpi slt, %a, %b : i32
  %r = scf.if %c -> i32 {
    scf.yield %a : i32
  } else {
    %d = arith.divsi %a, %b : i32
    scf.yield %d : i32
  }
  memref.store %r, %out[] : memref<i32>
  return
}

// -----

// Casts, comparisons (C's != on floats is unordered), min/max, libm calls
// with the float spelling for f32, and region-local scalars as C variables.
// CHECK-LABEL: emitc.func @ops
// CHECK: emitc.cast %{{.*}} : i32 to f32
// CHECK: emitc.cmp ne, %{{.*}}, %{{.*}} : (f32, f32) -> i1
// CHECK: emitc.call_opaque "sqrtf"(%{{.*}}) : (f32) -> f32
// CHECK: emitc.call_opaque "pow"(%{{.*}}, %{{.*}}) : (f64, f64) -> f64
// CHECK: emitc.cmp lt, %[[X:.*]], %[[Y:.*]] : (i64, i64) -> i1
// CHECK: emitc.conditional %{{.*}}, %[[X]], %[[Y]] : i64
// CHECK: %[[T:.*]] = "emitc.variable"() <{value = #emitc.opaque<"">}> : () -> f64
// CHECK: emitc.assign %{{.*}} : f64 to %[[T]] : f64
func.func @ops(%i: i32, %f: f32, %d: f64, %x: index, %y: index) -> () {
  %0 = arith.sitofp %i : i32 to f32
  %1 = arith.cmpf une, %0, %f : f32
  %2 = math.sqrt %f : f32
  %3 = math.powf %d, %d : f64
  %4 = arith.minsi %x, %y : index
  %t = memref.alloca() : memref<f64>
  memref.store %3, %t[] : memref<f64>
  return
}

// -----

// floordiv from lower-affine keeps C's truncating division correct for
// negative values.
// CHECK-LABEL: emitc.func @floordiv
// CHECK: %[[Q:.*]] = emitc.div %[[A:.*]], %[[B:.*]] : (i64, i64) -> i64
// CHECK: %[[R:.*]] = emitc.rem %[[A]], %[[B]] : (i64, i64) -> i64
// CHECK: emitc.logical_and
// CHECK: emitc.sub %[[Q]]
// CHECK: emitc.conditional
func.func @floordiv(%a: index, %b: index) {
  %0 = arith.floordivsi %a, %b : index
  return
}

// -----

func.func @unsupported(%a: i32) {
  // expected-error @+1 {{'arith.bitcast' op cannot be lowered to C}}
  %0 = arith.bitcast %a : i32 to f32
  return
}

// -----

// Unsigned C operations and wrapping arithmetic (no `nsw`: C's signed
// overflow is undefined) run on unsigned C types; `nsw` arithmetic stays
// signed.
// CHECK-LABEL: emitc.func @unsigned_ops
// CHECK-SAME: (%[[A:[a-z0-9]+]]: i32, %[[B:[a-z0-9]+]]: i32, %{{.*}}: f64)
// CHECK: %[[UA:.*]] = emitc.cast %[[A]] : i32 to ui32
// CHECK: %[[UB:.*]] = emitc.cast %[[B]] : i32 to ui32
// CHECK: %[[Q:.*]] = emitc.div %[[UA]], %[[UB]] : (ui32, ui32) -> ui32
// CHECK: emitc.cast %[[Q]] : ui32 to i32
// CHECK: %[[W:.*]] = emitc.add %{{.*}}, %{{.*}} : (ui32, ui32) -> ui32
// CHECK: emitc.cast %[[W]] : ui32 to i32
// CHECK: emitc.add %[[A]], %[[B]] : (i32, i32) -> i32
// CHECK: emitc.cmp lt, %{{.*}}, %{{.*}} : (ui32, ui32) -> i1
// CHECK: %[[UF:.*]] = emitc.cast %[[A]] : i32 to ui32
// CHECK: emitc.cast %[[UF]] : ui32 to f64
// CHECK: %[[UT:.*]] = emitc.cast %{{.*}} : f64 to ui32
// CHECK: emitc.cast %[[UT]] : ui32 to i32
func.func @unsigned_ops(%a: i32, %b: i32, %d: f64) {
  %0 = arith.divui %a, %b : i32
  %1 = arith.addi %a, %b : i32
  %2 = arith.addi %a, %b overflow<nsw> : i32
  %3 = arith.cmpi ult, %a, %b : i32
  %4 = arith.uitofp %a : i32 to f64
  %5 = arith.fptoui %d : f64 to i32
  return
}

// -----

// Arrays of rank >= 2 keep their subscripts: an argument is a pointer to its
// rows, with static extents in its type and run-time ones as `[*]`, filled
// from the extent argument that `weft.dim_args` names; that argument moves
// right before its array (C reads it from an earlier parameter), the call
// arguments (`weft.c_arg`) and a call from another region function follow,
// and the array itself goes as `(void *)(A)`. A local array is a C array of
// its shape.
// CHECK-LABEL: emitc.func @rows
// CHECK-SAME: (%[[N:.*]]: i32 {weft.c_arg = "n"}, %[[E:.*]]: i64 {weft.c_arg = "(long)(sizeof(A[0]) / sizeof(A[0][0]))"}, %[[A:.*]]: !emitc.opaque<"double (*restrict)[*][4]"> {weft.c_arg = "(void *)(A)", weft.dim_args = array<i64: -1, 1, -1>}, %[[B:.*]]: !emitc.opaque<"float (*restrict)[8]"> {weft.c_arg = "(void *)(B)"})
// CHECK: %[[T:.*]] = "emitc.variable"() <{value = #emitc.opaque<"">}> : () -> !emitc.array<2x3xf64>
// CHECK: emitc.subscript %[[A]][%{{.*}}, %{{.*}}, %{{.*}}] : (!emitc.opaque<"double (*restrict)[*][4]">, i64, i64, i64) -> f64
// CHECK: emitc.subscript %[[T]][%{{.*}}, %{{.*}}] : (!emitc.array<2x3xf64>, i64, i64) -> f64
// CHECK: emitc.subscript %[[B]][%{{.*}}, %{{.*}}] : (!emitc.opaque<"float (*restrict)[8]">, i64, i64) -> f32
func.func @rows(%n: i32 {weft.c_arg = "n"},
                %A: memref<?x?x4xf64> {weft.c_arg = "(double *)(A)", weft.dim_args = array<i64: -1, 3, -1>},
                %B: memref<2x8xf32> {weft.c_arg = "(float *)(B)"},
                %e: index {weft.c_arg = "(long)(sizeof(A[0]) / sizeof(A[0][0]))"}) {
  %c0 = arith.constant 0 : index
  %t = memref.alloca() : memref<2x3xf64>
  %v = memref.load %A[%c0, %c0, %c0] : memref<?x?x4xf64>
  memref.store %v, %t[%c0, %c0] : memref<2x3xf64>
  %w = arith.truncf %v : f64 to f32
  memref.store %w, %B[%c0, %c0] : memref<2x8xf32>
  return
}

// CHECK-LABEL: emitc.func @calls_rows
// CHECK-SAME: (%[[N:[a-z0-9]+]]: i32, %[[E:[a-z0-9]+]]: i64, %[[A:[a-z0-9]+]]: !emitc.opaque<"double (*restrict)[*][4]"> {weft.dim_args = array<i64: -1, 1, -1>}, %[[B:[a-z0-9]+]]: !emitc.opaque<"float (*restrict)[8]">)
// CHECK: emitc.call_opaque "rows"(%[[N]], %[[E]], %[[A]], %[[B]])
func.func @calls_rows(%n: i32, %A: memref<?x?x4xf64> {weft.dim_args = array<i64: -1, 3, -1>},
                      %B: memref<2x8xf32>, %e: index) {
  func.call @rows(%n, %A, %B, %e) : (i32, memref<?x?x4xf64>, memref<2x8xf32>, index) -> ()
  return
}

// -----

// Arrays that may overlap keep plain pointers to their rows.
// CHECK-LABEL: emitc.func @rows_may_alias
// CHECK-SAME: !emitc.opaque<"double (*)[5]">
func.func @rows_may_alias(%A: memref<5x5xf64> {weft.may_alias}, %B: memref<5x5xf64> {weft.may_alias}) {
  return
}

// -----

func.func @missing_extent(%A: memref<4x?xf64>) {
  // expected-error @-1 {{dynamic extent of dimension 1 of argument 0 is not available as a 'weft.dim_args' argument}}
  return
}

// -----

// An atomic update reaches its element through a pointer to the elements
// (the CUDA pipelines' flat arguments), not to rows.
func.func @atomic_rows(%a: memref<4x8xf64>, %v: f64, %i: index) {
  // expected-error @below {{updates an element that is not reached through a pointer}}
  %0 = memref.atomic_rmw addf %v, %a[%i, %i] : (f64, memref<4x8xf64>) -> f64
  return
}
