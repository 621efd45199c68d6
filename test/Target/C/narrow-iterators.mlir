// RUN: weft-opt %s --narrow-iterators | FileCheck %s
// RUN: weft-opt %s --narrow-iterators --convert-loops-to-emitc --prepare-c-emission --mlir-print-debuginfo --mlir-print-op-generic | weft-translate --emit-c | FileCheck %s --check-prefix=C

// A loop whose iterator the source declared `int` (its location records
// i32) is marked `weft.c_int` only when integer range analysis proves the
// iterator and all arithmetic on it within `int`: `n` is an `int`
// argument, so `i < n` ends by INT_MAX.

// CHECK-LABEL: func.func @plain
// CHECK: scf.for
// CHECK: } {weft.c_int}
// C-LABEL: void plain(
// C-NEXT:   for (int i = 0; i < n; i++) {
// C-NEXT:     A[i] = 0.0;
func.func @plain(%n32: i32 loc("n"), %A: memref<?xf64> loc("A")) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = arith.index_cast %n32 : i32 to index
  "scf.for"(%c0, %n, %c1) ({
  ^bb0(%i: index loc("i"(fused<i32>["t.c":3:5]))):
    memref.store %zero, %A[%i] : memref<?xf64>
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// The same loop without a recorded source type (the source said `long`,
// or weft made the loop) keeps int64_t.
// CHECK-LABEL: func.func @no_source_type
// CHECK-NOT: weft.c_int
// C-LABEL: void no_source_type(
// C-NEXT:   for (int64_t i = 0; i < n; i++) {
func.func @no_source_type(%n32: i32 loc("n"), %A: memref<?xf64> loc("A")) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = arith.index_cast %n32 : i32 to index
  "scf.for"(%c0, %n, %c1) ({
  ^bb0(%i: index loc("i"("t.c":3:5))):
    memref.store %zero, %A[%i] : memref<?xf64>
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// An upper bound of unknown range (an `index` argument, a value read from
// memory) may exceed INT_MAX.
// CHECK-LABEL: func.func @wide_bound
// CHECK-NOT: weft.c_int
func.func @wide_bound(%n: index loc("n"), %A: memref<?xf64> loc("A")) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  "scf.for"(%c0, %n, %c1) ({
  ^bb0(%i: index loc("i"(fused<i32>["t.c":3:5]))):
    memref.store %zero, %A[%i] : memref<?xf64>
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// A stencil's `i + 1` under `i < n - 1` reaches at most INT_MAX - 1 and
// `i - 1` at least 0: both fit, the loop is marked. `i + 3` may reach
// INT_MAX + 1: in `int` it would overflow, so that loop keeps int64_t.
// CHECK-LABEL: func.func @stencil
// CHECK: scf.for
// CHECK: } {weft.c_int}
// CHECK: scf.for
// CHECK-NOT: weft.c_int
// CHECK: return
// C-LABEL: void stencil(
// C-NEXT:   for (int i = 1; i < (int64_t)n - 1; i++) {
// C-NEXT:     B[i] = A[i - 1] + A[i + 1];
// C-NEXT:   }
// C-NEXT:   for (int64_t i = 1; i < (int64_t)n - 1; i++) {
// C-NEXT:     B[i] = A[i + 3];
func.func @stencil(%n32: i32 loc("n"), %A: memref<?xf64> loc("A"), %B: memref<?xf64> loc("B")) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %n = arith.index_cast %n32 : i32 to index
  %ub = arith.subi %n, %c1 : index
  "scf.for"(%c1, %ub, %c1) ({
  ^bb0(%i: index loc("i"(fused<i32>["t.c":3:5]))):
    %im = arith.subi %i, %c1 : index
    %ip = arith.addi %i, %c1 : index
    %a = memref.load %A[%im] : memref<?xf64>
    %b = memref.load %A[%ip] : memref<?xf64>
    %s = arith.addf %a, %b : f64
    memref.store %s, %B[%i] : memref<?xf64>
    scf.yield
  }) : (index, index, index) -> ()
  "scf.for"(%c1, %ub, %c1) ({
  ^bb0(%i: index loc("i"(fused<i32>["t.c":5:5]))):
    %ip = arith.addi %i, %c3 : index
    %a = memref.load %A[%ip] : memref<?xf64>
    memref.store %a, %B[%i] : memref<?xf64>
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// A linearised subscript `i * 100000 + j` leaves `int` long before
// `i` does: neither loop is marked. With `i < 1000` and `j < 100`,
// `i * 100 + j` stays below 100000: both are.
// CHECK-LABEL: func.func @linear
// CHECK-NOT: weft.c_int
// CHECK-LABEL: func.func @linear_small
// CHECK-COUNT-2: } {weft.c_int}
func.func @linear(%n32: i32 loc("n"), %A: memref<?xf64> loc("A")) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %w = arith.constant 100000 : index
  %zero = arith.constant 0.0 : f64
  %n = arith.index_cast %n32 : i32 to index
  "scf.for"(%c0, %n, %c1) ({
  ^bb0(%i: index loc("i"(fused<i32>["t.c":3:5]))):
    "scf.for"(%c0, %c100, %c1) ({
    ^bb0(%j: index loc("j"(fused<i32>["t.c":4:7]))):
      %row = arith.muli %i, %w : index
      %k = arith.addi %row, %j : index
      memref.store %zero, %A[%k] : memref<?xf64>
      scf.yield
    }) : (index, index, index) -> ()
    scf.yield
  }) : (index, index, index) -> ()
  return
}
func.func @linear_small(%A: memref<?xf64> loc("A")) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %c1000 = arith.constant 1000 : index
  %zero = arith.constant 0.0 : f64
  "scf.for"(%c0, %c1000, %c1) ({
  ^bb0(%i: index loc("i"(fused<i32>["t.c":3:5]))):
    "scf.for"(%c0, %c100, %c1) ({
    ^bb0(%j: index loc("j"(fused<i32>["t.c":4:7]))):
      %row = arith.muli %i, %c100 : index
      %k = arith.addi %row, %j : index
      memref.store %zero, %A[%k] : memref<?xf64>
      scf.yield
    }) : (index, index, index) -> ()
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// A tile loop `for (it = 0; it < n; it += 32)` takes n + 31 at its end,
// past INT_MAX when n is near it; under a constant bound it fits.
// CHECK-LABEL: func.func @steps
// CHECK: scf.for
// CHECK-NOT: weft.c_int
// CHECK: scf.for
// CHECK: } {weft.c_int}
func.func @steps(%n32: i32 loc("n"), %A: memref<?xf64> loc("A")) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c4096 = arith.constant 4096 : index
  %zero = arith.constant 0.0 : f64
  %n = arith.index_cast %n32 : i32 to index
  "scf.for"(%c0, %n, %c32) ({
  ^bb0(%i: index loc("it"(fused<i32>["t.c":3:5]))):
    memref.store %zero, %A[%i] : memref<?xf64>
    scf.yield
  }) : (index, index, index) -> ()
  "scf.for"(%c0, %c4096, %c32) ({
  ^bb0(%i: index loc("it"(fused<i32>["t.c":5:5]))):
    memref.store %zero, %A[%i] : memref<?xf64>
    scf.yield
  }) : (index, index, index) -> ()
  return
}
// C-LABEL: void linear(
// C-NEXT:   for (int64_t i = 0; i < n; i++) {
// C-NEXT:     for (int64_t j = 0; j < 100; j++) {
// C-NEXT:       A[i * 100000 + j] = 0.0;
// C-LABEL: void linear_small(
// C-NEXT:   for (int i = 0; i < 1000; i++) {
// C-NEXT:     for (int j = 0; j < 100; j++) {
// C-NEXT:       A[i * 100 + j] = 0.0;
// C-LABEL: void steps(
// C-NEXT:   for (int64_t it = 0; it < n; it += 32) {
// C:        for (int it = 0; it < 4096; it += 32) {

// A distributed form (it calls the MPI runtime) keeps int64_t iterators:
// among its rank blocks, `int` ones cost gcc instructions.
// CHECK-LABEL: func.func @distributed_form
// CHECK-NOT: weft.c_int
// CHECK: return
func.func @distributed_form(%n32: i32 loc("n"), %A: memref<?xf64> loc("A")) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = arith.index_cast %n32 : i32 to index
  %self = emitc.call_opaque "weft_rt_self"() : () -> i64
  "scf.for"(%c0, %n, %c1) ({
  ^bb0(%i: index loc("i"(fused<i32>["t.c":3:5]))):
    memref.store %zero, %A[%i] : memref<?xf64>
    scf.yield
  }) : (index, index, index) -> ()
  return
}
