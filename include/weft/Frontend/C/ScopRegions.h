//===- ScopRegions.h - Find #pragma scop regions in C -----------*- C++ -*-===//
//
// A PragmaHandler records `#pragma scop`, `#pragma endscop` and
// `#pragma weft ...` lines while Clang preprocesses the file; after parsing,
// collectScopRegions() pairs them up and finds the statements of the
// enclosing block that each region covers.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_FRONTEND_C_SCOPREGIONS_H
#define WEFT_FRONTEND_C_SCOPREGIONS_H

#include "weft/Frontend/C/Directives.h"

#include "clang/Basic/SourceLocation.h"
#include <memory>
#include <vector>

namespace clang {
class ASTContext;
class CompoundStmt;
class FunctionDecl;
class Preprocessor;
class Stmt;
} // namespace clang

namespace weft {

/// One `#pragma` line that weft understands, in source order.
struct PragmaEvent {
  clang::SourceLocation loc; // the `#` of `#pragma`
  clang::SourceLocation endLoc; // end of the pragma line
  Directive directive;
};

/// Everything the pragma handler saw during preprocessing.
struct PragmaLog {
  std::vector<PragmaEvent> events;
};

/// Registers handlers for `scop`, `endscop` and the `weft` namespace on `pp`.
/// Malformed `#pragma weft` lines are reported through `pp`'s diagnostics.
void registerScopPragmaHandlers(clang::Preprocessor &pp, PragmaLog &log);

/// A region of one function body between `#pragma scop` and `#pragma endscop`.
struct ScopRegion {
  clang::FunctionDecl *function = nullptr;
  clang::CompoundStmt *block = nullptr;
  std::vector<clang::Stmt *> stmts; // the block's statements inside the region
  clang::SourceLocation beginLoc;   // `#` of the opening pragma
  clang::SourceLocation endLoc;     // `#` of the closing pragma
  clang::SourceLocation endLineEnd; // end of the closing pragma's line
  /// `#pragma weft` directives inside the region (other than scop/endscop),
  /// each with its location.
  std::vector<PragmaEvent> directives;
};

/// Pairs the logged pragmas into regions of the main file. Reports unclosed,
/// unopened, nested and misplaced regions as errors; returns false if any.
bool collectScopRegions(clang::ASTContext &ctx, const PragmaLog &log,
                        std::vector<ScopRegion> &regions);

} // namespace weft

#endif // WEFT_FRONTEND_C_SCOPREGIONS_H
