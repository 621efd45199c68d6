//===- JSONFile.cpp - Read a JSON (or YAML) input file --------------------===//
#include "weft/Planner/JSONFile.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

using namespace llvm;

namespace weft::plan {
namespace {

/// YAML node -> JSON value; std::nullopt after reporting an error.
std::optional<json::Value> toJSON(yaml::Node *node, yaml::Stream &stream) {
  if (!node)
    return std::nullopt;
  if (auto *map = dyn_cast<yaml::MappingNode>(node)) {
    json::Object o;
    for (yaml::KeyValueNode &kv : *map) {
      auto *key = dyn_cast_or_null<yaml::ScalarNode>(kv.getKey());
      if (!key) {
        stream.printError(kv.getKey(), "expected a scalar key");
        return std::nullopt;
      }
      SmallString<32> storage;
      std::optional<json::Value> v = toJSON(kv.getValue(), stream);
      if (!v)
        return std::nullopt;
      o[key->getValue(storage)] = std::move(*v);
    }
    return json::Value(std::move(o));
  }
  if (auto *seq = dyn_cast<yaml::SequenceNode>(node)) {
    json::Array a;
    for (yaml::Node &item : *seq) {
      std::optional<json::Value> v = toJSON(&item, stream);
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

Expected<json::Value> parseYAML(StringRef path, StringRef text) {
  SourceMgr sm;
  std::string diag;
  raw_string_ostream os(diag);
  sm.setDiagHandler(
      [](const SMDiagnostic &d, void *ctx) {
        d.print(nullptr, *static_cast<raw_ostream *>(ctx),
                /*ShowColors=*/false);
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

} // namespace

Expected<json::Value> readJSONFile(StringRef path) {
  auto buf = MemoryBuffer::getFile(path);
  if (!buf)
    return createStringError(
        buf.getError(), path + ": cannot read: " + buf.getError().message());
  StringRef ext = sys::path::extension(path);
  if (ext == ".yaml" || ext == ".yml")
    return parseYAML(path, (*buf)->getBuffer());
  Expected<json::Value> v = json::parse((*buf)->getBuffer());
  if (!v)
    return createStringError(inconvertibleErrorCode(),
                             path +
                                 ": invalid JSON: " + toString(v.takeError()));
  return v;
}

} // namespace weft::plan
