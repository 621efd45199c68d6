//===- Safetensors.cpp - Read tensors from .safetensors files -------------===//
#include "weft/Planner/Safetensors.h"

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

size_t elementSize(StringRef dtype) {
  return dtype == "F32" ? 4 : (dtype == "F16" || dtype == "BF16") ? 2 : 0;
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
      return fileError(path, "header: file too short");
    uint64_t len = support::endian::read64le(bytes.data());
    if (len > bytes.size() - 8)
      return fileError(path,
                       "header: length " + Twine(len) + " exceeds the file");
    Expected<json::Value> header = json::parse(bytes.substr(8, len));
    if (!header)
      return fileError(path,
                       "header: invalid JSON: " + toString(header.takeError()));
    const json::Object *o = header->getAsObject();
    if (!o)
      return fileError(path, "header: expected an object");
    size_t dataSize = bytes.size() - 8 - len;
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
      int64_t count = 1;
      for (const json::Value &d : *shape) {
        std::optional<int64_t> n = d.getAsInteger();
        if (!n || *n < 0 || *n > (int64_t(1) << 40))
          return fileError(path, where + ": bad shape");
        info.shape.push_back(*n);
        count *= *n;
        if (count > (int64_t(1) << 40))
          return fileError(path, where + ": bad shape");
      }
      std::optional<int64_t> b = (*offsets)[0].getAsInteger(),
                             e = (*offsets)[1].getAsInteger();
      if (!b || !e || *b < 0 || *e < *b || size_t(*e) > dataSize)
        return fileError(path, where + ": data_offsets outside the file");
      info.begin = *b;
      info.end = *e;
      size_t elem = elementSize(info.dtype);
      if (elem && info.end - info.begin != size_t(count) * elem)
        return fileError(path, where + ": data_offsets do not match the shape");
      set.tensors[key.str()] = info;
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
  size_t elem = elementSize(t->dtype);
  if (!elem)
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
