//===- Communication.h - Exact communication sets with ISL ------*- C++ -*-===//
//
// Given how the pieces of work of a static control part are split across
// ranks, computes which array elements each rank must send each other rank
// right after each distributed piece runs: for every value-based flow
// dependence whose source ran on this rank and whose sink runs later on
// another rank (or is the region's live-out value, for rank 0), the element
// it carries (Pluto's flow-out ∩ flow-in, never "the whole flow-out set to
// everyone"). Each value goes once to each rank that reads it.
//
// A piece of work (a unit) is an op of the function body, or of the body of
// the sequential loops around it. A distributed unit is an affine.for whose
// iterations are split in blocks: the rank with block [lo, hi) runs the
// iterations lo <= i < hi. A unit distributed over a 2-D grid splits its
// loop and the loop directly inside it: the rank at grid coordinates
// (y, x) runs the iterations of row block y and column block x. A
// replicated unit runs on every rank.
//
// Sets are parametric in the block bounds, so one set describes the message
// of every pair of ranks. Their parameters are named
//   p<k>      a symbol of the function (ModelBuilder's names),
//   e<k>      the k-th sequential loop around the sending unit,
//   slo<u>, shi<u>  the sender's block of the block group of unit u,
//   rlo<u>, rhi<u>  the receiver's block of the block group of unit u,
//   srlo<u>, srhi<u>, sclo<u>, schi<u>  for a group over a 2-D grid: the
//             sender's row and column blocks (rrlo<u> ... rchi<u> the
//             receiver's),
//   rq        the receiver's rank.
// Each set is returned with an ISL-generated loop nest that enumerates its
// elements in a fixed order, so that sender and receiver pack and unpack
// a message the same way.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_ANALYSIS_POLYHEDRAL_COMMUNICATION_H
#define WEFT_ANALYSIS_POLYHEDRAL_COMMUNICATION_H

#include "weft/Analysis/Polyhedral/PolyhedralRegion.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace weft {

/// A reduction update `X[e] = X[e] op v` of a distributed unit whose
/// accumulators several ranks update: each rank accumulates its block's
/// contributions in its own copy of X, and the copies are combined after
/// the unit.
struct UnitReduction {
  mlir::Operation *store; ///< the affine.store of the update
  std::string kind;       ///< add, mul, max or min
};

struct DistUnit {
  mlir::Operation *op;
  /// The op is an affine.for whose iterations are split in blocks.
  bool distributed = false;
  /// When distributed: how many loops of the nest, from the op, are split,
  /// one per grid axis. 1: the op's loop over all ranks; 2: the op's loop
  /// over the rows of a 2-D grid (gridShape2D) and the loop directly inside
  /// it, which holds every access of the unit, over its columns.
  unsigned gridDims = 1;
  /// Sequential affine.for loops around `op`, outermost first.
  llvm::SmallVector<mlir::Operation *, 2> enclosing;
  /// When distributed: the updates combined across ranks after the unit.
  /// Their writes are then everywhere, so no message carries them.
  llvm::SmallVector<UnitReduction, 1> reductions;
};

/// An expression of an ISL AST (quasi-affine, integer).
struct AstExpr {
  enum class Kind {
    Int,
    Id,
    Add,
    Sub,
    Mul,
    Neg,
    FloorDiv,
    ExactDiv,
    TruncDiv,
    Rem,
    Min,
    Max,
    Select,
    Eq,
    Le,
    Lt,
    Ge,
    Gt,
    And,
    Or
  };
  Kind kind = Kind::Int;
  int64_t value = 0;
  std::string id;
  std::vector<AstExpr> args;
};

/// A node of an ISL AST that enumerates the elements of a set.
struct AstNode {
  enum class Kind { For, If, Block, Element };
  Kind kind = Kind::Block;
  /// For: `for (iterator = init; cond; iterator += step)`.
  std::string iterator;
  AstExpr init, cond;
  int64_t step = 1;
  /// If: the condition; children[0] is the then part, children[1] the else.
  AstExpr condition;
  /// For: children[0] is the body. Block: the statements.
  std::vector<AstNode> children;
  /// Element: the subscripts of the array element.
  std::vector<AstExpr> subscripts;
};

