//===- ModelImport.h - Read model descriptions -----------------*- C++ -*-===//
//
// `--model` accepts a HuggingFace config.json (any file name), a directory
// holding config.json, or a llama2.c checkpoint (.bin). Errors name the file
// and the field.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLANNER_MODELIMPORT_H
#define WEFT_PLANNER_MODELIMPORT_H

#include "weft/CostModel/ModelDesc.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace weft::plan {

struct ImportedModel {
  cost::ModelDesc desc;
  std::string source;         // the file that was read
  std::string llama2cWeights; // set when the weights are in a llama2.c file
  /// *.safetensors next to config.json when --model names a directory.
  std::vector<std::string> safetensors;
};

llvm::Expected<ImportedModel> importModel(llvm::StringRef path);

/// Reads a HuggingFace config object; `file` only prefixes error messages.
llvm::Expected<cost::ModelDesc> modelFromHFConfig(const llvm::json::Value &v,
                                                  llvm::StringRef file);

/// Reads the 7-int32 header of a llama2.c checkpoint.
llvm::Expected<cost::ModelDesc> modelFromLlama2c(llvm::StringRef path);

} // namespace weft::plan

#endif
