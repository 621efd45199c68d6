//===- FuzzStageFile.cpp - Stage files behind a valid checksum ------------===//
//
// A stage file ends in the FNV-1a checksum of everything before it, which
// random bytes never match; the harness appends the right one, so the input
// reaches the parser as a damaged file with a patched checksum would.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "weft_rt_stage_file.h"

#include <cstring>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint64_t hash = weft::rt::stageFileChecksum(data, size);
  std::vector<uint8_t> file(data, data + size);
  file.resize(size + 8);
  std::memcpy(file.data() + size, &hash, 8); // little-endian hosts only
  std::string path =
      weft::fuzz::writeScratch("stage0.weft", file.data(), file.size());
  weft::rt::StageWeights weights;
  std::string error;
  if (weft::rt::readStageFile(path, weights, &error) &&
      weights.storageBytes() < 0)
    __builtin_trap();
  return 0;
}
