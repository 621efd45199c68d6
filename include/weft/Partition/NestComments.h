//===- NestComments.h - One C comment per distributed nest ------*- C++ -*-===//
//
// Part of WeftPartition (argumentSourceName also names arrays in the GPU
// passes' remarks). Users read the C that weft writes: the
// distributed form of a region opens with one comment line per distributed
// nest, what `--report` says of it in short (how it is split, which arrays
// travel after it and which reductions are combined), and a line for what
// it reads from rank 0 when other ranks' copies are outdated.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PARTITION_NESTCOMMENTS_H
#define WEFT_PARTITION_NESTCOMMENTS_H

#include "weft/Analysis/Polyhedral/Communication.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace weft {

/// The name the C program gives an argument: the last identifier of the
/// expression the call passes (`(double *)(a)` is a, `&x` is x).
std::string argumentSourceName(mlir::func::FuncOp func, mlir::Value memref);

/// The name the C program gives an array or scalar of `func`: an
/// argument's as argumentSourceName says, a local's as declared (the GPU
/// passes' names for reductions' elements and device copies).
std::string sourceArrayName(mlir::func::FuncOp func, mlir::Value memref);

/// One line per distributed unit of `func` (its source line, how it is
/// split, what it sends and combines after it) and, when the region reads
/// values from before it, one for those.
llvm::SmallVector<std::string>
describeDistributedNests(mlir::func::FuncOp func,
                         llvm::ArrayRef<DistUnit> units,
                         const RegionExchanges &exchanges);

/// Opens `func` with `lines` as `emitc.verbatim` C comments.
void insertNestComments(mlir::func::FuncOp func,
                        llvm::ArrayRef<std::string> lines);

} // namespace weft

#endif // WEFT_PARTITION_NESTCOMMENTS_H
