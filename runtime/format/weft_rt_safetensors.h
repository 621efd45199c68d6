//===- weft_rt_safetensors.h - HuggingFace safetensors files ----*- C++ -*-===//
//
// File layout: an 8-byte little-endian header length H, H bytes of JSON
// mapping tensor names to {"dtype", "shape", "data_offsets": [begin, end]}
// (offsets relative to the end of the header; an optional "__metadata__"
// entry maps strings to strings), then the raw little-endian tensor bytes.
// The one reader of these files, for the planner and the runtime.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_SAFETENSORS_H
#define WEFT_RT_SAFETENSORS_H

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace weft::rt {

struct SafetensorsTensor {
  std::string name, dtype; ///< dtype as in the file: "F32", "F16", "BF16", ...
  std::vector<int64_t> shape;
  int64_t begin = 0, end = 0; ///< byte offsets into the data section
  int64_t elements() const;
};

class SafetensorsFile {
public:
  /// Reads and checks the header: a known dtype, offsets inside the file
  /// and not overlapping, sizes that match dtype x shape with no overflow,
  /// no name twice. Errors read "<path>: header: <tensor>: <what>".
  bool open(const std::string &path, std::string *error);
  const std::string &path() const { return filePath; }
  const std::vector<SafetensorsTensor> &tensors() const { return entries; }
  const SafetensorsTensor *find(const std::string &name) const;
  /// Reads a F32, F16 or BF16 tensor converted to fp32 into out[count];
  /// count must equal the tensor's elements. Reads in chunks: memory is
  /// `out` and a small buffer, whatever the tensor's size.
  bool readFloats(const std::string &name, float *out, int64_t count,
                  std::string *error) const;
  /// The same into a vector sized to the tensor.
  bool readFloats(const std::string &name, std::vector<float> &out,
                  std::string *error) const;

private:
  std::string filePath;
  int64_t dataStart = 0;
  std::vector<SafetensorsTensor> entries;
  std::unordered_map<std::string, size_t> byName; ///< index into entries
};

/// The *.safetensors shards of a model directory, as one set of tensors.
class SafetensorsDir {
public:
  /// Opens every shard of `dir` in name order; errors name the directory
  /// or the shard. A tensor may be in one shard only.
  bool open(const std::string &dir, std::string *error);
  /// The shard that holds tensor `name`, or null.
  const SafetensorsFile *holderOf(const std::string &name) const;
  /// Checks that tensor `name` exists, has shape [rows][cols] (cols == 0:
  /// a vector of `rows`) and a float dtype.
  bool check(const std::string &name, int64_t rows, int64_t cols,
             std::string *error) const;
  /// check(), then the tensor into out[rows][cols] as fp32.
  bool read(const std::string &name, float *out, int64_t rows, int64_t cols,
            std::string *error) const;

private:
  std::string dir;
  std::vector<SafetensorsFile> files;
  std::unordered_map<std::string, size_t> holder; ///< index into files
};

/// Bytes per element of a safetensors dtype, 0 when unknown.
int safetensorsDtypeBytes(const std::string &dtype);

} // namespace weft::rt

#endif