/// What a parameter of a set stands for.
struct CommParam {
  enum class Kind {
    Symbol,
    Enclosing,
    SenderLo,
    SenderHi,
    ReceiverLo,
    ReceiverHi,
    ReceiverRank
  };
  Kind kind;
  mlir::Value symbol; // Symbol
  unsigned index = 0; // Enclosing: loop depth; Sender*, Receiver*: unit
  unsigned axis = 0;  // Sender*, Receiver*: the grid axis of the block
};

/// The rows and columns of the 2-D process grid of `ranks` ranks: the
/// preferred extents (0: none, `#pragma weft grid`) when the ranks fit them,
/// else the most nearly square factorisation with at least as many rows as
/// columns (MPI_Dims_create's choice): 4 -> 2 x 2, 6 -> 3 x 2, prime P ->
/// P x 1. Ranks are numbered row-major: rank r sits at (r / cols, r % cols).
/// The runtime's weft_rt_grid_rows/cols compute the same.
inline std::pair<int64_t, int64_t> gridShape2D(int64_t ranks,
                                               int64_t preferredRows = 0,
                                               int64_t preferredCols = 0) {
  if (preferredRows > 0 && preferredCols > 0) {
    if (preferredRows * preferredCols == ranks)
      return {preferredRows, preferredCols};
  } else if (preferredRows > 0 && ranks % preferredRows == 0) {
    return {preferredRows, ranks / preferredRows};
  } else if (preferredCols > 0 && ranks % preferredCols == 0) {
    return {ranks / preferredCols, preferredCols};
  }
  int64_t cols = 1;
  for (int64_t c = 1; c * c <= ranks; ++c)
    if (ranks % c == 0)
      cols = c;
  return {ranks / cols, cols};
}

/// The elements of one array that one rank sends another.
struct ArrayMessage {
  mlir::Value memref;
  /// The exact set, as ISL text (the dist message ops carry it), and its
  /// parameters' names in order.
  std::string set;
  std::vector<std::string> params;
  /// The constraints of the set's pieces, given that block bounds are
  /// ordered: a measure of its complexity, which the runtime's tables and
  /// their walk grow with. Counted only where some unit is split over a 2-D
  /// grid (the partitioner limits those by it).
  size_t constraints = 0;
};

/// Communication after one distributed unit, or before the region.
struct Exchange {
  /// The values the region reads from before it (what it reads before
  /// writing), for ranks whose copies are outdated.
  static constexpr int kBeforeRegion = -1;
  /// Index of the sending unit in the list given, or kBeforeRegion.
  int target;
  llvm::SmallVector<ArrayMessage, 2> messages;
  /// Every parameter of the sets, by ISL name.
  std::vector<std::pair<std::string, CommParam>> params;
};

/// Distributed units whose loop bounds differ only by constants, or that are
/// pieces of one loop split at its pivot, share one block distribution, of
/// the hull of their ranges, so that their blocks line up (a sweep over
/// [1, n) and one over [0, n - 1) then exchange only true halos). For each
/// unit: the first unit of its group (itself when it is not distributed). The
/// block parameters of a group are named after that unit.
/// Units over a 2-D grid group only with units over a 2-D grid whose two
/// split loops line up.
llvm::SmallVector<unsigned> blockGroups(llvm::ArrayRef<DistUnit> units);

/// The loop directly inside `loop` that a 2-D grid splits over its columns
/// (null if there is none).
mlir::affine::AffineForOp innerGridLoop(mlir::affine::AffineForOp loop);

/// The loops of distributed unit `unit` that are split, one per grid axis
/// (its loop, then the inner loop over a 2-D grid).
llvm::SmallVector<mlir::affine::AffineForOp, 2>
splitLoops(const DistUnit &unit);

/// The iterations [lb, ub) of distributed unit `u`'s loop in which some
/// access happens, over every execution of the loops around it, as
/// expressions of the function's symbols (`params` says which). Used when
/// the loop's bounds follow those loops' iterators (triangular nests).
struct LoopHull {
  AstExpr lb, ub;
  std::vector<std::pair<std::string, CommParam>> params;
};
mlir::FailureOr<LoopHull> computeLoopHull(PolyhedralRegion &region,
                                          llvm::ArrayRef<DistUnit> units,
                                          unsigned u,
                                          unsigned long maxOperations);

