//===- ProfileFile.h - Read and write runtime profile files -----*- C++ -*-===//
#ifndef WEFT_PLANNER_PROFILEFILE_H
#define WEFT_PLANNER_PROFILEFILE_H

#include "weft/CostModel/RuntimeProfile.h"

namespace weft::plan {

/// `--profile ARG`: the profile file at ARG (JSON or YAML), or, when no such
/// file exists, the built-in profile named ARG ("weft-cpu",
/// "weft-cuda-estimated"). Errors name the file and field.
llvm::Expected<cost::RuntimeProfile> loadRuntimeProfile(llvm::StringRef arg);

/// Writes `p` as JSON, atomically.
llvm::Error writeRuntimeProfile(llvm::StringRef path,
                                const cost::RuntimeProfile &p);

} // namespace weft::plan

#endif
