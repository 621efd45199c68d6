//===- ElementSets.cpp - Exact element sets for the MPI runtime -*- C++ -*-===//
//
// Encodes an ISL set as the runtime's table (ElementSets.h). The set is
// made a union of disjoint basic sets with explicit divisions; every
// constraint of a piece is a row at the level of the last subscript it
// involves, and for every subscript but the last, the constraints of the
// piece's projection onto the subscripts up to it (without divisions, an
// over-approximation) are added as bound rows, so that each subscript's
// loop is bounded by the ones before it. Since every constraint of the
// piece is checked at its level, the walk visits exactly the piece's
// points; the added rows only prune.
//
// This file is compiled with exceptions (see CMakeLists.txt).
//
//===----------------------------------------------------------------------===//
#include "weft/Analysis/Polyhedral/ElementSets.h"

#include "IslScope.h"

#include "dialects/Dist/IR/DistOps.h"

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/local_space.h>
#include <isl/set.h>
#include <isl/val.h>

#include <limits>
#include <memory>
#include <set>
#include <vector>

using namespace mlir;

namespace {

/// ISL objects of the C interface, freed on every path (ISL errors throw).
template <typename T>
using Owned = std::unique_ptr<T, T *(*)(T *)>;
Owned<isl_aff> own(isl_aff *p) { return {p, isl_aff_free}; }
Owned<isl_val> own(isl_val *p) { return {p, isl_val_free}; }
Owned<isl_constraint> own(isl_constraint *p) {
  return {p, isl_constraint_free};
}
Owned<isl_constraint_list> own(isl_constraint_list *p) {
  return {p, isl_constraint_list_free};
}
Owned<isl_basic_set> own(isl_basic_set *p) { return {p, isl_basic_set_free}; }
Owned<isl_basic_set_list> own(isl_basic_set_list *p) {
  return {p, isl_basic_set_list_free};
}

/// The encoding of one basic set.
struct PieceEncoder {
  unsigned params, dims, divs;
  std::vector<int> divLevel;
  std::vector<std::vector<int64_t>> divRows; // level, denom, coeffs, const
  std::vector<std::vector<int64_t>> rows;    // level, kind, coeffs, const
  std::set<std::vector<int64_t>> seen;

  unsigned vars() const { return params + dims + divs; }

  static int64_t toInt(isl_val *raw) {
    Owned<isl_val> v = own(raw);
    if (!v)
      throw std::runtime_error("no value");
    if (isl_val_is_int(v.get()) != isl_bool_true ||
        isl_val_cmp_si(v.get(), std::numeric_limits<int64_t>::max()) > 0 ||
        isl_val_cmp_si(v.get(), std::numeric_limits<int64_t>::min() + 1) < 0)
      throw std::runtime_error("a coefficient does not fit 64 bits");
    return isl_val_get_num_si(v.get());
  }

  /// The level of a variable (-1 for a parameter).
  int levelOf(unsigned var) const {
    if (var < params)
      return -1;
    if (var < params + dims)
      return var - params;
    return divLevel[var - params - dims];
  }

  void addDiv(isl_aff *raw) {
    Owned<isl_aff> owned = own(raw);
    isl_aff *aff = owned.get();
    int64_t denom = toInt(isl_aff_get_denominator_val(aff));
    std::vector<int64_t> coeffs(vars(), 0);
    int level = -1;
    auto take = [&](enum isl_dim_type type, unsigned n, unsigned offset) {
      for (unsigned i = 0; i < n; ++i) {
        isl_val *c = isl_aff_get_coefficient_val(aff, type, i);
        c = isl_val_mul(c, isl_val_int_from_si(isl_aff_get_ctx(aff), denom));
        coeffs[offset + i] = toInt(c);
        if (coeffs[offset + i] != 0)
          level = std::max(level, levelOf(offset + i));
      }
    };
    take(isl_dim_param, params, 0);
    take(isl_dim_in, dims, params);
    take(isl_dim_div, isl_aff_dim(aff, isl_dim_div), params + dims);
    isl_val *c = isl_aff_get_constant_val(aff);
    c = isl_val_mul(c, isl_val_int_from_si(isl_aff_get_ctx(aff), denom));
    int64_t constant = toInt(c);
    divLevel.push_back(level);
    std::vector<int64_t> row{level, denom};
    row.insert(row.end(), coeffs.begin(), coeffs.end());
    row.push_back(constant);
    divRows.push_back(std::move(row));
  }

