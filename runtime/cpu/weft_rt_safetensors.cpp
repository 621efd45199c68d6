//===- weft_rt_safetensors.cpp - HuggingFace safetensors reader -----------===//
#include "weft_rt_safetensors.h"

#include "weft_rt_half.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>

namespace weft::rt {

namespace {
/// Headers larger than this are rejected (the format's own limit is 100 MB).
constexpr int64_t kMaxHeaderBytes = 100 << 20;

struct FileCloser {
  void operator()(std::FILE *f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

/// Recursive-descent reader for the subset of JSON safetensors headers use.
/// On error it records the first problem and its byte offset.
class HeaderParser {
public:
  explicit HeaderParser(const std::string &text) : s(text) {}
  std::string error;

  bool parseTensors(std::vector<SafetensorsTensor> &out) {
    if (!expect('{'))
      return false;
    if (peek('}'))
      return expect('}');
    do {
      std::string name;
      if (!parseString(name) || !expect(':'))
        return false;
      if (name == "__metadata__") {
        if (!skipValue())
          return false;
        continue;
      }
      SafetensorsTensor t;
      t.name = name;
      if (!parseTensor(t))
        return false;
      out.push_back(std::move(t));
    } while (consume(','));
    return expect('}') && atEnd();
  }

private:
  const std::string &s;
  size_t i = 0;

  bool fail(const std::string &what) {
    if (error.empty())
      error = what + " at header byte " + std::to_string(i);
    return false;
  }
  void skipSpace() {
    while (i < s.size() &&
           (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t'))
      ++i;
  }
  bool peek(char c) {
    skipSpace();
    return i < s.size() && s[i] == c;
  }
  bool consume(char c) {
    if (!peek(c))
      return false;
    ++i;
    return true;
  }
  bool expect(char c) {
    return consume(c) || fail(std::string("expected '") + c + "'");
  }
  bool atEnd() {
    skipSpace();
    // Headers are padded with spaces (skipped above) or NULs.
    while (i < s.size() && s[i] == '\0')
      ++i;
    return i == s.size() || fail("unexpected text after the header object");
  }

  static char unescape(char c) {
    switch (c) {
    case 'n':
      return '\n';
    case 't':
      return '\t';
    case 'r':
      return '\r';
    case 'b':
      return '\b';
    case 'f':
      return '\f';
    default:
      return c; // \" \\ \/
    }
  }

  bool parseString(std::string &out) {
    if (!expect('"'))
      return false;
    out.clear();
    while (i < s.size() && s[i] != '"') {
      if (s[i] == '\\') {
        if (++i >= s.size())
          break;
        char c = s[i];
        if (c == 'u') { // keep \uXXXX verbatim: names are ASCII in practice
          out += "\\u";
          ++i;
          continue;
        }
        out += unescape(c);
        ++i;
        continue;
      }
      out += s[i++];
    }
    return expect('"');
  }

  bool parseInt(int64_t &out) {
    skipSpace();
    size_t start = i;
    out = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      if (out > (INT64_MAX - 9) / 10)
        return fail("integer too large");
      out = out * 10 + (s[i++] - '0');
    }
    return i > start || fail("expected a non-negative integer");
  }

  bool parseIntArray(std::vector<int64_t> &out) {
    if (!expect('['))
      return false;
    out.clear();
    if (consume(']'))
      return true;
    do {
      int64_t v;
      if (!parseInt(v))
        return false;
      out.push_back(v);
    } while (consume(','));
    return expect(']');
  }

  bool parseTensor(SafetensorsTensor &t) {
    if (!expect('{'))
      return false;
    bool haveDtype = false, haveShape = false, haveOffsets = false;
    do {
      std::string key;
      if (!parseString(key) || !expect(':'))
        return false;
      if (key == "dtype") {
        haveDtype = parseString(t.dtype);
        if (!haveDtype)
          return false;
      } else if (key == "shape") {
        haveShape = parseIntArray(t.shape);
        if (!haveShape)
          return false;
      } else if (key == "data_offsets") {
        std::vector<int64_t> offsets;
        if (!parseIntArray(offsets))
          return false;
        if (offsets.size() != 2)
          return fail("data_offsets of '" + t.name + "' must have 2 entries");
        t.begin = offsets[0];
        t.end = offsets[1];
        haveOffsets = true;
      } else if (!skipValue()) {
        return false;
      }
    } while (consume(','));
    if (!expect('}'))
      return false;
    if (!haveDtype || !haveShape || !haveOffsets)
      return fail("tensor '" + t.name + "' lacks dtype, shape or data_offsets");
    return true;
  }

  bool skipValue() {
    skipSpace();
    if (i >= s.size())
      return fail("unexpected end of header");
    char c = s[i];
    if (c == '"') {
      std::string ignored;
      return parseString(ignored);
    }
    if (c == '{' || c == '[') {
      char close = c == '{' ? '}' : ']';
      ++i;
      if (consume(close))
        return true;
      do {
        if (c == '{') {
          std::string key;
          if (!parseString(key) || !expect(':'))
            return false;
        }
        if (!skipValue())
          return false;
      } while (consume(','));
      return expect(close);
    }
    size_t start = i; // number, true, false, null
    while (i < s.size() && std::strchr("+-.0123456789eEtruefalsn", s[i]))
      ++i;
    return i > start || fail("unexpected character");
  }
};
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
  HeaderParser parser(header);
  if (!parser.parseTensors(entries))
    return fail("bad header: " + parser.error);
  dataStart = 8 + int64_t(length);
  int64_t dataBytes = size - dataStart;
  for (const SafetensorsTensor &t : entries) {
    int bytes = safetensorsDtypeBytes(t.dtype);
    if (bytes == 0)
      return fail("tensor '" + t.name + "' has unknown dtype '" + t.dtype +
                  "'");
    int64_t elements = 1;
    for (int64_t d : t.shape) {
      if (d != 0 && elements > INT64_MAX / 8 / d)
        return fail("tensor '" + t.name + "' shape is too large");
      elements *= d;
    }
    if (t.begin > t.end || t.end > dataBytes)
      return fail("tensor '" + t.name + "' data_offsets [" +
                  std::to_string(t.begin) + ", " + std::to_string(t.end) +
                  ") fall outside the " + std::to_string(dataBytes) +
                  "-byte data section (truncated file?)");
    if (t.end - t.begin != elements * bytes)
      return fail("tensor '" + t.name + "' has " +
                  std::to_string(t.end - t.begin) + " bytes, but " + t.dtype +
                  " of its shape needs " + std::to_string(elements * bytes));
  }
  return true;
}

const SafetensorsTensor *SafetensorsFile::find(const std::string &name) const {
  for (const SafetensorsTensor &t : entries)
    if (t.name == name)
      return &t;
  return nullptr;
}

bool SafetensorsFile::readFloats(const std::string &name,
                                 std::vector<float> &out,
                                 std::string *error) const {
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
  const int bytes = safetensorsDtypeBytes(t->dtype);
  const bool isF32 = t->dtype == "F32", isF16 = t->dtype == "F16";
  out.resize(size_t(n));
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

} // namespace weft::rt
