//===- DistToEmitC.h - dist ops to calls of the MPI runtime -----*- C++ -*-===//
//
// The patterns of convert-dist-to-emitc, for passes that lower the dist
// dialect together with other dialects.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_CONVERSION_DISTTOEMITC_H
#define WEFT_CONVERSION_DISTTOEMITC_H

#include "mlir/Transforms/DialectConversion.h"

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

/// One pattern per op family of the dist dialect, each lowering its ops to
/// calls of runtime/mpi/weft_rt_mpi.h.
void populateDistToEmitCPatterns(const mlir::TypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);

} // namespace weft

#endif // WEFT_CONVERSION_DISTTOEMITC_H
