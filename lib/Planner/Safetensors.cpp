//===- Safetensors.cpp - Read tensors from .safetensors files -------------===//
#include "weft/Planner/Safetensors.h"
#include "weft/Planner/JSONFile.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/JSON.h"

#include <cmath>
#include <cstring>

using namespace llvm;

namespace weft::plan {
namespace {

Error fileError(StringRef path, const Twine &msg) {
  return createStringError(inconvertibleErrorCode(), path + ": " + msg);
}

/// Bytes per element of the dtypes the format defines, 0 when unknown.
size_t dtypeBytes(StringRef dtype) {
  return StringSwitch<size_t>(dtype)
      .Cases("F64", "I64", "U64", 8)
      .Cases("F32", "I32", "U32", 4)
      .Cases("F16", "BF16", "I16", "U16", 2)
      .Cases("I8", "U8", "BOOL", "F8_E4M3", "F8_E5M2", 1)
      .Default(0);
}

/// What read() converts to float: F32, F16, BF16.
bool isFloatDtype(StringRef dtype) {
  return dtype == "F32" || dtype == "F16" || dtype == "BF16";
}

float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16, exp = (h >> 10) & 0x1f,
           mant = h & 0x3ff, bits;
  if (exp == 0) { // zero or subnormal: value = mant * 2^-24
    float f = std::ldexp(float(mant), -24);
    return sign ? -f : f;
  }
  if (exp == 31)
    bits = sign | 0x7f800000 | (mant << 13);
  else
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

float bf16ToFloat(uint16_t h) {
  uint32_t bits = uint32_t(h) << 16;
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

} // namespace

Expected<SafetensorsSet> SafetensorsSet::open(std::vector<std::string> paths) {
  SafetensorsSet set;
  set.paths = std::move(paths);
  for (auto [index, path] : enumerate(set.paths)) {
    auto buf = MemoryBuffer::getFile(path, false, false);
    if (!buf)
      return fileError(path, "cannot read: " + buf.getError().message());
    StringRef bytes = (*buf)->getBuffer();
    if (bytes.size() < 8)
      return fileError(path, "header: file too short (" +
                                 Twine(bytes.size()) + " bytes, need 8)");
    uint64_t len = support::endian::read64le(bytes.data());
    if (len > bytes.size() - 8)
      return fileError(path, "header: length " + Twine(len) +
                                 " exceeds the file (" + Twine(bytes.size()) +
                                 " bytes)");
    Expected<json::Value> header =
        parseJSONText(bytes.substr(8, len), path + ": header");
    if (!header)
      return header.takeError();
    const json::Object *o = header->getAsObject();
    if (!o)
      return fileError(path, "header: expected an object");
    const uint64_t dataSize = bytes.size() - 8 - len;
    // This file's tensors as (begin, end, name), to find overlaps.
    std::vector<std::tuple<uint64_t, uint64_t, std::string>> extents;
    for (const auto &[key, value] : *o) {
      if (key == "__metadata__")
        continue;
      std::string where = ("header: " + key.str());
      const json::Object *t = value.getAsObject();
      std::optional<StringRef> dtype = t ? t->getString("dtype") : std::nullopt;
      const json::Array *shape = t ? t->getArray("shape") : nullptr;
      const json::Array *offsets = t ? t->getArray("data_offsets") : nullptr;
      if (!dtype || !shape || !offsets || offsets->size() != 2)
        return fileError(path, where + ": expected dtype, shape, data_offsets");
      TensorInfo info;
      info.dtype = dtype->str();
      info.file = index;
      const uint64_t elem = dtypeBytes(info.dtype);
      if (!elem)
        return fileError(path, where + ": unknown dtype '" + info.dtype + "'");
      // Bytes the shape needs, overflow-checked: a product that wraps
      // around 2^64 must not pass for a small tensor.
      uint64_t need = elem;
      for (const json::Value &d : *shape) {
        std::optional<int64_t> n = integerOf(d);
        if (!n || *n < 0)
          return fileError(path,
                           where + ": shape: expected non-negative integers");
        info.shape.push_back(*n);
        if (__builtin_mul_overflow(need, uint64_t(*n), &need))
          return fileError(path, where + ": shape: " + Twine(info.dtype) +
                                     " elements overflow 64-bit sizes");
      }
      std::optional<int64_t> b = integerOf((*offsets)[0]),
                             e = integerOf((*offsets)[1]);
      if (!b || !e || *b < 0 || *e < *b)
        return fileError(path, where + ": data_offsets: expected [begin, end] "
                                       "with 0 <= begin <= end");
      if (uint64_t(*e) > dataSize)
        return fileError(path, where + ": data_offsets [" + Twine(*b) + ", " +
                                   Twine(*e) + "] outside the " +
                                   Twine(dataSize) +
                                   "-byte data section (truncated file?)");
      info.begin = uint64_t(*b);
      info.end = uint64_t(*e);
      if (info.end - info.begin != need)
        return fileError(path, where + ": data_offsets [" + Twine(*b) + ", " +
                                   Twine(*e) + "] hold " +
                                   Twine(info.end - info.begin) +
                                   " bytes, the shape needs " + Twine(need));
      extents.emplace_back(info.begin, info.end, key.str());
      if (!set.tensors.emplace(key.str(), std::move(info)).second)
        return fileError(path, where + ": tensor already defined in another "
                                       "file of the checkpoint");
    }
    // Tensors may not share bytes (empty ones hold none).
    llvm::sort(extents);
    const std::tuple<uint64_t, uint64_t, std::string> *reach = nullptr;
    for (const auto &x : extents) {
      if (std::get<0>(x) == std::get<1>(x))
        continue;
      if (reach && std::get<0>(x) < std::get<1>(*reach))
        return fileError(path, "header: " + std::get<2>(x) +
                                   ": data_offsets overlap those of " +
                                   std::get<2>(*reach));
      if (!reach || std::get<1>(x) > std::get<1>(*reach))
        reach = &x;
    }
    set.dataStart.push_back(8 + len);
    set.files.push_back(std::move(*buf));
  }
  return std::move(set);
}

const TensorInfo *SafetensorsSet::info(StringRef name) const {
  auto it = tensors.find(name.str());
  return it == tensors.end() ? nullptr : &it->second;
}

Expected<std::vector<float>> SafetensorsSet::read(StringRef name) const {
  const TensorInfo *t = info(name);
  if (!t)
    return createStringError(inconvertibleErrorCode(),
                             "weights: tensor '" + name + "' not found");
  size_t elem = dtypeBytes(t->dtype);
  if (!isFloatDtype(t->dtype))
    return fileError(paths[t->file], "tensor '" + name +
                                         "': unsupported dtype " + t->dtype +
                                         " (F32, F16, BF16)");
  const char *p =
      files[t->file]->getBufferStart() + dataStart[t->file] + t->begin;
  size_t n = (t->end - t->begin) / elem;
  std::vector<float> out(n);
  for (size_t i = 0; i < n; ++i) {
    if (elem == 4) {
      memcpy(&out[i], p + 4 * i, 4);
    } else {
      uint16_t h = support::endian::read16le(p + 2 * i);
      out[i] = t->dtype == "F16" ? halfToFloat(h) : bf16ToFloat(h);
    }
  }
  return out;
}

} // namespace weft::plan
