//===- SpliceRegions.h - Put generated C back into the source ---*- C++ -*-===//
//
// Rewrites the main file: each scop region becomes a call of its generated
// function, whose definition goes right before the enclosing function. All
// other bytes are kept; `#line` directives after each insertion keep the
// line numbers of the original code (for diagnostics and __LINE__).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_TARGET_C_SPLICEREGIONS_H
#define WEFT_TARGET_C_SPLICEREGIONS_H

#include "weft/Frontend/C/ScopRegions.h"

#include <string>
#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace weft {

struct RegionReplacement {
  const ScopRegion *region;
  std::string functionName;
  std::string definition;            // C text of the generated function
  std::vector<std::string> callArgs; // C expressions, one per parameter
  std::vector<std::string> unusedVars; // variables to mark used: (void)x;
  /// Scalars passed through a copy `weft_copy_<name>`: (C type, name).
  std::vector<std::pair<std::string, std::string>> copiedScalars;
  /// `register` keywords to remove from the file.
  std::vector<clang::SourceLocation> droppedRegisterKeywords;
};

/// A change to the code outside the regions: `length` bytes at `begin`
/// replaced by `text` (an insertion when `length` is 0).
struct SourceEdit {
  clang::SourceLocation begin;
  unsigned length = 0;
  std::string text;
};

/// Returns the main file with the replacements and `edits` applied and
/// `preamble` at the top; with none of them, the file is returned unchanged.
/// The user's lines keep their numbers in the source file (`#line`); the
/// region functions, written before the function each region is in, are
/// numbered as lines of `outputName`, the file the result is written to.
std::string spliceRegions(clang::ASTContext &ctx,
                          const std::vector<RegionReplacement> &replacements,
                          const std::string &preamble,
                          const std::vector<SourceEdit> &edits = {},
                          llvm::StringRef outputName = "<stdout>");

} // namespace weft

#endif // WEFT_TARGET_C_SPLICEREGIONS_H
