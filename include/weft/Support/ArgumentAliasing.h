//===- ArgumentAliasing.h - May a region's arguments overlap? ---*- C++ -*-===//
//
// One answer for the passes that rely on a region's array arguments being
// distinct memory: the C emitter (`restrict`) and the loop reorderings that
// the dependences of distinct arrays justify (dist-interchange-inner).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_SUPPORT_ARGUMENTALIASING_H
#define WEFT_SUPPORT_ARGUMENTALIASING_H

#include "dialects/Dist/IR/DistDialect.h"
#include "dialects/Weft/IR/WeftDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace weft {

/// Whether no two array arguments of `func` share memory that it writes:
/// none may alias another (distinct objects, `restrict` pointers and
/// `#pragma weft noalias` arrays), or dist-alias-check checked them at
/// entry (`dist.args_disjoint`: the forms it calls only then). Then each
/// pointer argument can be `restrict`, and the region's exact dependences,
/// computed for distinct arrays, are the function's.
inline bool argumentsDisjoint(mlir::func::FuncOp func) {
  if (func->hasAttr(dist::DistDialect::getArgsDisjointAttrName()))
    return true;
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (func.getArgAttr(i, WeftDialect::getMayAliasAttrName()) &&
        !func.getArgAttr(i, WeftDialect::getNoAliasAttrName()))
      return false;
  return true;
}

} // namespace weft

#endif // WEFT_SUPPORT_ARGUMENTALIASING_H
