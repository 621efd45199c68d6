//===- DistToEmitC.h - dist ops to calls of the MPI runtime -----*- C++ -*-===//
//
// The patterns of convert-dist-to-emitc, for passes that lower the dist
// dialect together with other dialects.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_CONVERSION_DISTTOEMITC_H
#define WEFT_CONVERSION_DISTTOEMITC_H

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"

namespace weft {

/// `index` becomes the C `int64_t` (i64) and a memref a pointer to its
/// element type, as convert-loops-to-emitc spells them; values crossing
/// between converted and unconverted ops go through
/// `builtin.unrealized_conversion_cast`, which convert-loops-to-emitc
/// resolves.
class DistToEmitCTypeConverter : public mlir::TypeConverter {
public:
  DistToEmitCTypeConverter();
};

/// Per function, the tables of the element sets its messages carry and the
/// integers they pass, each defined once at the function's entry in the
/// order first used, so that the C declares each once (a table as a
/// `static const` array), not at every message. One per conversion.
class DistToEmitCConstants {
public:
  /// The table of `set`, named after `array` (its source name, if any).
  mlir::Value table(mlir::ConversionPatternRewriter &rewriter,
                    mlir::Operation *user, mlir::StringAttr set,
                    llvm::ArrayRef<int64_t> table, mlir::Value array);
  mlir::Value integer(mlir::ConversionPatternRewriter &rewriter,
                      mlir::Operation *user, int64_t v);

private:
  mlir::Value define(mlir::ConversionPatternRewriter &rewriter,
                     mlir::Operation *user, mlir::Attribute key,
                     llvm::function_ref<mlir::Value(mlir::OpBuilder &)> build);

  llvm::DenseMap<std::pair<mlir::Operation *, mlir::Attribute>, mlir::Value>
      values;
  llvm::DenseMap<mlir::Operation *, mlir::Operation *> lastDefined;
};

/// One pattern per op family of the dist dialect, each lowering its ops to
/// calls of runtime/mpi/weft_rt_mpi.h (the message ops' tables and integers
/// through `constants`).
void populateDistToEmitCPatterns(const mlir::TypeConverter &converter,
                                 mlir::RewritePatternSet &patterns,
                                 DistToEmitCConstants &constants);

} // namespace weft

#endif // WEFT_CONVERSION_DISTTOEMITC_H
