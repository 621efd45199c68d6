//===- DistDialect.h - Dist dialect -----------------------------*- C++ -*-===//
//
// Part of the weft project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file declares the dist dialect, which describes how loop nests and
// arrays are distributed over a grid of MPI processes.
//
//===----------------------------------------------------------------------===//

#ifndef WEFT_DIALECTS_DIST_IR_DISTDIALECT_H
#define WEFT_DIALECTS_DIST_IR_DISTDIALECT_H

#include "mlir/IR/Dialect.h"

#include "dialects/Dist/IR/DistOpsDialect.h.inc"

#endif // WEFT_DIALECTS_DIST_IR_DISTDIALECT_H
