//===- Safetensors.h - Read tensors from .safetensors files -----*- C++ -*-===//
//
// Format: an 8-byte little-endian header length, a JSON header mapping
// tensor names to {dtype, shape, data_offsets}, then the raw data.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLANNER_SAFETENSORS_H
#define WEFT_PLANNER_SAFETENSORS_H

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace weft::plan {

struct TensorInfo {
  std::string dtype; // F32, F16 or BF16
  std::vector<int64_t> shape;
  size_t begin = 0, end = 0; // byte offsets into the data section
  size_t file = 0;           // index into SafetensorsSet::files
};

/// The tensors of one or more .safetensors files (sharded checkpoints).
class SafetensorsSet {
public:
  /// Opens every file; errors name the file and what is wrong.
  static llvm::Expected<SafetensorsSet> open(std::vector<std::string> paths);

  bool has(llvm::StringRef name) const { return tensors.count(name.str()); }
  const TensorInfo *info(llvm::StringRef name) const;
  /// The tensor converted to float.
  llvm::Expected<std::vector<float>> read(llvm::StringRef name) const;

private:
  std::vector<std::string> paths;
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> files;
  std::vector<size_t> dataStart;
  std::map<std::string, TensorInfo> tensors;
};

} // namespace weft::plan

#endif
