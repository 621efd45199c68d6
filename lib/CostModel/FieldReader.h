//===- FieldReader.h - Field-named errors of JSON inputs --------*- C++ -*-===//
//
// Private to WeftCostModel: reads the fields of the JSON files the cost
// model takes (runtime profiles, CPU descriptions), naming the file and the
// field in every error (`FILE: a.b.c: expected a positive number`).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_COSTMODEL_FIELDREADER_H
#define WEFT_LIB_COSTMODEL_FIELDREADER_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <cmath>
#include <optional>
#include <string>

namespace weft::cost::detail {

/// Reads fields of one object, naming them in errors as `FILE: a.b.c: ...`.
class FieldReader {
public:
  explicit FieldReader(llvm::StringRef file) : file(file.str()) {}

  llvm::Error error(const llvm::Twine &field, const llvm::Twine &msg) const {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   file + ": " + field + ": " + msg);
  }

  /// Every key of `o` must be in `known` (keys starting with '_' are
  /// comments).
  llvm::Error onlyKnownKeys(const llvm::json::Object &o,
                            const llvm::Twine &where,
                            llvm::ArrayRef<llvm::StringRef> known) const {
    for (const auto &kv : o) {
      llvm::StringRef key = kv.first;
      if (key.starts_with("_") || llvm::is_contained(known, key))
        continue;
      std::string field =
          where.isTriviallyEmpty() ? key.str() : (where + "." + key).str();
      return error(field, "unknown field (expected one of: " +
                              llvm::join(known, ", ") + ")");
    }
    return llvm::Error::success();
  }

  llvm::Expected<double> number(const llvm::json::Value &v,
                                const llvm::Twine &field, bool positive,
                                double max) const {
    std::optional<double> x = v.getAsNumber();
    if (!x || !std::isfinite(*x) || (positive ? *x <= 0 : *x < 0))
      return error(field, positive ? "expected a positive number"
                                   : "expected a non-negative number");
    if (*x > max)
      return error(field, "expected a number at most " +
                              llvm::formatv("{0:e0}", max).str());
    return *x;
  }

  llvm::Expected<const llvm::json::Object *>
  object(const llvm::json::Value &v, const llvm::Twine &field) const {
    if (const llvm::json::Object *o = v.getAsObject())
      return o;
    return error(field, "expected an object");
  }

  llvm::Expected<std::string> string(const llvm::json::Value &v,
                                     const llvm::Twine &field) const {
    if (std::optional<llvm::StringRef> s = v.getAsString())
      return s->str();
    return error(field, "expected a string");
  }

private:
  std::string file;
};

} // namespace weft::cost::detail

#endif // WEFT_LIB_COSTMODEL_FIELDREADER_H
