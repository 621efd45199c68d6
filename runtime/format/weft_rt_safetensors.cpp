//===- weft_rt_safetensors.cpp - HuggingFace safetensors files ------------===//
#include "weft_rt_safetensors.h"

#include "weft_rt_file.h"
#include "weft_rt_half.h"
#include "weft_rt_json.h"

#include <algorithm>
#include <cstring>
#include <filesystem>

namespace weft::rt {

namespace {
/// Headers larger than this are rejected (the format's own limit).
constexpr uint64_t kMaxHeaderBytes = 100 << 20;
/// Raw bytes converted at a time when reading a tensor.
constexpr size_t kChunkBytes = 1 << 20;

std::string range(int64_t begin, int64_t end) {
  return "[" + std::to_string(begin) + ", " + std::to_string(end) + "]";
}

bool isFloatDtype(const std::string &dtype) {
  return dtype == "F32" || dtype == "F16" || dtype == "BF16";
}

/// Reads and checks one tensor entry of the header against a data section
/// of `dataBytes`; returns what is wrong (after "<name>: "), or "".
std::string readEntry(const JsonValue &entry, int64_t dataBytes,
                      SafetensorsTensor &t) {
  const JsonValue *dtype = entry.get("dtype"), *shape = entry.get("shape"),
                  *offsets = entry.get("data_offsets");
  if (!dtype || dtype->kind != JsonValue::Kind::String || !shape ||
      shape->kind != JsonValue::Kind::Array || !offsets ||
      offsets->kind != JsonValue::Kind::Array || offsets->items.size() != 2)
    return "expected dtype, shape, data_offsets";
  t.dtype = dtype->string;
  const int elem = safetensorsDtypeBytes(t.dtype);
  if (!elem)
    return "unknown dtype '" + t.dtype + "'";
  // Bytes the shape needs, overflow-checked: a product that wraps around
  // 2^64 must not pass for a small tensor.
  int64_t need = elem;
  for (const JsonValue &d : shape->items) {
    if (!d.isCount())
      return "shape: expected non-negative integers";
    t.shape.push_back(int64_t(d.number));
    if (__builtin_mul_overflow(need, t.shape.back(), &need))
      return "shape: " + t.dtype + " elements overflow 64-bit sizes";
  }
  const JsonValue &b = offsets->items[0], &e = offsets->items[1];
  if (!b.isCount() || !e.isCount() || e.number < b.number)
    return "data_offsets: expected [begin, end] with 0 <= begin <= end";
  t.begin = int64_t(b.number);
  t.end = int64_t(e.number);
  if (t.end > dataBytes)
    return "data_offsets " + range(t.begin, t.end) + " outside the " +
           std::to_string(dataBytes) + "-byte data section (truncated file?)";
  if (t.end - t.begin != need)
    return "data_offsets " + range(t.begin, t.end) + " hold " +
           std::to_string(t.end - t.begin) + " bytes, the shape needs " +
           std::to_string(need);
  return "";
}
} // namespace

int safetensorsDtypeBytes(const std::string &dtype) {
  if (dtype == "F64" || dtype == "I64" || dtype == "U64")
    return 8;
  if (dtype == "F32" || dtype == "I32" || dtype == "U32")
    return 4;
  if (dtype == "F16" || dtype == "BF16" || dtype == "I16" || dtype == "U16")
    return 2;
  if (dtype == "I8" || dtype == "U8" || dtype == "BOOL" || dtype == "F8_E4M3" ||
      dtype == "F8_E5M2")
    return 1;
  return 0;
}

int64_t SafetensorsTensor::elements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d; // open() checked that the byte size does not overflow
  return n;
}

bool SafetensorsFile::open(const std::string &path, std::string *error) {
  filePath = path;
  entries.clear();
  byName.clear();
  int64_t size = 0;
  File file = openForReading(path, &size, error);
  if (!file)
    return false;
  uint8_t lengthBytes[8];
  if (size < 8 || std::fread(lengthBytes, 8, 1, file.get()) != 1)
    return fileError(error, path,
                     "header: file too short (" + std::to_string(size) +
                         " bytes, need 8)");
  uint64_t length = 0;
  for (int b = 7; b >= 0; --b)
    length = (length << 8) | lengthBytes[b];
  if (length > uint64_t(size - 8))
    return fileError(error, path,
                     "header: length " + std::to_string(length) +
                         " exceeds the file (" + std::to_string(size) +
                         " bytes)");
  if (length > kMaxHeaderBytes)
    return fileError(error, path,
                     "header: length " + std::to_string(length) +
                         " exceeds the format's limit of " +
                         std::to_string(kMaxHeaderBytes) + " bytes");
  std::string header(size_t(length), '\0');
  if (length && std::fread(&header[0], 1, length, file.get()) != length)
    return fileError(error, path, "header: read error");
  JsonValue json;
  std::string problem;
  if (!parseJson(header, json, &problem))
    return fileError(error, path, "header: " + problem);
  if (json.kind != JsonValue::Kind::Object)
    return fileError(error, path, "header: expected a JSON object");
  dataStart = 8 + int64_t(length);
  const int64_t dataBytes = size - dataStart;
  for (const auto &[name, entry] : json.members) {
    if (name == "__metadata__")
      continue;
    SafetensorsTensor t;
    t.name = name;
    problem = entry.kind == JsonValue::Kind::Object
                  ? readEntry(entry, dataBytes, t)
                  : "expected dtype, shape, data_offsets";
    if (problem.empty() && !byName.emplace(name, entries.size()).second)
      problem = "defined twice";
    if (!problem.empty())
      return fileError(error, path, "header: " + name + ": " + problem);
    entries.push_back(std::move(t));
  }
  // Tensors may not share bytes (empty ones hold none).
  std::vector<const SafetensorsTensor *> order;
  for (const SafetensorsTensor &t : entries)
    if (t.end > t.begin)
      order.push_back(&t);
  std::sort(order.begin(), order.end(),
            [](const SafetensorsTensor *a, const SafetensorsTensor *b) {
              return a->begin < b->begin;
            });
  const SafetensorsTensor *reach = nullptr;
  for (const SafetensorsTensor *t : order) {
    if (reach && t->begin < reach->end)
      return fileError(error, path,
                       "header: " + t->name +
                           ": data_offsets overlap those of " + reach->name);
    if (!reach || t->end > reach->end)
      reach = t;
  }
  return true;
}

