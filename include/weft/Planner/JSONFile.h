//===- JSONFile.h - Read a JSON (or YAML) input file ------------*- C++ -*-===//
#ifndef WEFT_PLANNER_JSONFILE_H
#define WEFT_PLANNER_JSONFILE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace weft::plan {

/// Parses the file at `path` into a JSON value. Files ending in .yaml or
/// .yml are read as YAML (mappings, sequences, scalars; numbers and
/// true/false/null are typed as in JSON). Errors start with the path
/// ("PATH: cannot read: …", "PATH: invalid JSON: …", "PATH:3:5: …").
llvm::Expected<llvm::json::Value> readJSONFile(llvm::StringRef path);

} // namespace weft::plan

#endif