  /// A constraint over the piece's variables (divisions of `c`'s local
  /// space beyond `numDivs` must not appear).
  void addRow(isl_constraint *raw, unsigned numDims, unsigned numDivs) {
    Owned<isl_constraint> owned = own(raw);
    isl_constraint *c = owned.get();
    if (!c)
      throw std::runtime_error("no constraint");
    std::vector<int64_t> coeffs(vars(), 0);
    auto take = [&](enum isl_dim_type type, unsigned n, unsigned offset) {
      for (unsigned i = 0; i < n; ++i)
        coeffs[offset + i] =
            toInt(isl_constraint_get_coefficient_val(c, type, i));
    };
    take(isl_dim_param, params, 0);
    take(isl_dim_set, numDims, params);
    take(isl_dim_div, numDivs, params + dims);
    int64_t constant = toInt(isl_constraint_get_constant_val(c));
    bool equality = isl_constraint_is_equality(c) == isl_bool_true;
    int level = -1;
    for (unsigned v = 0; v < vars(); ++v)
      if (coeffs[v] != 0)
        level = std::max(level, levelOf(v));
    // A row bounds the subscript of its level unless a division of that
    // level appears in it (then the subscript runs over the other rows'
    // bounds and the row filters each value).
    bool bound = level >= 0 && coeffs[params + level] != 0;
    for (unsigned d = 0; d < divs && bound; ++d)
      if (coeffs[params + dims + d] != 0 && divLevel[d] == level)
        bound = false;
    int64_t kind = (bound ? 0 : 2) + (equality ? 1 : 0);
    std::vector<int64_t> row{level, kind};
    row.insert(row.end(), coeffs.begin(), coeffs.end());
    row.push_back(constant);
    if (seen.insert(row).second)
      rows.push_back(std::move(row));
  }

  void addConstraints(isl_basic_set *bset, unsigned numDims, unsigned numDivs) {
    Owned<isl_constraint_list> list =
        own(isl_basic_set_get_constraint_list(bset));
    if (!list)
      throw std::runtime_error("no constraints");
    for (int i = 0, n = isl_constraint_list_n_constraint(list.get()); i < n;
         ++i)
      addRow(isl_constraint_list_get_constraint(list.get(), i), numDims,
             numDivs);
  }

  /// Whether subscript `level` has a lower and an upper bound row.
  bool bounded(unsigned level) const {
    bool lower = false, upper = false;
    for (const std::vector<int64_t> &row : rows) {
      if (row[0] != (int64_t)level || (row[1] != 0 && row[1] != 1))
        continue;
      int64_t a = row[2 + params + level];
      lower |= a > 0 || row[1] == 1;
      upper |= a < 0 || row[1] == 1;
    }
    return lower && upper;
  }
};

} // end anonymous namespace