const SafetensorsTensor *SafetensorsFile::find(const std::string &name) const {
  auto it = byName.find(name);
  return it == byName.end() ? nullptr : &entries[it->second];
}

bool SafetensorsFile::readFloats(const std::string &name,
                                 std::vector<float> &out,
                                 std::string *error) const {
  const SafetensorsTensor *t = find(name);
  out.resize(t ? size_t(t->elements()) : 0);
  return readFloats(name, out.data(), int64_t(out.size()), error);
}

bool SafetensorsFile::readFloats(const std::string &name, float *out,
                                 int64_t count, std::string *error) const {
  const SafetensorsTensor *t = find(name);
  if (!t)
    return fileError(error, filePath, "no tensor named '" + name + "'");
  if (!isFloatDtype(t->dtype))
    return fileError(error, filePath,
                     "tensor '" + name + "' has dtype " + t->dtype +
                         "; expected F32, F16 or BF16");
  const int64_t n = t->elements();
  if (n != count)
    return fileError(error, filePath,
                     "tensor '" + name + "' has " + std::to_string(n) +
                         " elements, expected " + std::to_string(count));
  File file(std::fopen(filePath.c_str(), "rb"));
  if (!file || std::fseek(file.get(), long(dataStart + t->begin), SEEK_SET))
    return fileError(error, filePath, "cannot read tensor '" + name + "'");
  const int bytes = safetensorsDtypeBytes(t->dtype);
  const bool isF32 = t->dtype == "F32", isF16 = t->dtype == "F16";
  std::vector<uint8_t> raw(std::min<size_t>(kChunkBytes, size_t(n) * bytes));
  for (int64_t done = 0; done < n;) {
    const int64_t take =
        std::min<int64_t>(n - done, int64_t(raw.size()) / bytes);
    if (std::fread(raw.data(), size_t(bytes), size_t(take), file.get()) !=
        size_t(take))
      return fileError(error, filePath, "read error in tensor '" + name + "'");
    for (int64_t i = 0; i < take; ++i) {
      const uint8_t *p = raw.data() + i * bytes;
      const uint16_t low = uint16_t(p[0] | p[1] << 8);
      if (isF32) {
        uint32_t bits = low | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
        std::memcpy(&out[done + i], &bits, 4);
      } else {
        out[done + i] = isF16 ? halfToFloat(low) : bf16ToFloat(low);
      }
    }
    done += take;
  }
  return true;
}

bool SafetensorsDir::open(const std::string &path, std::string *error) {
  namespace fs = std::filesystem;
  dir = path;
  files.clear();
  holder.clear();
  std::error_code ec;
  std::vector<std::string> shards;
  for (const fs::directory_entry &e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".safetensors")
      shards.push_back(e.path().string());
  if (ec)
    return fileError(error, dir, "cannot list the directory");
  if (shards.empty())
    return fileError(error, dir, "no *.safetensors files");
  std::sort(shards.begin(), shards.end());
  files.resize(shards.size());
  for (size_t i = 0; i < shards.size(); ++i) {
    if (!files[i].open(shards[i], error))
      return false;
    for (const SafetensorsTensor &t : files[i].tensors())
      if (!holder.emplace(t.name, i).second)
        return fileError(error, shards[i],
                         "header: " + t.name +
                             ": tensor already defined in another file of the "
                             "checkpoint");
  }
  return true;
}

const SafetensorsFile *SafetensorsDir::holderOf(const std::string &name) const {
  auto it = holder.find(name);
  return it == holder.end() ? nullptr : &files[it->second];
}

bool SafetensorsDir::check(const std::string &name, int64_t rows, int64_t cols,
                           std::string *error) const {
  const SafetensorsFile *file = holderOf(name);
  if (!file)
    return fileError(error, dir, "no tensor named '" + name + "'");
  const SafetensorsTensor &t = *file->find(name);
  std::vector<int64_t> shape = {rows};
  if (cols)
    shape.push_back(cols);
  if (t.shape != shape) {
    std::string got;
    for (int64_t d : t.shape)
      got += (got.empty() ? "" : "x") + std::to_string(d);
    return fileError(error, dir,
                     "tensor '" + name + "' has shape [" + got +
                         "], config.json implies [" + std::to_string(rows) +
                         (cols ? "x" + std::to_string(cols) : "") + "]");
  }
  if (!isFloatDtype(t.dtype))
    return fileError(error, dir,
                     "tensor '" + name + "' has dtype " + t.dtype +
                         "; expected F32, F16 or BF16");
  return true;
}

bool SafetensorsDir::read(const std::string &name, float *out, int64_t rows,
                          int64_t cols, std::string *error) const {
  return check(name, rows, cols, error) &&
         holderOf(name)->readFloats(name, out, rows * (cols ? cols : 1), error);
}

} // namespace weft::rt
