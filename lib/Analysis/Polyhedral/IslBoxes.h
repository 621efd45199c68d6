//===- IslBoxes.h - Boxes and expressions of ISL sets -----------*- C++ -*-===//
//
// Private to WeftPolyhedral (built with exceptions): what the communication
// sets and the device transfers both need to turn ISL sets of array
// elements into bounds the rewriting passes can build.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_ANALYSIS_POLYHEDRAL_ISLBOXES_H
#define WEFT_LIB_ANALYSIS_POLYHEDRAL_ISLBOXES_H

#include "ModelBuilder.h"

#include "weft/Analysis/Polyhedral/Communication.h"
#include "weft/CostModel/NominalSizes.h"

#include <isl/ast.h>
#include <isl/cpp.h>

#include <optional>
#include <tuple>

namespace weft::detail {

/// Converts (and frees) an ISL AST expression; throws on a null one.
AstExpr takeExpr(isl_ctx *ctx, isl_ast_expr *e);

/// Adds the parameters of `set` that `params` does not name yet.
void addParams(const ModelBuilder &model, const isl::set &set,
               std::vector<std::pair<std::string, CommParam>> &params);

/// The values subscript `d` of `elements` (a set of `rank` subscripts)
/// takes: that projection, its smallest and its largest value.
std::tuple<isl::set, isl::pw_aff, isl::pw_aff>
subscriptRange(isl_ctx *raw, const isl::set &elements, unsigned d,
               unsigned rank);

/// Counting at sizes fixed at compile time (the cost estimates).

/// `set` with parameter `name` fixed to `value` (unchanged without it).
isl::set fixParam(isl::set set, llvm::StringRef name, int64_t value);

/// `set` with every symbol of `model` fixed: one in `known` to its value
/// there, a compile-time constant to its value, any other to the value
/// `sizes` gives its source name.
isl::set fixSymbols(const ModelBuilder &model, isl::set set,
                    const cost::NominalSizes &sizes,
                    const llvm::DenseMap<Value, int64_t> *known = nullptr);

/// [min, max] of dimension `d` of a set without parameters (none: empty or
/// unbounded).
std::optional<std::pair<int64_t, int64_t>> dimExtent(isl::set set, int d);

/// Points of `set` (no parameters left), counting each convex piece by its
/// bounding box (exact for the rectangular sets of stencils and dense
/// kernels).
double countByBoxes(isl::set set);

/// The source name of a symbol (its scalar argument's, through index
/// casts), else its ISL name: what reports call a size.
std::string symbolName(Value symbol, llvm::StringRef islName);

/// Bytes of one element of the array whose ISL tuple is `tuple`.
double elementBytes(const ModelBuilder &model, llvm::StringRef tuple);
/// Bytes of one element of type `type` (an index: 8).
double elementBytes(mlir::Type type);

} // namespace weft::detail

#endif // WEFT_LIB_ANALYSIS_POLYHEDRAL_ISLBOXES_H
