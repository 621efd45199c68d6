//===- TranslateToC.h - Print EmitC as C that people read -------*- C++ -*-===//
//
// weft's printer for EmitC: a drop-in for `emitc::translateToCpp` over a
// module or a function, for the C that weft's users read, debug and compile
// with their own flags (--target=seq, --target=mpi, and the CUDA target's
// host and kernel sources). It differs from MLIR 19's emitter where that
// one cannot say what weft needs:
//
//  * names: a value's name is its source name (weft/Support/SourceNames.h),
//    or one derived from what defines it (`nranks` for a call of
//    `weft_rt_nranks`, `tmp` otherwise), made unique with a suffix (`i`,
//    `i_1`) where a visible declaration or a reserved name (C keywords,
//    functions the code calls, the caller's reserved names such as the
//    translation unit's macros) has it. Loops in sequence both keep `i`.
//  * expressions: an `emitc.expression` with one use is printed at that
//    use (in a subscript, a loop bound, an `if`, a call), with the
//    parentheses C's precedence and gcc's -Wparentheses need; a constant,
//    literal, subscript or variable is always printed where it is used.
//    Like translateToCpp, the printer trusts whoever formed the expressions
//    that evaluating one at its use reads what it read where it stands
//    (prepare-c-emission checks it; translateToCpp additionally keeps calls
//    and reads of variables where they stand);
//  * declarators: arrays (`double tmp[10][10]`), pointers to arrays
//    (`double (*A)[250]`, from `!emitc.ptr<!emitc.array<250xf64>>`), and
//    opaque types that are C abstract declarators (`double (*restrict)[*]`
//    is printed `double (*restrict A)[A_dim1]`, each `[*]` taking the name
//    of the parameter that the argument's `weft.dim_args` names: a C99
//    variably modified parameter, which must follow its extents);
//  * spelling: `i++` for a unit step, `x += e` for `x = x + e`, shortest
//    round-trip floating-point literals (`0.2`, `1.5f`), no `return;` at
//    the end of a function that returns nothing.
//
// What it prints: builtin.module, emitc.include, emitc.verbatim (its text,
// as is), emitc.global, emitc.declare_func, emitc.func (specifiers such as
// `static`, `__global__`, `extern "C"` first), and in function bodies every
// other EmitC 19 op: variable, assign, constant, literal, subscript,
// member, member_of_ptr, get_global, apply, cast, the arithmetic, bitwise,
// logical and comparison operators, conditional, call_opaque (with `args`
// and `template_args`), call, expression, for, if, yield and return. Any
// other op is an error at its location, and nothing is written.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_TARGET_C_TRANSLATETOC_H
#define WEFT_TARGET_C_TRANSLATETOC_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

namespace weft {

struct CPrintOptions {
  /// Names that declarations in the printed code must not take, besides C's
  /// keywords and the functions the code calls: the macros of the file the
  /// code goes into, for instance.
  const llvm::StringSet<> *reservedNames = nullptr;
};

/// Prints `op`, a builtin.module of EmitC ops or one EmitC op that may
/// stand at module level (an emitc.func, for instance), as C to `os`. On
/// failure, reports an error at the op it cannot print and writes nothing.
mlir::LogicalResult translateToC(mlir::Operation *op, llvm::raw_ostream &os,
                                 const CPrintOptions &options = {});

} // namespace weft

#endif // WEFT_TARGET_C_TRANSLATETOC_H