/// Rank-local storage of a private array (one no code outside the region
/// reads and the region writes before reading, so nothing it leaves
/// behind is read): every element the calling rank accesses has, for each
/// dimension whose range depends on the rank's blocks, its subscript `dim`
/// in [lo, hi), expressions of the rank's blocks (rlo<g>, rhi<g>, or a 2-D
/// grid's rrlo<g> ... rchi<g>) and the symbols: the bounding box of what
/// the rank touches. Only arrays with such a dimension are listed.
struct PrivateFootprint {
  struct Range {
    unsigned dim;
    AstExpr lo, hi;
    std::string text; // ISL text of [lo, hi), for remarks
  };
  mlir::Value memref;
  /// By increasing dimension.
  llvm::SmallVector<Range, 2> ranges;
  std::vector<std::pair<std::string, CommParam>> params;
};
mlir::FailureOr<std::vector<PrivateFootprint>>
computePrivateFootprints(PolyhedralRegion &region,
                         llvm::ArrayRef<DistUnit> units,
                         unsigned long maxOperations);

/// The elements of one array argument that the region accesses, over its
/// whole execution: for each dimension, subscripts in [lo, hi), expressions
/// of the function's symbols (the bounding box of the accesses; a rank-0
/// memref has no dimension). Only where the region accesses the array are
/// the expressions meaningful.
struct ArgumentFootprint {
  mlir::Value memref;
  bool written = false;
  llvm::SmallVector<std::pair<AstExpr, AstExpr>, 2> box;
};
struct ArgumentFootprints {
  /// False when the function has no polyhedral model (the partitioner then
  /// leaves it replicated); the model builder's remarks say why.
  bool modelled = true;
  /// The arguments the region accesses, in argument order.
  std::vector<ArgumentFootprint> arrays;
  /// Every parameter of the boxes (all of them Symbol), by ISL name.
  std::vector<std::pair<std::string, CommParam>> params;
};
/// Fails with an error when ISL fails or exceeds `maxOperations`.
mlir::FailureOr<ArgumentFootprints>
computeArgumentFootprints(PolyhedralRegion &region,
                          unsigned long maxOperations);

/// The accumulators of one array that a distributed unit's reductions
/// update, in its current execution.
struct ReductionCombine {
  mlir::Value memref;
  std::string kind;
  /// Every accumulator (the same set on every rank): combined across ranks
  /// after the unit (an all-reduce), so every rank then holds the result.
  /// ISL text and its parameters' names in order.
  std::string set;
  std::vector<std::string> params;
  /// The constraints of `set` and `resetSet`, as ArrayMessage::constraints.
  size_t constraints = 0;
  /// Those whose first update is not in the rank's block (parameters: the
  /// rank's block as the receiver's, rlo<g>/rhi<g>): the rank sets them to
  /// the identity of `kind` before the unit, so that each contribution and
  /// the value before the unit count exactly once.
  std::string resetSet;
  AstNode reset;
};

struct UnitCombine {
  /// Index of the distributed unit.
  int target;
  llvm::SmallVector<ReductionCombine, 1> arrays;
  /// Every parameter of the sets, by ISL name.
  std::vector<std::pair<std::string, CommParam>> params;
};

struct RegionExchanges {
  std::vector<Exchange> exchanges;
  /// One per distributed unit with reductions.
  std::vector<UnitCombine> combines;
  /// Some value live after the region was sent to rank 0 only.
  bool liveOutToRoot = false;
};

/// Computes the exchanges needed by `units` (disjoint, in program order,
/// covering every access of the region's function). Fails with an error on
/// the function when it is not a static control part or ISL exceeds
/// `maxOperations`. Live-out values go to rank 0, or to every rank with
/// `liveOutEverywhere`.
mlir::FailureOr<RegionExchanges>
computeExchanges(PolyhedralRegion &region, llvm::ArrayRef<DistUnit> units,
                 bool liveOutEverywhere, unsigned long maxOperations);

} // namespace weft

#endif // WEFT_ANALYSIS_POLYHEDRAL_COMMUNICATION_H
