//===- weft_rt_json.h - Minimal JSON reader for model files ----*- C++ -*-===//
//
// Enough JSON for safetensors headers and HuggingFace config.json files,
// without LLVM (generated programs must not depend on it). Numbers are
// doubles; \uXXXX escapes are decoded to UTF-8.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_JSON_H
#define WEFT_RT_JSON_H

#include <string>
#include <utility>
#include <vector>

namespace weft::rt {

struct JsonValue {
  enum class Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<JsonValue> items;                           ///< Array
  std::vector<std::pair<std::string, JsonValue>> members; ///< Object, in order

  /// Member `key` of an object, or null when absent / not an object.
  const JsonValue *get(const std::string &key) const;
  /// True for a number without a fractional part in [0, 2^53].
  bool isCount() const;
};

/// Parses one JSON document (trailing spaces and NULs allowed). On error
/// returns false with *error = "<what> at byte <offset>".
bool parseJson(const std::string &text, JsonValue &out, std::string *error);

/// Reads the JSON object in file `path`; errors read "<path>: <what>".
bool readJsonObject(const std::string &path, JsonValue &out,
                    std::string *error);

} // namespace weft::rt

#endif
