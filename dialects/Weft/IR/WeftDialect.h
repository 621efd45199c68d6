//===- WeftDialect.h - The weft dialect -------------------------*- C++ -*-===//
//
// Part of the weft project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The weft dialect owns the `weft.*` attributes that the C front end records
// on region functions (WeftDialect.td lists them).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_DIALECTS_WEFT_IR_WEFTDIALECT_H
#define WEFT_DIALECTS_WEFT_IR_WEFTDIALECT_H

#include "mlir/IR/Dialect.h"

#include "dialects/Weft/IR/WeftDialect.h.inc"

#endif // WEFT_DIALECTS_WEFT_IR_WEFTDIALECT_H
