//===- StatementDependences.h - Dependences by statement pair ---*- C++ -*-===//
//
// Private to WeftPolyhedral (built with exceptions). Dependences between
// statement instances, one relation per pair of statements, to ask which
// loops carry them and where.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_ANALYSIS_POLYHEDRAL_STATEMENTDEPENDENCES_H
#define WEFT_LIB_ANALYSIS_POLYHEDRAL_STATEMENTDEPENDENCES_H

#include "ModelBuilder.h"

#include <isl/cpp.h>

#include <vector>

namespace weft::detail {

class StatementDependences {
public:
  StatementDependences(const ModelBuilder &model, const isl::union_map &deps);

  /// Whether `loop` carries one of them: both instances inside it, in the
  /// same iterations of the loops around it and in different iterations of
  /// it, the source's first. Checked pair by pair in the statements' own
  /// spaces, where the loop is the iterator at its depth.
  bool carriedBy(affine::AffineForOp loop) const;

  /// Whether one of them, from a statement and to a statement `select`
  /// accepts, has both instances inside one execution of `loop` (in the
  /// same iterations of the loops around it), carried by it or not.
  bool
  within(affine::AffineForOp loop,
         llvm::function_ref<bool(unsigned source, unsigned sink)> select) const;

  /// Whether one of them has both instances inside one execution of `loop`
  /// and a pair of instances in `restrict(relation, depth)`: the pair's
  /// relation in one execution of the loop (the same iterations of the loops
  /// around it), in the statements' own spaces, `loop` at `depth`. Pairs
  /// with one end outside the loop are not asked.
  /// With `select`, only the pairs of statements it accepts.
  bool withinWhere(
      affine::AffineForOp loop,
      llvm::function_ref<isl::map(isl::map relation, int depth)> restrict,
      llvm::function_ref<bool(unsigned source, unsigned sink)> select =
          nullptr) const;

  /// The dependences `loop` carries as a set of [o0, ..., s, t]: the
  /// iterations o of the loops around it (shared by source and sink) and
  /// the source's and sink's iterations s < t of `loop`. Null when no
  /// dependence has both ends inside it, maybe empty otherwise.
  isl::set carriedSteps(affine::AffineForOp loop) const;

private:
  struct Pair {
    unsigned source, sink;
    isl::map relation;
  };

  /// The instances of `p` in one execution of `loop` (the same iterations
  /// of the loops around it), `loop` being at `depth`; a null map when the
  /// pair is not inside the loop.
  isl::map inOneExecution(const Pair &p, affine::AffineForOp loop,
                          int &depth) const;
  /// Those that `loop` carries: the source in an earlier iteration of it.
  isl::map carried(const Pair &p, affine::AffineForOp loop, int &depth) const;
  /// The position of `loop` among the loops around a statement, or -1.
  int depthOf(unsigned statement, affine::AffineForOp loop) const;

  const ModelBuilder &model;
  std::vector<Pair> pairs;
};

} // namespace weft::detail

#endif // WEFT_LIB_ANALYSIS_POLYHEDRAL_STATEMENTDEPENDENCES_H
