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

#include <isl/ast.h>
#include <isl/cpp.h>

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

} // namespace weft::detail

#endif // WEFT_LIB_ANALYSIS_POLYHEDRAL_ISLBOXES_H
