//===- weft_rt_safetensors.cpp - HuggingFace safetensors reader -----------===//
#include "weft_rt_safetensors.h"

#include "weft_rt_half.h"
#include "weft_rt_json.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

namespace weft::rt {

namespace {
/// Headers larger than this are rejected (the format's own limit is 100 MB).
constexpr int64_t kMaxHeaderBytes = 100 << 20;

struct FileCloser {
  void operator()(std::FILE *f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

/// Reads one tensor entry of the header; returns what is wrong, or "".
std::string readEntry(const std::string &name, const JsonValue &entry,
                      SafetensorsTensor &t) {
  t.name = name;
  const JsonValue *dtype = entry.get("dtype"), *shape = entry.get("shape"),
                  *offsets = entry.get("data_offsets");
  if (!dtype || !shape || !offsets)
    return "tensor '" + name + "' lacks dtype, shape or data_offsets";
  if (dtype->kind != JsonValue::Kind::String)
    return "dtype of tensor '" + name + "' is not a string";
  t.dtype = dtype->string;
  if (shape->kind != JsonValue::Kind::Array)
    return "shape of tensor '" + name + "' is not an array";
  for (const JsonValue &d : shape->items) {
    if (!d.isCount())
      return "shape of tensor '" + name + "' has a non-integer entry";
    t.shape.push_back(int64_t(d.number));
  }
  if (offsets->kind != JsonValue::Kind::Array || offsets->items.size() != 2 ||
      !offsets->items[0].isCount() || !offsets->items[1].isCount())
    return "data_offsets of tensor '" + name + "' must be 2 integers";
  t.begin = int64_t(offsets->items[0].number);
  t.end = int64_t(offsets->items[1].number);
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
    n *= d;
  return n;
}

bool SafetensorsFile::open(const std::string &filePath, std::string *error) {
  path = filePath;
  entries.clear();
  byName.clear();
  auto fail = [&](const std::string &what) {
    if (error)
      *error = path + ": " + what;
    return false;
  };
  File file(std::fopen(path.c_str(), "rb"));
  if (!file)
    return fail("cannot open the file");
  std::fseek(file.get(), 0, SEEK_END);
  int64_t size = std::ftell(file.get());
  std::fseek(file.get(), 0, SEEK_SET);
  uint8_t lengthBytes[8];
  if (size < 8 || std::fread(lengthBytes, 8, 1, file.get()) != 1)
    return fail("too short for a safetensors header length");
  uint64_t length = 0;
  for (int b = 7; b >= 0; --b)
    length = (length << 8) | lengthBytes[b];
  if (length > uint64_t(kMaxHeaderBytes) || int64_t(length) > size - 8)
    return fail("header length " + std::to_string(length) +
                " does not fit in the file (" + std::to_string(size) +
                " bytes)");
  std::string header(size_t(length), '\0');
  if (length && std::fread(&header[0], 1, length, file.get()) != length)
    return fail("read error in the header");
  JsonValue json;
  std::string problem;
  if (!parseJson(header, json, &problem))
    return fail("bad header: " + problem);
  if (json.kind != JsonValue::Kind::Object)
    return fail("bad header: not a JSON object");
  for (const auto &[name, entry] : json.members) {
    if (name == "__metadata__")
      continue;
    SafetensorsTensor t;
    problem = entry.kind == JsonValue::Kind::Object
                  ? readEntry(name, entry, t)
                  : "entry '" + name + "' is not an object";
    if (!problem.empty())
      return fail("bad header: " + problem);
    entries.push_back(std::move(t));
  }
  dataStart = 8 + int64_t(length);
  int64_t dataBytes = size - dataStart;
  for (size_t i = 0; i < entries.size(); ++i) {
    const SafetensorsTensor &t = entries[i];
    if (!byName.emplace(t.name, i).second)
      return fail("tensor '" + t.name + "' appears twice in the header");
    int bytes = safetensorsDtypeBytes(t.dtype);
    if (bytes == 0)
      return fail("tensor '" + t.name + "' has unknown dtype '" + t.dtype +
                  "'");
    // dtype x shape in bytes, overflow-checked: a product that wraps must
    // not pass for a small tensor.
    int64_t need = bytes;
    for (int64_t d : t.shape)
      if (__builtin_mul_overflow(need, d, &need))
        return fail("tensor '" + t.name + "' shape is too large (" + t.dtype +
                    " elements overflow 64-bit sizes)");
    if (t.begin > t.end || t.end > dataBytes)
      return fail("tensor '" + t.name + "' data_offsets [" +
                  std::to_string(t.begin) + ", " + std::to_string(t.end) +
                  ") fall outside the " + std::to_string(dataBytes) +
                  "-byte data section (truncated file?)");
    if (t.end - t.begin != need)
      return fail("tensor '" + t.name + "' has " +
                  std::to_string(t.end - t.begin) + " bytes, but " + t.dtype +
                  " of its shape needs " + std::to_string(need));
  }
  // No two tensors share bytes (empty ones hold none).
  std::vector<const SafetensorsTensor *> order;
  for (const SafetensorsTensor &t : entries)
    if (t.end > t.begin)
      order.push_back(&t);
  std::sort(order.begin(), order.end(),
            [](const SafetensorsTensor *a, const SafetensorsTensor *b) {
              return a->begin < b->begin;
            });
  for (size_t i = 1; i < order.size(); ++i)
    if (order[i]->begin < order[i - 1]->end)
      return fail("tensor '" + order[i]->name + "' data_offsets [" +
                  std::to_string(order[i]->begin) + ", " +
                  std::to_string(order[i]->end) + ") overlap those of '" +
                  order[i - 1]->name + "'");
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
  auto fail = [&](const std::string &what) {
    if (error)
      *error = path + ": " + what;
    return false;
  };
  const SafetensorsTensor *t = find(name);
  if (!t)
    return fail("no tensor named '" + name + "'");
  if (t->dtype != "F32" && t->dtype != "F16" && t->dtype != "BF16")
    return fail("tensor '" + name + "' has dtype " + t->dtype +
                "; expected F32, F16 or BF16");
  File file(std::fopen(path.c_str(), "rb"));
  if (!file)
    return fail("cannot open the file");
  std::vector<uint8_t> raw(size_t(t->end - t->begin));
  if (std::fseek(file.get(), long(dataStart + t->begin), SEEK_SET) != 0 ||
      (!raw.empty() &&
       std::fread(raw.data(), 1, raw.size(), file.get()) != raw.size()))
    return fail("read error in tensor '" + name + "'");
  const int64_t n = t->elements();
  if (n != count)
    return fail("tensor '" + name + "' has " + std::to_string(n) +
                " elements, expected " + std::to_string(count));
  const int bytes = safetensorsDtypeBytes(t->dtype);
  const bool isF32 = t->dtype == "F32", isF16 = t->dtype == "F16";
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t *p = raw.data() + i * bytes;
    if (isF16) {
      out[i] = halfToFloat(uint16_t(p[0] | p[1] << 8));
      continue;
    }
    // BF16 is the upper half of an fp32.
    uint32_t bits = isF32 ? p[0] | p[1] << 8 | p[2] << 16 | uint32_t(p[3]) << 24
                          : uint32_t(p[0] | p[1] << 8) << 16;
    std::memcpy(&out[i], &bits, 4);
  }
  return true;
}

bool SafetensorsDir::open(const std::string &path, std::string *error) {
  namespace fs = std::filesystem;
  dir = path;
  files.clear();
  std::error_code ec;
  std::vector<std::string> shards;
  for (const fs::directory_entry &e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".safetensors")
      shards.push_back(e.path().string());
  auto fail = [&](const std::string &what) {
    if (error)
      *error = dir + ": " + what;
    return false;
  };
  if (ec)
    return fail("cannot list the directory");
  if (shards.empty())
    return fail("no *.safetensors files");
  std::sort(shards.begin(), shards.end());
  files.resize(shards.size());
  for (size_t i = 0; i < shards.size(); ++i)
    if (!files[i].open(shards[i], error))
      return false;
  return true;
}

const SafetensorsFile *
SafetensorsDir::holderOf(const std::string &name) const {
  for (const SafetensorsFile &f : files)
    if (f.find(name))
      return &f;
  return nullptr;
}

bool SafetensorsDir::check(const std::string &name, int64_t rows,
                           int64_t cols, std::string *error) const {
  const SafetensorsFile *holder = holderOf(name);
  auto fail = [&](const std::string &what) {
    if (error)
      *error = dir + ": " + what;
    return false;
  };
  if (!holder)
    return fail("no tensor named '" + name + "'");
  const SafetensorsTensor &t = *holder->find(name);
  std::vector<int64_t> shape = {rows};
  if (cols)
    shape.push_back(cols);
  if (t.shape != shape) {
    std::string got;
    for (int64_t d : t.shape)
      got += (got.empty() ? "" : "x") + std::to_string(d);
    return fail("tensor '" + name + "' has shape [" + got +
                "], config.json implies [" + std::to_string(rows) +
                (cols ? "x" + std::to_string(cols) : "") + "]");
  }
  if (t.dtype != "F32" && t.dtype != "F16" && t.dtype != "BF16")
    return fail("tensor '" + name + "' has dtype " + t.dtype +
                "; expected F32, F16 or BF16");
  return true;
}

bool SafetensorsDir::read(const std::string &name, float *out, int64_t rows,
                          int64_t cols, std::string *error) const {
  if (!check(name, rows, cols, error))
    return false;
  return holderOf(name)->readFloats(name, out, rows * (cols ? cols : 1),
                                    error);
}

} // namespace weft::rt
