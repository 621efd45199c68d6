//===- SourceNames.h - User variable names in the IR -----------*- C++ -*-===//
//
// Generated C keeps the names the user wrote: iterators, arrays, scalars.
// They ride on locations, as a `NameLoc` around the source position: the
// location of a block argument (a function argument, a loop's induction
// variable) or of the op that defines a value (a local variable's
// `memref.alloca`). Passes keep locations as a rule (an op built from
// another takes its location, clones and moved regions keep theirs), so
// names reach the C printer without every pass carrying an attribute, and
// diagnostics still point at the source through the wrapped location.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_SUPPORT_SOURCENAMES_H
#define WEFT_SUPPORT_SOURCENAMES_H

#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"

#include <string>

namespace weft {

/// `loc` named `name` (a NameLoc around it); `loc` itself if `name` is
/// empty. A name already on `loc` is replaced.
mlir::Location withSourceName(mlir::Location loc, llvm::StringRef name);

/// The source name a location carries, or "".
llvm::StringRef sourceName(mlir::Location loc);

/// The source name of `value`: its block argument's or its defining op's
/// location's; "" if it has none.
llvm::StringRef sourceName(mlir::Value value);

/// The source name of the scalar `value` is a cast of (index casts and
/// sign extensions of a C `int` argument, `(long)n`), or its own; "" if
/// it has none.
llvm::StringRef scalarName(mlir::Value value);

/// Whether `name` can name a C variable as it is: letters, digits and
/// underscores, not a digit first (a compiler-made description like
/// "argument 3" cannot).
bool isCIdentifier(llvm::StringRef name);

/// The name of the device copy of the host array `host` in CUDA C++
/// (`d_A`), and back: the host array's name of a device copy's name (a
/// name that is not one is its own).
std::string deviceCopyName(llvm::StringRef host);
llvm::StringRef hostArrayName(llvm::StringRef name);

/// `loc` recording that the source declared the variable it names with C
/// type `type` (an integer type of that width: `i32` for `int`). The
/// record is a fused location with the type as metadata, inside the name:
/// passes that keep or rename a location keep it.
mlir::Location withSourceType(mlir::Location loc, mlir::Type type);

/// The source type recorded in `loc` (see withSourceType), or null.
mlir::Type sourceType(mlir::Location loc);

/// The file position inside `loc` (through names, fused and call-site
/// locations), or null.
mlir::FileLineColLoc sourcePosition(mlir::Location loc);

/// "line N" of `op`'s source location, or "an unknown line" (remarks that
/// name another loop or statement than the one they are on).
std::string lineOf(mlir::Operation *op);

} // namespace weft

#endif // WEFT_SUPPORT_SOURCENAMES_H
