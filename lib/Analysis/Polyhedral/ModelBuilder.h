//===- ModelBuilder.h - Polyhedral model of a static control part -*- C++
//-*-===//
//
// Private to WeftPolyhedral. Builds the polyhedral model of a function whose
// body is a static control part as ISL strings (one statement per
// affine.load / affine.store). Spaces, in Polly's notation:
//   domain     { S_k[i0, ..., id-1] }          one statement per access
//   reads      { S_k[i] -> M_m[subscripts] }   loads
//   writes     { S_k[i] -> M_m[subscripts] }   stores
//   schedule   S_k[i] -> [c0, i0, c1, i1, ..., cd]  (Statement::schedule)
// where c_j is the position of the j-th enclosing op in its block, so that
// the lexicographic order of schedule vectors is the program order
// (PolyhedralRegion.cpp turns them into an ISL schedule tree).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_ANALYSIS_POLYHEDRAL_MODELBUILDER_H
#define WEFT_LIB_ANALYSIS_POLYHEDRAL_MODELBUILDER_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/MapVector.h"

#include <optional>
#include <string>

namespace weft::detail {

using namespace mlir;

/// One entry of a schedule vector: the position of an op in its block, or
/// the iterator of an enclosing loop.
struct ScheduleEntry {
  bool isIterator;
  int64_t position;   // for positions
  unsigned loopDepth; // for iterators
};

/// A statement: one access, with the loops around it and its schedule.
struct Statement {
  Operation *access;
  SmallVector<affine::AffineForOp> loops; // outermost first
  SmallVector<ScheduleEntry> schedule;
  std::string domain; // constraints over i0..i(d-1)
  std::string target; // the accessed element, M_m[subscripts]
};

/// The deepest loop nest the model describes.
inline constexpr unsigned kMaxModelledLoopDepth = 20;

class ModelBuilder {
public:
  explicit ModelBuilder(func::FuncOp func) : func(func) {}

  LogicalResult build();

  std::string params() const;
  std::string domains() const;
  std::string accesses(bool writes) const;
  /// A reduction update: statement indices of its load and store.
  struct Reduction {
    unsigned load, store;
    StringRef kind;
  };
  SmallVector<Reduction> reductions;
  /// Every pair of instances of the load and the store of each reduction
  /// update `X[e] = X[e] op v` (the dependences a reduction may reorder),
  /// or of `only` this one.
  std::string reductionPairs(const Reduction *only = nullptr) const;

  unsigned numStatements() const { return statements.size(); }
  Operation *accessOf(unsigned statement) const {
    return statements[statement].access;
  }
  /// Every affine.for of the function, in walk order.
  SmallVector<affine::AffineForOp> loops;

  const SmallVector<Statement> &getStatements() const { return statements; }
  /// ISL parameter names of the values used as symbols ("p0", ...).
  const llvm::MapVector<Value, std::string> &getSymbols() const {
    return symbols;
  }
  /// ISL tuple names of the accessed memrefs ("M0", ...).
  const llvm::MapVector<Value, std::string> &getArrays() const {
    return arrays;
  }
  /// The memref whose ISL tuple name is `tuple`, or null.
  Value arrayOf(StringRef tuple) const;
  SmallVector<ScheduleEntry> scheduleOf(Operation *op) const;

private:
  LogicalResult addStatement(Operation *access, AffineMap map,
                             ValueRange operands);
  void findReductions();
  /// ISL spelling of `e`; its dims and symbols are `operands`.
  FailureOr<std::string> spell(Operation *at, AffineExpr e,
                               ArrayRef<Value> operands, unsigned numDims,
                               const DenseMap<Value, unsigned> &ivs);
  FailureOr<std::string> spellOperand(Operation *at, Value v,
                                      const DenseMap<Value, unsigned> &ivs);
  /// ISL spelling of a C integer computed from iterators and parameters
  /// with +, - and products by constants, or of a condition on such
  /// integers (comparisons, &&, ||, !), negated if `negate`; fails quietly.
  FailureOr<std::string> spellInteger(Value v,
                                      const DenseMap<Value, unsigned> &ivs);
  FailureOr<std::string> spellCondition(Value v, bool negate,
                                        const DenseMap<Value, unsigned> &ivs);
  unsigned schedulePositionOf(Operation *op) const;

  func::FuncOp func;
  SmallVector<Statement> statements;
  llvm::MapVector<Value, std::string> symbols;
  llvm::MapVector<Value, std::string> arrays;
};

/// `S<index>[<var>0, ...]`: the tuple of a statement with `depth` loops.
std::string statementTuple(unsigned index, unsigned depth,
                           llvm::StringRef var = "i");
/// The statement index of a tuple named `S<index>`, if it is one.
std::optional<unsigned> statementOfTuple(llvm::StringRef name);

/// Whether `memref` is an argument of its function marked with the unit
/// attribute `name` (the importer's weft.local, weft.region_only).
bool isMarkedArgument(Value memref, StringRef name);

} // namespace weft::detail

#endif // WEFT_LIB_ANALYSIS_POLYHEDRAL_MODELBUILDER_H
