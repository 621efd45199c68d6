// RUN: weft-translate --emit-c %s | FileCheck %s

// weft's C printer (weft/Target/C/TranslateToC.h): source names from
// locations, made unique where a visible declaration or a reserved name has
// them; expressions at their single use with the parentheses C needs;
// declarators for arrays and pointers to rows.

emitc.include <"stdint.h">
emitc.include "weft_rt.h"
emitc.verbatim "// a comment at file level"
emitc.global static @table : !emitc.array<4xf64>
emitc.global const @scale : f32 = 1.5

// CHECK: #include <stdint.h>
// CHECK-NEXT: #include "weft_rt.h"
// CHECK-NEXT: // a comment at file level
// CHECK-NEXT: static double table[4];
// CHECK-NEXT: const float scale = 1.5f;

// Names: arguments and induction variables keep theirs; a nested loop's
// `i` may not hide the outer one, loops in sequence both keep `j`; `int`
// is a keyword and `sqrt` a function the code calls. A run-time extent
// names the earlier argument that holds it. A variable assigned right
// after its declaration is declared with that value.
// CHECK-LABEL: static void names(int64_t n, int64_t A_dim1, double (*restrict A)[A_dim1], double (*B)[8], double int_1) {
// CHECK-NEXT:   for (int64_t i = 0; i < n; i++) {
// CHECK-NEXT:     for (int64_t i_1 = 0; i_1 < n; i_1 += 2) {
// CHECK-NEXT:       A[i][i_1] = B[i_1][i] + int_1;
// CHECK-NEXT:     }
// CHECK-NEXT:     for (int64_t j = 0; j < n; j++) {
// CHECK-NEXT:       double sqrt_1 = sqrt(A[i][j]);
// CHECK-NEXT:       B[j][i] = sqrt_1 * sqrt_1;
// CHECK-NEXT:     }
// CHECK-NEXT:     for (int64_t j = 0; j < n; j++) {
// CHECK-NEXT:       double tmp = B[j][i];
// CHECK-NEXT:       A[j][i] = tmp;
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
emitc.func @names(%n: i64 loc("n"), %e: i64 loc("A_dim1"),
                  %A: !emitc.opaque<"double (*restrict)[*]"> {weft.dim_args = array<i64: -1, 1>} loc("A"),
                  %B: !emitc.ptr<!emitc.array<8xf64>> loc("B"), %k: f64 loc("int"))
    attributes {specifiers = ["static"]} {
  %c0 = "emitc.constant"() <{value = 0 : i64}> : () -> i64
  %c1 = "emitc.constant"() <{value = 1 : i64}> : () -> i64
  %c2 = "emitc.constant"() <{value = 2 : i64}> : () -> i64
  "emitc.for"(%c0, %n, %c1) ({
  ^bb0(%i: i64 loc("i")):
    "emitc.for"(%c0, %n, %c2) ({
    ^bb0(%i2: i64 loc("i")):
      %row = emitc.subscript %B[%i2] : (!emitc.ptr<!emitc.array<8xf64>>, i64) -> !emitc.array<8xf64>
      %b = emitc.subscript %row[%i] : (!emitc.array<8xf64>, i64) -> f64
      %sum = emitc.expression : f64 {
        %s = emitc.add %b, %k : (f64, f64) -> f64
        emitc.yield %s : f64
      }
      %a = emitc.subscript %A[%i, %i2] : (!emitc.opaque<"double (*restrict)[*]">, i64, i64) -> f64
      emitc.assign %sum : f64 to %a : f64
      emitc.yield
    }) : (i64, i64, i64) -> ()
    "emitc.for"(%c0, %n, %c1) ({
    ^bb0(%j: i64 loc("j")):
      %a = emitc.subscript %A[%i, %j] : (!emitc.opaque<"double (*restrict)[*]">, i64, i64) -> f64
      %r = emitc.expression : f64 {
        %s = emitc.call_opaque "sqrt"(%a) : (f64) -> f64
        emitc.yield %s : f64
      }
      %sq = emitc.expression : f64 {
        %s = emitc.mul %r, %r : (f64, f64) -> f64
        emitc.yield %s : f64
      }
      %row = emitc.subscript %B[%j] : (!emitc.ptr<!emitc.array<8xf64>>, i64) -> !emitc.array<8xf64>
      %b = emitc.subscript %row[%i] : (!emitc.array<8xf64>, i64) -> f64
      emitc.assign %sq : f64 to %b : f64
      emitc.yield
    }) : (i64, i64, i64) -> ()
    "emitc.for"(%c0, %n, %c1) ({
    ^bb0(%j: i64 loc("j")):
      %t = "emitc.variable"() <{value = #emitc.opaque<"">}> : () -> f64
      %row = emitc.subscript %B[%j] : (!emitc.ptr<!emitc.array<8xf64>>, i64) -> !emitc.array<8xf64>
      %b = emitc.subscript %row[%i] : (!emitc.array<8xf64>, i64) -> f64
      emitc.assign %b : f64 to %t : f64
      %a = emitc.subscript %A[%j, %i] : (!emitc.opaque<"double (*restrict)[*]">, i64, i64) -> f64
      emitc.assign %t : f64 to %a : f64
      emitc.yield
    }) : (i64, i64, i64) -> ()
    emitc.yield
  }) : (i64, i64, i64) -> ()
  emitc.return
}

// Parentheses: C's precedence and associativity, and what gcc's
// -Wparentheses asks for (`+` in `<<`, comparisons in `&` and `|`, `&&` in
// `||`). An op outside an expression is a statement of its own; an
// expression with several uses, or marked noinline, too.
// CHECK-LABEL: int64_t parens(int64_t a, int64_t b, int64_t c, bool p, bool q) {
// CHECK-NEXT:   int64_t tmp = b - c;
// CHECK-NEXT:   int64_t tmp_1 = a - (b - c) + (b >> c) * (a + b);
// CHECK-NEXT:   int64_t tmp_2 = (int64_t)(((a < b) & (b == c)) | p);
// CHECK-NEXT:   int64_t tmp_3 = (a + b) << c;
// CHECK-NEXT:   return tmp + tmp_1 * tmp_1 + tmp_2 + tmp_3 + (int64_t)((p && q) || !(a < b)) + (-(-a) + -(a < b ? a : b));
// CHECK-NEXT: }
emitc.func @parens(%a: i64 loc("a"), %b: i64 loc("b"), %c: i64 loc("c"), %p: i1 loc("p"), %q: i1 loc("q")) -> i64 {
  %0 = emitc.sub %b, %c : (i64, i64) -> i64
  %e1 = emitc.expression : i64 {
    %x0 = emitc.sub %b, %c : (i64, i64) -> i64
    %x1 = emitc.sub %a, %x0 : (i64, i64) -> i64
    %x2 = emitc.bitwise_right_shift %b, %c : (i64, i64) -> i64
    %x3 = emitc.add %a, %b : (i64, i64) -> i64
    %x4 = emitc.mul %x2, %x3 : (i64, i64) -> i64
    %x5 = emitc.add %x1, %x4 : (i64, i64) -> i64
    emitc.yield %x5 : i64
  }
  %e3 = emitc.expression noinline : i64 {
    %x0 = emitc.cmp lt, %a, %b : (i64, i64) -> i1
    %x1 = emitc.cmp eq, %b, %c : (i64, i64) -> i1
    %x2 = emitc.bitwise_and %x0, %x1 : (i1, i1) -> i1
    %x3 = emitc.bitwise_or %x2, %p : (i1, i1) -> i1
    %x4 = emitc.cast %x3 : i1 to i64
    emitc.yield %x4 : i64
  }
  %e2 = emitc.expression noinline : i64 {
    %x0 = emitc.add %a, %b : (i64, i64) -> i64
    %x1 = emitc.bitwise_left_shift %x0, %c : (i64, i64) -> i64
    emitc.yield %x1 : i64
  }
  %e4 = emitc.expression : i1 {
    %x0 = emitc.logical_and %p, %q : i1, i1
    %x1 = emitc.cmp lt, %a, %b : (i64, i64) -> i1
    %x2 = emitc.logical_not %x1 : i1
    %x3 = emitc.logical_or %x0, %x2 : i1, i1
    emitc.yield %x3 : i1
  }
  %e5 = emitc.expression : i64 {
    %x0 = emitc.unary_minus %a : (i64) -> i64
    %x1 = emitc.unary_minus %x0 : (i64) -> i64
    %x2 = emitc.cmp lt, %a, %b : (i64, i64) -> i1
    %x3 = emitc.conditional %x2, %a, %b : i64
    %x4 = emitc.unary_minus %x3 : (i64) -> i64
    %x5 = emitc.add %x1, %x4 : (i64, i64) -> i64
    emitc.yield %x5 : i64
  }
  %all = emitc.expression : i64 {
    %sq = emitc.mul %e1, %e1 : (i64, i64) -> i64
    %x0 = emitc.add %0, %sq : (i64, i64) -> i64
    %x1 = emitc.add %x0, %e3 : (i64, i64) -> i64
    %x2 = emitc.add %x1, %e2 : (i64, i64) -> i64
    %c4 = emitc.cast %e4 : i1 to i64
    %x3 = emitc.add %x2, %c4 : (i64, i64) -> i64
    %x4 = emitc.add %x3, %e5 : (i64, i64) -> i64
    emitc.yield %x4 : i64
  }
  emitc.return %all : i64
}

// Literals: the shortest spelling that reads back; `f` for float; an
// integer operation on two literals, or a literal shifted, computes in the
// op's type, not in C's `int`. A widening cast next to a name of its type
// is implicit in C. `x = x + e` is `x += e`; a step of 1 is `++`; a loop
// whose step is 0 runs until `break` (how EmitC 19 spells a C `while`).
// CHECK-LABEL: int64_t literals(int32_t m, int64_t k, double *out, float *outf) {
// CHECK-NEXT:   out[0] = 0.1 + 1e+300 + 3.0;
// CHECK-NEXT:   outf[0] = 0.1f;
// CHECK-NEXT:   int64_t tmp = (int64_t)2147483647 + 1;
// CHECK-NEXT:   int64_t tmp_1 = (int64_t)1 << 40;
// CHECK-NEXT:   int64_t tmp_2 = tmp + tmp_1;
// CHECK-NEXT:   out[k] += 2.5;
// CHECK-NEXT:   for (;;) {
// CHECK-NEXT:     break;
// CHECK-NEXT:   }
// CHECK-NEXT:   return k * m + tmp_2;
// CHECK-NEXT: }
emitc.func @literals(%m: i32 loc("m"), %k: i64 loc("k"), %out: !emitc.ptr<f64> loc("out"), %outf: !emitc.ptr<f32> loc("outf")) -> i64 {
  %c0 = "emitc.constant"() <{value = 0 : i64}> : () -> i64
  %c1 = "emitc.constant"() <{value = 1 : i64}> : () -> i64
  %a = "emitc.constant"() <{value = 0.1 : f64}> : () -> f64
  %b = "emitc.constant"() <{value = 1.0e300 : f64}> : () -> f64
  %c = "emitc.constant"() <{value = 3.0 : f64}> : () -> f64
  %d = emitc.expression : f64 {
    %x = emitc.add %a, %b : (f64, f64) -> f64
    %y = emitc.add %x, %c : (f64, f64) -> f64
    emitc.yield %y : f64
  }
  %s = emitc.subscript %out[%c0] : (!emitc.ptr<f64>, i64) -> f64
  emitc.assign %d : f64 to %s : f64
  %f = "emitc.constant"() <{value = 0.1 : f32}> : () -> f32
  %sf = emitc.subscript %outf[%c0] : (!emitc.ptr<f32>, i64) -> f32
  emitc.assign %f : f32 to %sf : f32
  %big = "emitc.constant"() <{value = 2147483647 : i64}> : () -> i64
  %forty = "emitc.constant"() <{value = 40 : i64}> : () -> i64
  %sum = emitc.add %big, %c1 : (i64, i64) -> i64
  %shl = emitc.bitwise_left_shift %c1, %forty : (i64, i64) -> i64
  %t = emitc.add %sum, %shl : (i64, i64) -> i64
  %u = emitc.expression : i64 {
    %w = emitc.cast %m : i32 to i64
    %p = emitc.mul %k, %w : (i64, i64) -> i64
    %q = emitc.add %p, %t : (i64, i64) -> i64
    emitc.yield %q : i64
  }
  %half = "emitc.constant"() <{value = 2.5 : f64}> : () -> f64
  %sk = emitc.subscript %out[%k] : (!emitc.ptr<f64>, i64) -> f64
  %inc = emitc.expression : f64 {
    %x = emitc.add %sk, %half : (f64, f64) -> f64
    emitc.yield %x : f64
  }
  %sk2 = emitc.subscript %out[%k] : (!emitc.ptr<f64>, i64) -> f64
  emitc.assign %inc : f64 to %sk2 : f64
  emitc.for %it = %c0 to %c1 step %c0 : i64 {
    emitc.verbatim "break;"
  }
  emitc.return %u : i64
}

// What the CUDA target prints: specifiers, literals, calls with operand
// positions and literal arguments, template arguments, a declaration. A
// call's value is named after the function (`scale` is taken).
// CHECK-LABEL: extern "C" __global__ void kernel(float *x, int32_t n) {
// CHECK-NEXT:   int32_t tmp = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:   if (tmp < n) {
// CHECK-NEXT:     float scale_1 = weft_rt_scale<float, 2>(x[tmp], scale, 0.5);
// CHECK-NEXT:     x[tmp] = scale_1;
// CHECK-NEXT:   } else {
// CHECK-NEXT:     WEFT_CUDA_LAUNCH(kernel, n, x);
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK: extern "C" __global__ void kernel(float *x, int32_t n);
emitc.func @kernel(%x: !emitc.ptr<f32> loc("x"), %n: i32 loc("n"))
    attributes {specifiers = ["extern \"C\"", "__global__"]} {
  %tx = emitc.literal "threadIdx.x" : i32
  %bx = emitc.literal "blockIdx.x" : i32
  %bd = emitc.literal "blockDim.x" : i32
  %id = emitc.expression : i32 {
    %0 = emitc.mul %bx, %bd : (i32, i32) -> i32
    %1 = emitc.add %0, %tx : (i32, i32) -> i32
    emitc.yield %1 : i32
  }
  %in = emitc.expression : i1 {
    %0 = emitc.cmp lt, %id, %n : (i32, i32) -> i1
    emitc.yield %0 : i1
  }
  emitc.if %in {
    %e = emitc.subscript %x[%id] : (!emitc.ptr<f32>, i32) -> f32
    %v = emitc.call_opaque "weft_rt_scale"(%e) {args = [0 : index, #emitc.opaque<"scale">, 5.000000e-01 : f64], template_args = [f32, 2 : i32]} : (f32) -> f32
    %e2 = emitc.subscript %x[%id] : (!emitc.ptr<f32>, i32) -> f32
    emitc.assign %v : f32 to %e2 : f32
  } else {
    emitc.call_opaque "WEFT_CUDA_LAUNCH"(%n, %x) {args = [#emitc.opaque<"kernel">, 0 : index, 1 : index]} : (i32, !emitc.ptr<f32>) -> ()
  }
  emitc.return
}
emitc.declare_func @kernel
