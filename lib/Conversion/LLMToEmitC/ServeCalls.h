//===- ServeCalls.h - Calls into weft::rt::serve as EmitC -------*- C++ -*-===//
//
// Generated serving programs are calls into the serving library
// (runtime/serve/weft_rt_serve.h): its Server and Batch handles, value
// operands first, then literal arguments.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_CONVERSION_LLMTOEMITC_SERVECALLS_H
#define WEFT_CONVERSION_LLMTOEMITC_SERVECALLS_H

#include "dialects/LLM/IR/LLMOps.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

namespace weft::llm {

/// `weft::rt::serve::Server *` and `weft::rt::serve::Batch *`.
mlir::Type serverPointerType(mlir::MLIRContext *ctx);
mlir::Type batchPointerType(mlir::MLIRContext *ctx);

/// Builds calls into weft::rt::serve (or, with `qualify` false, to a
/// generated function of the program).
class ServeCalls {
public:
  ServeCalls(mlir::OpBuilder &b, mlir::Location loc) : b(b), loc(loc) {}

  /// `<fn>(operands..., literals...)`; returns its result, if any.
  mlir::Value call(llvm::StringRef fn, mlir::TypeRange results,
                   mlir::ValueRange operands,
                   llvm::ArrayRef<mlir::Attribute> literals = {},
                   bool qualify = true);

  mlir::Attribute i32(int64_t v) { return b.getI32IntegerAttr(v); }
  mlir::Attribute i64(int64_t v) { return b.getI64IntegerAttr(v); }
  mlir::Attribute literal(llvm::StringRef text) {
    return mlir::emitc::OpaqueAttr::get(b.getContext(), text);
  }
  void comment(const llvm::Twine &text);

private:
  mlir::OpBuilder &b;
  mlir::Location loc;
};

/// Lowers the ops of a stage's schedule (llm.pipeline body: scf.for,
/// arith.constant, the schedule ops, calls of `model`'s stage functions)
/// inside an emitc.func whose first argument is the Server: micro-batch
/// values (!llm.microbatch, !llm.tokens, !llm.hidden, !llm.logits) become
/// the Batch handle they belong to, index values int64_t.
void populateScheduleToEmitCPatterns(mlir::TypeConverter &converter,
                                     mlir::RewritePatternSet &patterns,
                                     ModelOp model);
/// The type conversion of those patterns.
void addScheduleTypeConversions(mlir::TypeConverter &converter);

/// The C name of the forward function of stage `k`.
std::string stageForwardName(int64_t k);

} // namespace weft::llm

#endif
