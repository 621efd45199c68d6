//===- CImporter.h - Import scop regions into MLIR --------------*- C++ -*-===//
//
// Imports one scop region of a C function into a `func.func` in the affine,
// arith, math, memref and scf dialects. Loops and conditions whose bounds are
// affine in the enclosing iterators and the region's integer parameters
// become affine ops; everything else takes the conservative scf/memref path.
// Constructs without a faithful translation are reported at their source
// location, never approximated.
//
// Each argument of the function is one C value the region reads or writes:
//   * an array (global, local, VLA parameter or pointer to an array) is a
//     memref of its element type; dimensions after the first that are not
//     compile-time constants are passed as extra `index` arguments, listed in
//     the memref argument's `weft.dim_args` attribute;
//   * a scalar the region writes is a rank-0 memref (passed by address);
//   * a scalar the region only reads is passed by value.
// `ImportedRegion::callArgs` holds the C expression for each argument, to
// call the generated C function in place of the region.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_FRONTEND_C_CIMPORTER_H
#define WEFT_FRONTEND_C_CIMPORTER_H

#include "weft/Frontend/C/ScopRegions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace weft {

/// A loop of the region as imported, in source order.
struct ImportedLoop {
  clang::SourceLocation loc;
  mlir::Operation *op; // affine.for or scf.for
  std::string iterator;
};

struct ImportedRegion {
  mlir::func::FuncOp func;
  std::vector<ImportedLoop> loops;
  /// Array name -> index of its memref argument.
  std::vector<std::pair<std::string, unsigned>> arrayArgs;
  std::vector<std::string> callArgs;
  /// Loop iterators declared outside the region whose final value is dead:
  /// the region no longer uses them, so the call site marks them used.
  std::vector<std::string> deadIterators;
  /// Written `register` scalars (C type, name): the call passes the address
  /// of a copy named `weft_copy_<name>` and copies it back.
  std::vector<std::pair<std::string, std::string>> copiedScalars;
  /// `register` keywords of written scalars' declarations, removed from the
  /// output so that the call can pass their addresses (a copy would read a
  /// variable the region initialises, which -Wall reports).
  std::vector<clang::SourceLocation> droppedRegisterKeywords;
};

/// Imports `region` as a function named `name` at the end of `module`.
/// Errors go to the AST context's diagnostics; returns false if any.
bool importScopRegion(clang::ASTContext &ctx, const ScopRegion &region,
                      mlir::ModuleOp module, llvm::StringRef name,
                      ImportedRegion &result);

/// Checks the region's `#pragma weft` directives against the imported
/// function and records them on it: `dist.grid` on the function,
/// `dist.layout` on distributed or replicated array arguments and on the
/// loop that a loop directive precedes, `weft.local`, `weft.parallel` and
/// `weft.nodist` markers. Errors go to the AST context's diagnostics.
bool recordDirectives(clang::ASTContext &ctx, const ScopRegion &region,
                      ImportedRegion &imported);

/// Registers the dialects that imported regions use.
void registerImportedDialects(mlir::DialectRegistry &registry);

} // namespace weft

#endif // WEFT_FRONTEND_C_CIMPORTER_H
