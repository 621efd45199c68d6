//===- JSONFile.cpp - Read a JSON input file ------------------------------===//
#include "weft/Planner/JSONFile.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace weft::plan {

Expected<json::Value> readJSONFile(StringRef path) {
  auto buf = MemoryBuffer::getFile(path);
  if (!buf)
    return createStringError(
        buf.getError(), path + ": cannot read: " + buf.getError().message());
  Expected<json::Value> v = json::parse((*buf)->getBuffer());
  if (!v)
    return createStringError(inconvertibleErrorCode(),
                             path +
                                 ": invalid JSON: " + toString(v.takeError()));
  return v;
}

} // namespace weft::plan
