//===- FuzzProfile.cpp - Runtime profiles, JSON and YAML ------------------===//
//
// `--profile FILE`: a profile read, written back and read again (what
// `weft cost calibrate` writes must read back), then a fixed plan evaluated
// with it (its bounds must keep every prediction finite).
//
//===----------------------------------------------------------------------===//
#include "FuzzPlanSupport.h"

namespace {

void readProfile(llvm::Expected<llvm::json::Value> v) {
  if (!v)
    return llvm::consumeError(v.takeError());
  auto profile = weft::cost::profileFromJSON(*v, "profile");
  if (!profile)
    return llvm::consumeError(profile.takeError());
  weft::fuzz::checkProfile(*profile);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  weft::fuzz::readAsJSONAndYAML(data, size, "profile", readProfile);
  return 0;
}
