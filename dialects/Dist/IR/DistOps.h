//===- DistOps.h - Dist dialect operations ----------------------*- C++ -*-===//
//
// Part of the weft project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file declares the enums, attributes and operations of the dist
// dialect.
//
//===----------------------------------------------------------------------===//

#ifndef WEFT_DIALECTS_DIST_IR_DISTOPS_H
#define WEFT_DIALECTS_DIST_IR_DISTOPS_H

#include "dialects/Dist/IR/DistDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/Dist/IR/DistEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Dist/IR/DistAttrs.h.inc"

#define GET_OP_CLASSES
#include "dialects/Dist/IR/DistOps.h.inc"

#endif // WEFT_DIALECTS_DIST_IR_DISTOPS_H
