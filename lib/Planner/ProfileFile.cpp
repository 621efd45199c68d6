//===- ProfileFile.cpp - Read and write runtime profile files -------------===//
#include "weft/Planner/ProfileFile.h"

#include "weft/Planner/PlanIO.h"
#include "weft/Support/JSONFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace weft::plan {

Expected<cost::RuntimeProfile> loadRuntimeProfile(StringRef arg) {
  if (!sys::fs::exists(arg))
    for (const cost::RuntimeProfile *p :
         {&cost::builtinCpuProfile(), &cost::builtinCudaProfile()})
      if (arg == p->name)
        return *p;
  Expected<json::Value> v = readJSONFile(arg);
  if (!v)
    return v.takeError();
  return cost::profileFromJSON(*v, arg);
}

Error writeRuntimeProfile(StringRef path, const cost::RuntimeProfile &p) {
  std::string text =
      formatv("{0:2}\n", json::Value(cost::profileToJSON(p))).str();
  return writeFileAtomically(path, text);
}

} // namespace weft::plan
