//===- JSONFile.cpp - Read a JSON (or YAML) input file --------------------===//
#include "weft/Support/JSONFile.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

using namespace llvm;

namespace weft {
namespace {

/// The offset of the first bracket that opens level `limit + 1` of JSON
/// `text`, or std::nullopt when the text nests no deeper than `limit`.
/// Brackets inside strings do not count; the text need not be valid.
std::optional<size_t> tooDeepAt(StringRef text, unsigned limit) {
  unsigned depth = 0;
  bool inString = false;
  for (size_t i = 0, n = text.size(); i < n; ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i; // the escaped character, whatever it is
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit)
        return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

/// YAML node -> JSON value; std::nullopt after reporting an error. Keys and
/// strings are copied: the node's text lives in buffers that the stream
/// frees (and the file's buffer is freed when the read returns).
std::optional<json::Value> toJSON(yaml::Node *node, yaml::Stream &stream,
                                  unsigned depth = 0) {
  if (!node)
    return std::nullopt;
  if ((isa<yaml::MappingNode>(node) || isa<yaml::SequenceNode>(node)) &&
      depth >= kMaxNestingDepth) {
    stream.printError(node, "YAML nested deeper than " +
                                Twine(kMaxNestingDepth) + " levels");
    return std::nullopt;
  }
  if (auto *map = dyn_cast<yaml::MappingNode>(node)) {
    json::Object o;
    for (yaml::KeyValueNode &kv : *map) {
      auto *key = dyn_cast_or_null<yaml::ScalarNode>(kv.getKey());
      if (!key) {
        stream.printError(kv.getKey(), "expected a scalar key");
        return std::nullopt;
      }
      SmallString<32> storage;
      std::string name = key->getValue(storage).str();
      std::optional<json::Value> v = toJSON(kv.getValue(), stream, depth + 1);
      if (!v)
        return std::nullopt;
      o[std::move(name)] = std::move(*v);
    }
    return json::Value(std::move(o));
  }
  if (auto *seq = dyn_cast<yaml::SequenceNode>(node)) {
    json::Array a;
    for (yaml::Node &item : *seq) {
      std::optional<json::Value> v = toJSON(&item, stream, depth + 1);
      if (!v)
        return std::nullopt;
      a.push_back(std::move(*v));
    }
    return json::Value(std::move(a));
  }
  if (auto *scalar = dyn_cast<yaml::ScalarNode>(node)) {
    SmallString<32> storage;
    StringRef text = scalar->getValue(storage);
    if (scalar->getRawValue().starts_with("\"") ||
        scalar->getRawValue().starts_with("'"))
      return json::Value(text.str()); // quoted: always a string
    int64_t i;
    double d;
    if (!text.getAsInteger(10, i))
      return json::Value(i);
    if (!text.getAsDouble(d))
      return json::Value(d);
    if (text == "true" || text == "false")
      return json::Value(text == "true");
    if (text == "null" || text == "~")
      return json::Value(nullptr);
    return json::Value(text.str());
  }
  if (isa<yaml::NullNode>(node))
    return json::Value(nullptr);
  stream.printError(node, "unsupported YAML node (anchors and tags are not)");
  return std::nullopt;
}

} // namespace

Expected<json::Value> parseYAMLText(StringRef text, StringRef path) {
  SourceMgr sm;
  std::string diag;
  raw_string_ostream os(diag);
  sm.setDiagHandler(
      [](const SMDiagnostic &d, void *ctx) {
        auto &os = *static_cast<raw_ostream *>(ctx);
        if (d.getLineContents().size() <= 200)
          return d.print(nullptr, os, /*ShowColors=*/false);
        // A long line (a collection on one line) is not worth echoing.
        os << d.getFilename() << ":" << d.getLineNo() << ":"
           << d.getColumnNo() + 1 << ": error: " << d.getMessage() << "\n";
      },
      &os);
  yaml::Stream stream(MemoryBufferRef(text, path), sm);
  yaml::document_iterator doc = stream.begin();
  std::optional<json::Value> v;
  if (doc != stream.end())
    v = toJSON(doc->getRoot(), stream);
  if (!v || stream.failed())
    return createStringError(inconvertibleErrorCode(),
                             diag.empty() ? (path + ": invalid YAML").str()
                                          : StringRef(diag).trim().str());
  return std::move(*v);
}

Expected<json::Value> parseJSONText(StringRef text, const Twine &where) {
  if (std::optional<size_t> at = tooDeepAt(text, kMaxNestingDepth))
    return createStringError(inconvertibleErrorCode(),
                             where + ": JSON nested deeper than " +
                                 Twine(kMaxNestingDepth) + " levels (at byte " +
                                 Twine(*at) + ")");
  Expected<json::Value> v = json::parse(text);
  if (!v)
    return createStringError(inconvertibleErrorCode(),
                             where +
                                 ": invalid JSON: " + toString(v.takeError()));
  return v;
}

Expected<json::Value> readJSONFile(StringRef path) {
  auto buf = MemoryBuffer::getFile(path);
  if (!buf)
    return createStringError(
        buf.getError(), path + ": cannot read: " + buf.getError().message());
  StringRef ext = sys::path::extension(path);
  if (ext == ".yaml" || ext == ".yml")
    return parseYAMLText((*buf)->getBuffer(), path);
  return parseJSONText((*buf)->getBuffer(), path);
}

} // namespace weft
