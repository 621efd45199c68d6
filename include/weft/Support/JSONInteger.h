//===- JSONInteger.h - Integers from untrusted JSON values ------*- C++ -*-===//
#ifndef WEFT_SUPPORT_JSONINTEGER_H
#define WEFT_SUPPORT_JSONINTEGER_H

#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>

namespace weft {

/// `v` as an integer, as json::Value::getAsInteger gives it, except that
/// a double equal to 2^63 is not one: LLVM 19's range check lets it through
/// and converts it to int64_t, which is undefined (found by fuzz/cluster).
/// Every reader of untrusted files takes integers through these two.
inline std::optional<int64_t> integerOf(const llvm::json::Value &v) {
  // Values stored as integers convert exactly; only doubles (getAsUINT64
  // gives nothing for them) need the upper bound checked here.
  if (!v.getAsUINT64())
    if (std::optional<double> d = v.getAsNumber();
        d && !(*d < 9223372036854775808.0))
      return std::nullopt;
  return v.getAsInteger();
}

/// The integer field `key` of `o`, if it is one.
inline std::optional<int64_t> integerField(const llvm::json::Object &o,
                                           llvm::StringRef key) {
  const llvm::json::Value *v = o.get(key);
  return v ? integerOf(*v) : std::nullopt;
}

} // namespace weft

#endif // WEFT_SUPPORT_JSONINTEGER_H
