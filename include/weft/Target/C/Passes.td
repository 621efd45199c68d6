//===- Passes.td - Passes that prepare EmitC for printing --*- tablegen -*-===//
#ifndef WEFT_TARGET_C_PASSES_TD
#define WEFT_TARGET_C_PASSES_TD

include "mlir/Pass/PassBase.td"

def PrepareCEmission : Pass<"prepare-c-emission", "::mlir::ModuleOp"> {
  let summary = "Shape EmitC functions into the C a person would write";
  let description = [{
    The IR changes that readable C needs, made before weft's C printer
    (weft/Target/C/TranslateToC.h), which only chooses spellings. On every
    `emitc.func` of the module:

    * integer arithmetic reads as written: `x + -1` becomes `x - 1`,
      `x * -1` becomes `-x`, `a + -b` becomes `a - b`, `x + 0` and `x * 1`
      become `x` (signed integers only, where each rewrite computes the same
      value whenever the original is defined);
    * a value that only reads constants, arguments and induction variables,
      and costs at most three operators with no division or call (`n - 1`,
      `(int64_t)n`, `i + 1`), is recomputed at each use rather than held in a
      variable, so loop bounds and subscripts read as in the source;
    * a load copied into a variable (`double t; t = A[i][j];`) is read
      where the copy is used instead, when nothing is written between the
      copy and the statement that uses it;
    * operators whose value has one use are folded into that use as one
      `emitc.expression`, which the printer writes inline. A value that reads
      memory (a subscript, a variable) moves only within its block and only
      if nothing between its position and the statement that evaluates it
      writes memory (an assignment, a call, a loop, an `if`); one that reads
      none may also move into a nested region (a loop's header or body, an
      `if`), where it is computed from the same values. A loop's bounds,
      which C evaluates at every iteration, take only values that read no
      memory. An expression that may not move is kept where it is
      (`do_not_inline`);
    * ops whose values nobody uses and that write nothing are erased.

    Calls of the C library's math functions (`sqrt`, `exp`, ...) are pure;
    any other call writes memory. The rewrites change no value the program
    computes: test/Target/C/prepare-c-emission.mlir shows each, and the
    end-to-end tests compare every kernel's output with the source
    program's.
  }];
  let dependentDialects = ["::mlir::emitc::EmitCDialect"];
}

def NarrowIterators : Pass<"narrow-iterators", "::mlir::ModuleOp"> {
  let summary = "Mark the loops whose iterator C may declare `int`, as the "
                "source did";
  let description = [{
    Loop bounds and induction variables are `index` (`int64_t` in C). The
    user's `for (int i = ...)` compiles to different code than the same
    loop with an `int64_t` iterator (gcc -O2 picks other induction
    variables: PolyBench's cholesky executes 1.8 % more instructions and
    runs up to 13 % longer), and reads unlike the source. This pass puts
    `weft.c_int` on an `scf.for` of a `func.func` when

    * the front end recorded that the source declared its iterator `int`
      (`weft::sourceType` of the induction variable's location is `i32`),
    * its step is a positive constant, and integer range analysis proves
      its lower bound and its upper bound plus step - 1 (the last value
      the C iterator takes) within `int`, and
    * every integer operation that reads the induction variable, directly
      or through other such operations, has a result within `int` (C may
      evaluate it in `int`), and the chains end only where the value is
      converted or compared: subscripts, loads and stores, comparisons,
      loop bounds, calls, casts to floating point.

    Then every value the iterator and the arithmetic on it take is the
    same in `int` and in `int64_t`, and the C printer declares the
    iterator `int`. Anything else keeps `int64_t`, and so do the loops of
    a distributed form (a function that calls the MPI runtime): among its
    `int64_t` rank blocks, `int` iterators cost gcc -O2 instructions
    (PolyBench symm's busier rank at 2 ranks executed 8 % more). It runs
    just before convert-loops-to-emitc, which carries the mark to
    `emitc.for`.
  }];
  let dependentDialects = ["::weft::WeftDialect"];
}

#endif // WEFT_TARGET_C_PASSES_TD
