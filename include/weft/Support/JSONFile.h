//===- JSONFile.h - Read a JSON (or YAML) input file ------------*- C++ -*-===//
#ifndef WEFT_SUPPORT_JSONFILE_H
#define WEFT_SUPPORT_JSONFILE_H

#include "weft/Support/JSONInteger.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace weft {

/// Deepest nesting of arrays and objects (JSON) or of collections (YAML)
/// that an input may have: parsers and json::Value recurse once per level,
/// so deeper input would overflow the stack instead of being an error.
constexpr unsigned kMaxNestingDepth = 256;

/// Parses the file at `path` into a JSON value. Files ending in .yaml or
/// .yml are read as YAML (mappings, sequences, scalars; numbers and
/// true/false/null are typed as in JSON). Errors start with the path
/// ("PATH: cannot read: …", "PATH: invalid JSON: …", "PATH:3:5: …",
/// "PATH: JSON nested deeper than 256 levels (at byte N)").
llvm::Expected<llvm::json::Value> readJSONFile(llvm::StringRef path);

/// Parses JSON text, first checking its nesting depth (a scan over the
/// brackets outside strings, no recursion). Errors start with `where`
/// ("FILE" or "FILE: header").
llvm::Expected<llvm::json::Value> parseJSONText(llvm::StringRef text,
                                                const llvm::Twine &where);

/// Parses YAML text as readJSONFile reads a .yaml file; errors start with
/// `path` ("FILE:LINE:COL: error: …").
llvm::Expected<llvm::json::Value> parseYAMLText(llvm::StringRef text,
                                                llvm::StringRef path);

} // namespace weft

#endif
