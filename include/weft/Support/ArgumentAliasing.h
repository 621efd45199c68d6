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
/// none is reached through a pointer that may point into another (the
/// others are distinct objects, `restrict` pointers or `#pragma weft
/// noalias` arrays, or there is no other: lu's one pointer), or
/// dist-alias-check checked them at entry (`dist.args_disjoint`: the forms
/// it calls only then). Then each pointer argument can be `restrict`, and
/// the region's exact dependences, computed for distinct arrays, are the
/// function's.
inline bool argumentsDisjoint(mlir::func::FuncOp func) {
  if (func->hasAttr(dist::DistDialect::getArgsDisjointAttrName()))
    return true;
  // A pointer may point into any array or scalar of the region that is not
  // asserted distinct (CImporter's weft.may_alias).
  unsigned pointers = 0, others = 0;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    if (!mlir::isa<mlir::MemRefType>(func.getArgument(i).getType()) ||
        func.getArgAttr(i, WeftDialect::getNoAliasAttrName()))
      continue;
    ++(func.getArgAttr(i, WeftDialect::getMayAliasAttrName()) ? pointers
                                                              : others);
  }
  return pointers == 0 || pointers + others == 1;
}

} // namespace weft

#endif // WEFT_SUPPORT_ARGUMENTALIASING_H