/// Appends the encoding of `raw` (taken) to `table`.
static void encodePiece(isl_basic_set *raw, unsigned params, unsigned dims,
                        SmallVectorImpl<int64_t> &table) {
  Owned<isl_basic_set> bset = own(isl_basic_set_remove_redundancies(raw));
  if (!bset)
    throw std::runtime_error("cannot simplify a piece");
  PieceEncoder piece{params, dims, 0, {}, {}, {}, {}};
  piece.divs = isl_basic_set_dim(bset.get(), isl_dim_div);
  for (unsigned d = 0; d < piece.divs; ++d) {
    Owned<isl_aff> div = own(isl_basic_set_get_div(bset.get(), d));
    if (!div || isl_aff_is_nan(div.get()) == isl_bool_true)
      throw std::runtime_error("a division without a definition");
    piece.addDiv(div.release());
  }
  piece.addConstraints(bset.get(), dims, piece.divs);
  // Bounds of each subscript from the ones before it; for the last, the
  // piece's own constraints without its divisions (remove_redundancies may
  // have dropped a plain bound that division constraints imply).
  for (unsigned level = 0; level < dims; ++level) {
    Owned<isl_basic_set> proj = own(isl_basic_set_remove_redundancies(
        isl_basic_set_remove_divs(isl_basic_set_project_out(
            isl_basic_set_copy(bset.get()), isl_dim_set, level + 1,
            dims - level - 1))));
    if (!proj)
      throw std::runtime_error("cannot project a piece");
    piece.addConstraints(proj.get(), level + 1, 0);
  }
  for (unsigned level = 0; level < dims; ++level)
    if (!piece.bounded(level))
      throw std::runtime_error("subscript " + std::to_string(level) +
                               " of a message set is unbounded");
  table.push_back(piece.divs);
  table.push_back(piece.rows.size());
  for (const std::vector<int64_t> &div : piece.divRows)
    table.append(div.begin(), div.end());
  for (const std::vector<int64_t> &row : piece.rows)
    table.append(row.begin(), row.end());
}

FailureOr<SmallVector<int64_t>>
weft::encodeElementSet(Operation *at, StringRef text, unsigned dims,
                       unsigned long maxDisjointOperations) {
  isl_ctx *ctx = isl_ctx_alloc();
  isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
  SmallVector<int64_t> table;
  LogicalResult status = weft::detail::runIsl(
      ctx, at, "encoding a message set", /*maxOperations=*/0, [&](isl::ctx c) {
        isl::set set(c, text.str());
        if ((unsigned)isl_set_dim(set.get(), isl_dim_set) != dims)
          throw std::runtime_error(
              "the set's elements have " +
              std::to_string(isl_set_dim(set.get(), isl_dim_set)) +
              " subscripts, the array " + std::to_string(dims));
        unsigned params = isl_set_dim(set.get(), isl_dim_param);
        if (dims > weft::dist::kMaxElementSetDims ||
            params > weft::dist::kMaxElementSetParams)
          throw std::runtime_error("more subscripts or parameters than the "
                                   "runtime takes");
        // Disjoint pieces, each element goes once; they are the set (ISL's
        // contract for make_disjoint; the unit tests check the walk against
        // ISL's enumeration). Checking the equality here costs far more
        // than the split: minutes for a strided kernel's union of 25
        // pieces with modulo constraints (test/E2E/seq/steps.c).
        // Every division explicit: the runtime evaluates them.
        isl::set explicitDivs =
            isl::manage(isl_set_compute_divs(set.coalesce().release()));
        isl_ctx_set_max_operations(ctx, maxDisjointOperations);
        isl_ctx_reset_operations(ctx);
        isl_set *disjoint = isl_set_make_disjoint(explicitDivs.copy());
        isl_ctx_set_max_operations(ctx, 0);
        // The split can grow without bound (2 s on steps.c's union of 25
        // strided pieces); past its quota the pieces may overlap, and the
        // table says so: the walk merges what they share.
        bool overlapping =
            !disjoint && isl_ctx_last_error(ctx) == isl_error_quota;
        if (overlapping)
          isl_ctx_reset_error(ctx);
        else if (!disjoint)
          throw std::runtime_error("cannot split the set");
        isl::set pieces = overlapping ? explicitDivs : isl::manage(disjoint);
        Owned<isl_basic_set_list> list =
            own(isl_set_get_basic_set_list(pieces.get()));
        if (!list)
          throw std::runtime_error("no pieces");
        int n = isl_basic_set_list_n_basic_set(list.get());
        table.append({dims, params, overlapping ? -n : n});
        for (int i = 0; i < n; ++i)
          encodePiece(isl_basic_set_list_get_basic_set(list.get(), i), params,
                      dims, table);
      });
  isl_ctx_free(ctx);
  if (failed(status))
    return failure();
  return table;
}
