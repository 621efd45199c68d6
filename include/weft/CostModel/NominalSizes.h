//===- NominalSizes.h - Sizes the cost estimates assume ---------*- C++ -*-===//
//
// A region's loop bounds and array sizes are often scalars of the C source
// (`n`, PolyBench's `ni`) whose values weft cannot know at compile time.
// The cost estimates (the partitioner's, the device choice's) evaluate them
// at values the user may give by name (`weft compile --size=n=1300`), the
// others at one nominal value (`--nominal-size`, 4096 by default).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_COSTMODEL_NOMINALSIZES_H
#define WEFT_COSTMODEL_NOMINALSIZES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace weft::cost {

struct NominalSizes {
  /// The value of a size no entry names.
  int64_t fallback = 4096;
  /// Values by the C name of the scalar.
  std::map<std::string, int64_t, std::less<>> named;

  /// The value the estimates take for the size the C source names `name`.
  int64_t of(llvm::StringRef name) const;
  /// The value an entry gives `name`, if one does.
  std::optional<int64_t> given(llvm::StringRef name) const;

  /// Adds entries `NAME=VALUE`. An error that quotes the entry where NAME
  /// is not a C identifier, VALUE not an integer of at least 1, or NAME was
  /// given another value before.
  llvm::Error add(llvm::ArrayRef<std::string> entries);

  /// What the estimates took for the sizes `names` (C names, unknown at
  /// compile time): "n, m, unknown at compile time, taken as 4096" for
  /// those no entry names, "k=1200, l=900 from --size" for the others,
  /// joined by "; "; empty for no names.
  std::string describe(llvm::ArrayRef<std::string> names) const;
};

} // namespace weft::cost

#endif // WEFT_COSTMODEL_NOMINALSIZES_H
