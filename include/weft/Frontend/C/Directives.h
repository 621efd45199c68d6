//===- Directives.h - #pragma weft directive parser -------------*- C++ -*-===//
//
// Parses the tokens of one `#pragma weft ...` line into a Directive. The
// parser knows nothing about Clang: the front end hands it the tokens after
// `weft` and maps an error's token index back to a source location.
// The syntax is documented in docs/directives.md.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_FRONTEND_C_DIRECTIVES_H
#define WEFT_FRONTEND_C_DIRECTIVES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>
#include <vector>

namespace weft {

/// One preprocessing token of a pragma line. C keywords (e.g. `auto`) must
/// arrive as Identifier tokens; every other non-identifier, non-number token
/// (including the `@` that C lexes as an unknown token) arrives as Punct with
/// its spelling.
struct DirectiveToken {
  enum class Kind { Identifier, Number, Punct };
  Kind kind;
  std::string text;
};

/// A parse error: the token it points at (== tokens.size() for "at end of
/// line") and a message without a trailing period.
struct DirectiveError {
  size_t tokenIndex = 0;
  std::string message;
};

enum class DirectiveKind {
  Scop,       // weft scop
  EndScop,    // weft endscop
  Grid,       // weft grid(...)
  Distribute, // weft distribute ...
  Replicate,  // weft replicate(...)
  Local,      // weft local(...)
  Parallel,   // weft parallel
  NoDist,     // weft nodist
  NoAlias,    // weft noalias [(...)]
  Device,     // weft device: the next loop runs on the GPU
  Host,       // weft host: the next loop runs on the CPU
};

/// The most process-grid dimensions a grid or a distribution may use.
constexpr unsigned maxGridDims = 3;

/// The largest grid extent or block size a directive may spell.
constexpr int64_t maxDirectiveInteger = 2147483647;

/// The directive's name as spelled after `#pragma weft` (e.g. "endscop").
llvm::StringRef getDirectiveName(DirectiveKind kind);

/// How one loop or array dimension is mapped onto the process grid.
struct DimDistribution {
  enum class Kind { Block, Cyclic, BlockCyclic, Replicated };
  Kind kind = Kind::Block;
  int64_t blockSize = 0; // BlockCyclic only
  int gridDim = -1;      // grid dimension, -1 = the next free one

  /// True unless the dimension is replicated (not split across ranks).
  bool isDistributed() const { return kind != Kind::Replicated; }

  /// Canonical spelling, e.g. "block", "block_cyclic(8)@1", "*".
  std::string str() const;

  bool operator==(const DimDistribution &other) const {
    return kind == other.kind && blockSize == other.blockSize &&
           gridDim == other.gridDim;
  }
  bool operator!=(const DimDistribution &other) const {
    return !(*this == other);
  }
};

struct Directive {
  /// What a Distribute directive applies to.
  enum class Target {
    Loops, // distribute(i: block, j: *): the loops of the next loop nest
    Array, // distribute A(block, *): the dimensions of array A
  };

  DirectiveKind kind = DirectiveKind::Scop;
  /// Grid: one extent per grid dimension, 0 meaning "chosen by weft"; empty
  /// for grid(auto) (weft chooses the number of dimensions too).
  std::vector<int64_t> gridShape;
  /// Distribute: the array (Target::Array, one name) or the loop iterators
  /// (Target::Loops, parallel to `dims`); Replicate/Local: the arrays;
  /// NoAlias: the arrays, or none for every array of the region.
  std::vector<std::string> names;
  /// Distribute: one entry per array dimension or per named loop.
  std::vector<DimDistribution> dims;
  /// Distribute: whether loops or an array are distributed.
  Target target = Target::Loops;

  /// True for grid(auto).
  bool isAutoGrid() const {
    return kind == DirectiveKind::Grid && gridShape.empty();
  }

  /// Canonical one-line spelling without the `#pragma weft` prefix (parses
  /// back to an equal directive), e.g. "distribute A(block_cyclic(8), *)".
  std::string str() const;

  bool operator==(const Directive &other) const {
    return kind == other.kind && gridShape == other.gridShape &&
           names == other.names && dims == other.dims && target == other.target;
  }
  bool operator!=(const Directive &other) const { return !(*this == other); }
};

/// Parses the tokens after `#pragma weft`. Returns false and fills `error`
/// on malformed input; `result` is only written on success.
bool parseDirective(llvm::ArrayRef<DirectiveToken> tokens, Directive &result,
                    DirectiveError &error);

} // namespace weft

#endif // WEFT_FRONTEND_C_DIRECTIVES_H
