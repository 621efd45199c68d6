//===- JSONFile.h - Read a JSON input file ----------------------*- C++ -*-===//
#ifndef WEFT_PLANNER_JSONFILE_H
#define WEFT_PLANNER_JSONFILE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace weft::plan {

/// Parses the JSON file at `path`; errors start with the path
/// ("PATH: cannot read: …", "PATH: invalid JSON: …").
llvm::Expected<llvm::json::Value> readJSONFile(llvm::StringRef path);

} // namespace weft::plan

#endif
