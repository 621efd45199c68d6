//===- ModelImport.cpp - Read model descriptions --------------------------===//
#include "weft/Planner/ModelImport.h"
#include "weft/Support/JSONFile.h"

#include "weft_rt_hf_config.h"
#include "weft_rt_llama2c.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using weft::cost::ModelDesc;

namespace weft::plan {
namespace {

/// `v` as the model-format library's JSON. Nesting is bounded by the
/// readers that made `v` (kMaxNestingDepth).
rt::JsonValue toFormatJSON(const json::Value &v) {
  rt::JsonValue out;
  switch (v.kind()) {
  case json::Value::Null:
    break;
  case json::Value::Boolean:
    out.kind = rt::JsonValue::Kind::Bool;
    out.boolean = *v.getAsBoolean();
    break;
  case json::Value::Number:
    out.kind = rt::JsonValue::Kind::Number;
    out.number = *v.getAsNumber();
    break;
  case json::Value::String:
    out.kind = rt::JsonValue::Kind::String;
    out.string = v.getAsString()->str();
    break;
  case json::Value::Array:
    out.kind = rt::JsonValue::Kind::Array;
    for (const json::Value &item : *v.getAsArray())
      out.items.push_back(toFormatJSON(item));
    break;
  case json::Value::Object:
    out.kind = rt::JsonValue::Kind::Object;
    for (const auto &[key, value] : *v.getAsObject())
      out.members.emplace_back(key.str(), toFormatJSON(value));
    break;
  }
  return out;
}

Error formatError(const Twine &msg) {
  return createStringError(inconvertibleErrorCode(), msg);
}

} // namespace

Expected<ModelDesc> modelFromHFConfig(const json::Value &v, StringRef file) {
  rt::HfConfig hf;
  std::string problem;
  if (!rt::parseHfConfig(toFormatJSON(v), hf, &problem))
    return formatError(file + ": " + problem);
  ModelDesc m;
  m.name = hf.name;
  m.arch = hf.arch;
  m.hidden = hf.hidden;
  m.intermediate = hf.intermediate;
  m.layers = hf.layers;
  m.heads = hf.heads;
  m.kvHeads = hf.kvHeads;
  m.vocab = hf.vocab;
  m.maxSeq = hf.maxPositions;
  m.tiedEmbeddings = hf.tiedEmbeddings;
  m.gatedFFN = hf.gatedFFN;
  m.attnBias = hf.attnBias;
  m.mlpBias = hf.mlpBias;
  m.layerNorm = hf.layerNorm;
  m.normEps = hf.normEps;
  m.ropeTheta = hf.ropeTheta;
  m.activation = hf.activation;
  m.dtype = hf.dtype;
  return m;
}

Expected<ModelDesc> modelFromLlama2c(StringRef path) {
  rt::LlamaConfig c;
  std::string error;
  if (!rt::readLlama2cHeader(path.str(), c, nullptr, &error))
    return formatError(error);
  ModelDesc m;
  m.name = sys::path::stem(path).str();
  m.arch = "llama2c";
  m.hidden = c.dim;
  m.intermediate = c.hiddenDim;
  m.layers = c.layers;
  m.heads = c.heads;
  m.kvHeads = c.kvHeads;
  m.vocab = c.vocabSize;
  m.tiedEmbeddings = c.tiedClassifier;
  m.maxSeq = c.seqLen;
  return m;
}

Expected<ImportedModel> importModel(StringRef path) {
  ImportedModel r;
  SmallString<256> file(path);
  if (sys::fs::is_directory(path)) {
    sys::path::append(file, "config.json");
    std::error_code ec;
    for (sys::fs::directory_iterator it(path, ec), end; it != end && !ec;
         it.increment(ec))
      if (sys::path::extension(it->path()) == ".safetensors")
        r.safetensors.push_back(it->path());
    llvm::sort(r.safetensors); // shards in order
  }
  r.source = file.str().str();
  if (!sys::fs::exists(file))
    return createStringError(inconvertibleErrorCode(), file + ": no such file");
  if (sys::path::extension(file) == ".bin") {
    auto m = modelFromLlama2c(file);
    if (!m)
      return m.takeError();
    r.desc = *m;
    r.llama2cWeights = r.source;
    return r;
  }
  Expected<json::Value> v = readJSONFile(file);
  if (!v)
    return v.takeError();
  auto m = modelFromHFConfig(*v, file);
  if (!m)
    return m.takeError();
  r.desc = *m;
  return r;
}

} // namespace weft::plan
