//===- weft-translate.cpp - weft's translations, for lit tests --*- C++ -*-===//
//
// mlir-translate with weft's printers: `--emit-c` prints EmitC as C with
// weft::translateToC (weft/Target/C/TranslateToC.h).
//
//===----------------------------------------------------------------------===//
#include "weft/Target/C/TranslateToC.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"

int main(int argc, char **argv) {
  mlir::TranslateFromMLIRRegistration emitC(
      "emit-c", "print EmitC as C (weft's printer)",
      [](mlir::Operation *op, llvm::raw_ostream &os) {
        return weft::translateToC(op, os);
      },
      [](mlir::DialectRegistry &registry) {
        // EmitC, and what it is often mixed with (which the printer
        // rejects with a located error).
        registry
            .insert<mlir::emitc::EmitCDialect, mlir::arith::ArithDialect,
                    mlir::cf::ControlFlowDialect, mlir::func::FuncDialect>();
      });
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "weft translation driver\n"));
}
