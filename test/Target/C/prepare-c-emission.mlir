// RUN: weft-opt %s --prepare-c-emission | FileCheck %s --check-prefix=IR
// RUN: weft-opt %s --prepare-c-emission --mlir-print-debuginfo --mlir-print-op-generic | weft-translate --emit-c | FileCheck %s

// Integer arithmetic as C spells it: `x + -1` is `x - 1`, `x * -1` is `-x`,
// `a + -b` is `a - b`, `(x - 1) + 1` is `x`, `0 - x` is `-x`, a cast
// constant is a constant of the cast's type. Loads copied into variables
// are read where they are used (nothing is written in between), and each
// single-use value folds into its user.
// CHECK-LABEL: void arith(int64_t n, int64_t m, int64_t *p) {
// CHECK-NEXT:   p[n - 1] = m - n - n + n - m + 7;
// CHECK-NEXT:   p[0] = (int64_t)((float)p[n] * 3e+09f);
// CHECK-NEXT: }
// IR-LABEL: emitc.func @arith
// IR-NOT: emitc.variable
// IR: emitc.return
emitc.func @arith(%n: i64 loc("n"), %m: i64 loc("m"), %p: !emitc.ptr<i64> loc("p")) {
  %c0 = "emitc.constant"() <{value = 0 : i64}> : () -> i64
  %c1 = "emitc.constant"() <{value = 1 : i64}> : () -> i64
  %cm1 = "emitc.constant"() <{value = -1 : i64}> : () -> i64
  %c7 = "emitc.constant"() <{value = 7 : i32}> : () -> i32
  %c3 = "emitc.constant"() <{value = 3000000000 : i64}> : () -> i64
  %0 = emitc.add %n, %cm1 : (i64, i64) -> i64
  %1 = emitc.mul %n, %cm1 : (i64, i64) -> i64
  %2 = emitc.mul %n, %cm1 : (i64, i64) -> i64
  %3 = emitc.add %m, %2 : (i64, i64) -> i64
  %4 = emitc.add %1, %3 : (i64, i64) -> i64
  %5 = emitc.sub %n, %c1 : (i64, i64) -> i64
  %6 = emitc.add %5, %c1 : (i64, i64) -> i64
  %7 = emitc.add %4, %6 : (i64, i64) -> i64
  %8 = emitc.sub %c0, %m : (i64, i64) -> i64
  %9 = emitc.add %7, %8 : (i64, i64) -> i64
  %10 = emitc.cast %c7 : i32 to i64
  %11 = emitc.add %9, %10 : (i64, i64) -> i64
  %s = emitc.subscript %p[%0] : (!emitc.ptr<i64>, i64) -> i64
  emitc.assign %11 : i64 to %s : i64
  %t = "emitc.variable"() <{value = #emitc.opaque<"">}> : () -> i64
  %l = emitc.subscript %p[%n] : (!emitc.ptr<i64>, i64) -> i64
  emitc.assign %l : i64 to %t : i64
  %f = emitc.cast %c3 : i64 to f32
  %g = emitc.cast %t : i64 to f32
  %h = emitc.mul %g, %f : (f32, f32) -> f32
  %k = emitc.cast %h : f32 to i64
  %s0 = emitc.subscript %p[%c0] : (!emitc.ptr<i64>, i64) -> i64
  emitc.assign %k : i64 to %s0 : i64
  emitc.return
}

// A copy of a load stays a copy when the memory it read may be written
// before the copy is used: `p[0]` and `p[2]` by the store through `q`
// (pointers may alias). A value that reads memory and may not move stays
// where it is (`noinline`). A write to a local variable whose address
// nobody takes does not touch what pointers reach, and the other way round.
// CHECK-LABEL: void order(double *p, double *q) {
// CHECK-NEXT:   double tmp = p[0];
// CHECK-NEXT:   double x = 1.0;
// CHECK-NEXT:   double tmp_1 = p[2];
// CHECK-NEXT:   double tmp_2 = p[3] * 2.0;
// CHECK-NEXT:   q[0] = x;
// CHECK-NEXT:   p[1] = tmp * 2.0;
// CHECK-NEXT:   q[1] = tmp_1 + x + tmp_2;
// CHECK-NEXT: }
emitc.func @order(%p: !emitc.ptr<f64> loc("p"), %q: !emitc.ptr<f64> loc("q")) {
  %c0 = "emitc.constant"() <{value = 0 : i64}> : () -> i64
  %c1 = "emitc.constant"() <{value = 1 : i64}> : () -> i64
  %c2 = "emitc.constant"() <{value = 2 : i64}> : () -> i64
  %c3 = "emitc.constant"() <{value = 3 : i64}> : () -> i64
  %one = "emitc.constant"() <{value = 1.0 : f64}> : () -> f64
  %two = "emitc.constant"() <{value = 2.0 : f64}> : () -> f64
  %t = "emitc.variable"() <{value = #emitc.opaque<"">}> : () -> f64
  %l = emitc.subscript %p[%c0] : (!emitc.ptr<f64>, i64) -> f64
  emitc.assign %l : f64 to %t : f64
  %x = "emitc.variable"() <{value = #emitc.opaque<"">}> : () -> f64 loc("x")
  emitc.assign %one : f64 to %x : f64
  %u = "emitc.variable"() <{value = #emitc.opaque<"">}> : () -> f64
  %l2 = emitc.subscript %p[%c2] : (!emitc.ptr<f64>, i64) -> f64
  emitc.assign %l2 : f64 to %u : f64
  %l3 = emitc.subscript %p[%c3] : (!emitc.ptr<f64>, i64) -> f64
  %w = emitc.mul %l3, %two : (f64, f64) -> f64
  %m = emitc.mul %t, %two : (f64, f64) -> f64
  %q0 = emitc.subscript %q[%c0] : (!emitc.ptr<f64>, i64) -> f64
  emitc.assign %x : f64 to %q0 : f64
  %p1 = emitc.subscript %p[%c1] : (!emitc.ptr<f64>, i64) -> f64
  emitc.assign %m : f64 to %p1 : f64
  %v = "emitc.variable"() <{value = #emitc.opaque<"">}> : () -> f64
  emitc.assign %x : f64 to %v : f64
  %a = emitc.add %u, %v : (f64, f64) -> f64
  %a2 = emitc.add %a, %w : (f64, f64) -> f64
  %q1 = emitc.subscript %q[%c1] : (!emitc.ptr<f64>, i64) -> f64
  emitc.assign %a2 : f64 to %q1 : f64
  emitc.return
}

// Where each value is evaluated. `n - 1` reads no memory and is cheap: it is
// recomputed in each loop's header. `(n * n) / 3` also reads no memory but
// divides: it stays a variable outside the loop. A loop's bound that reads
// memory (`p[0]`, read at every iteration in C) stays a copy made before the
// loop. Values that read no memory may move into an `if`. A value with a
// source name and several uses keeps its variable.
// CHECK-LABEL: void where(int64_t n, int64_t *p, bool c) {
// CHECK-NEXT:   int64_t tmp = n * n / 3;
// CHECK-NEXT:   int64_t tmp_1 = p[0];
// CHECK-NEXT:   int64_t k = n - 2;
// CHECK-NEXT:   for (int64_t i = 0; i < n - 1; i++) {
// CHECK-NEXT:     p[i] = tmp + k * k;
// CHECK-NEXT:   }
// CHECK-NEXT:   for (int64_t i = 0; i < n - 1; i++) {
// CHECK-NEXT:     for (int64_t j = 0; j < tmp_1; j++) {
// CHECK-NEXT:       p[j] = 0;
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   if (c) {
// CHECK-NEXT:     p[0] = n * n / 5;
// CHECK-NEXT:   }
// CHECK-NEXT: }
// IR-LABEL: emitc.func @where
// IR: emitc.expression noinline : i64 {
// IR-NEXT: emitc.mul
// IR-NEXT: emitc.div
emitc.func @where(%n: i64 loc("n"), %p: !emitc.ptr<i64> loc("p"), %c: i1 loc("c")) {
  %c0 = "emitc.constant"() <{value = 0 : i64}> : () -> i64
  %c1 = "emitc.constant"() <{value = 1 : i64}> : () -> i64
  %c2 = "emitc.constant"() <{value = 2 : i64}> : () -> i64
  %c3 = "emitc.constant"() <{value = 3 : i64}> : () -> i64
  %c5 = "emitc.constant"() <{value = 5 : i64}> : () -> i64
  %ub = emitc.sub %n, %c1 : (i64, i64) -> i64
  %sq = emitc.mul %n, %n : (i64, i64) -> i64
  %d = emitc.div %sq, %c3 : (i64, i64) -> i64
  %t = "emitc.variable"() <{value = #emitc.opaque<"">}> : () -> i64
  %l = emitc.subscript %p[%c0] : (!emitc.ptr<i64>, i64) -> i64
  emitc.assign %l : i64 to %t : i64
  %k = emitc.sub %n, %c2 : (i64, i64) -> i64 loc("k")
  "emitc.for"(%c0, %ub, %c1) ({
  ^bb0(%i: i64 loc("i")):
    %kk = emitc.mul %k, %k : (i64, i64) -> i64
    %v = emitc.add %d, %kk : (i64, i64) -> i64
    %s = emitc.subscript %p[%i] : (!emitc.ptr<i64>, i64) -> i64
    emitc.assign %v : i64 to %s : i64
    emitc.yield
  }) : (i64, i64, i64) -> ()
  "emitc.for"(%c0, %ub, %c1) ({
  ^bb0(%i: i64 loc("i")):
    "emitc.for"(%c0, %t, %c1) ({
    ^bb0(%j: i64 loc("j")):
      %s = emitc.subscript %p[%j] : (!emitc.ptr<i64>, i64) -> i64
      emitc.assign %c0 : i64 to %s : i64
      emitc.yield
    }) : (i64, i64, i64) -> ()
    emitc.yield
  }) : (i64, i64, i64) -> ()
  %sq2 = emitc.mul %n, %n : (i64, i64) -> i64
  %d5 = emitc.div %sq2, %c5 : (i64, i64) -> i64
  emitc.if %c {
    %s = emitc.subscript %p[%c0] : (!emitc.ptr<i64>, i64) -> i64
    emitc.assign %d5 : i64 to %s : i64
  }
  emitc.return
}

// What nothing uses goes: values, and variables only ever assigned. A
// call of a function other than the C library's math writes memory, and
// stays.
// CHECK-LABEL: void dead(double x) {
// CHECK-NEXT:   weft_rt_note(x);
// CHECK-NEXT: }
emitc.func @dead(%x: f64 loc("x")) {
  %0 = emitc.call_opaque "sqrt"(%x) : (f64) -> f64
  %1 = emitc.add %0, %x : (f64, f64) -> f64
  %v = "emitc.variable"() <{value = #emitc.opaque<"">}> : () -> f64
  emitc.assign %1 : f64 to %v : f64
  %2 = emitc.call_opaque "weft_rt_note"(%x) : (f64) -> f64
  emitc.return
}

// Conditions with a known operand, as lower-affine's floor division by a
// constant leaves them: `(r < 0) != (2 < 0)` is `r < 0`, `x && true` is
// `x`, `true ? a : b` is `a`.
// CHECK-LABEL: int64_t floordiv(int64_t a) {
// CHECK-NEXT:   int64_t tmp = a / 2;
// CHECK-NEXT:   int64_t tmp_1 = a % 2;
// CHECK-NEXT:   return tmp_1 != 0 && tmp_1 < 0 ? tmp - 1 : tmp;
// CHECK-NEXT: }
emitc.func @floordiv(%a: i64 loc("a")) -> i64 {
  %c0 = "emitc.constant"() <{value = 0 : i64}> : () -> i64
  %c1 = "emitc.constant"() <{value = 1 : i64}> : () -> i64
  %c2 = "emitc.constant"() <{value = 2 : i64}> : () -> i64
  %true = "emitc.constant"() <{value = true}> : () -> i1
  %q = emitc.div %a, %c2 : (i64, i64) -> i64
  %r = emitc.rem %a, %c2 : (i64, i64) -> i64
  %inexact = emitc.cmp ne, %r, %c0 : (i64, i64) -> i1
  %rneg = emitc.cmp lt, %r, %c0 : (i64, i64) -> i1
  %dneg = emitc.cmp lt, %c2, %c0 : (i64, i64) -> i1
  %signs = emitc.cmp ne, %rneg, %dneg : (i1, i1) -> i1
  %both = emitc.logical_and %inexact, %signs : i1, i1
  %adjust = emitc.logical_and %both, %true : i1, i1
  %moved = emitc.sub %q, %c1 : (i64, i64) -> i64
  %floor = emitc.conditional %adjust, %moved, %q : i64
  %pick = emitc.conditional %true, %floor, %c0 : i64
  emitc.return %pick : i64
}

// A max or min that a pass named as a loop bound (dist-name-bounds'
// `i_lo`) stays a variable of that name; an unnamed one is spelled out in
// the loop's header.
// CHECK-LABEL: void bounds(int64_t lo, int64_t n, int64_t *p) {
// CHECK-NEXT:   int64_t i_lo = 1 > lo ? 1 : lo;
// CHECK-NEXT:   for (int64_t i = i_lo; i < n; i++) {
// CHECK:        for (int64_t j = 1 > lo ? 1 : lo; j < n; j++) {
emitc.func @bounds(%lo: i64 loc("lo"), %n: i64 loc("n"), %p: !emitc.ptr<i64> loc("p")) {
  %c1 = "emitc.constant"() <{value = 1 : i64}> : () -> i64
  %gt = emitc.cmp gt, %c1, %lo : (i64, i64) -> i1
  %ilo = emitc.conditional %gt, %c1, %lo : i64 loc("i_lo")
  "emitc.for"(%ilo, %n, %c1) ({
  ^bb0(%i: i64 loc("i")):
    %s = emitc.subscript %p[%i] : (!emitc.ptr<i64>, i64) -> i64
    emitc.assign %c1 : i64 to %s : i64
    emitc.yield
  }) : (i64, i64, i64) -> ()
  %gt2 = emitc.cmp gt, %c1, %lo : (i64, i64) -> i1
  %jlo = emitc.conditional %gt2, %c1, %lo : i64
  "emitc.for"(%jlo, %n, %c1) ({
  ^bb0(%j: i64 loc("j")):
    %s = emitc.subscript %p[%j] : (!emitc.ptr<i64>, i64) -> i64
    emitc.assign %c1 : i64 to %s : i64
    emitc.yield
  }) : (i64, i64, i64) -> ()
  emitc.return
}
