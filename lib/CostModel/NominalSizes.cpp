//===- NominalSizes.cpp - Sizes the cost estimates assume ----------------===//
#include "weft/CostModel/NominalSizes.h"

#include "weft/Support/SourceNames.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace weft;
using namespace weft::cost;

std::optional<int64_t> NominalSizes::given(llvm::StringRef name) const {
  auto it = named.find(name);
  return it == named.end() ? std::nullopt : std::optional(it->second);
}

int64_t NominalSizes::of(llvm::StringRef name) const {
  return given(name).value_or(fallback);
}

llvm::Error NominalSizes::add(llvm::ArrayRef<std::string> entries) {
  for (llvm::StringRef entry : entries) {
    auto [name, text] = entry.split('=');
    int64_t value = 0;
    if (!entry.contains('=') || !isCIdentifier(name))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "'%s' is not NAME=VALUE with NAME a scalar of the C source",
          entry.str().c_str());
    if (text.getAsInteger(10, value) || value < 1)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "'%s': the value of %s must be an integer of at least 1",
          entry.str().c_str(), name.str().c_str());
    auto [it, added] = named.try_emplace(name.str(), value);
    if (!added && it->second != value)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(), "'%s': %s was given as %lld before",
          entry.str().c_str(), name.str().c_str(), (long long)it->second);
  }
  return llvm::Error::success();
}

std::string NominalSizes::describe(llvm::ArrayRef<std::string> names) const {
  llvm::SmallVector<std::string> unnamed, values;
  for (const std::string &name : names) {
    if (std::optional<int64_t> value = given(name))
      values.push_back(llvm::formatv("{0}={1}", name, *value));
    else
      unnamed.push_back(name);
  }
  llvm::SmallVector<std::string, 2> parts;
  if (!unnamed.empty())
    parts.push_back(llvm::formatv("{0}, unknown at compile time, taken as {1}",
                                  llvm::join(unnamed, ", "), fallback));
  if (!values.empty())
    parts.push_back(llvm::join(values, ", ") + " from --size");
  return llvm::join(parts, "; ");
}
