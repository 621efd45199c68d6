//===- Commands.h - Entry points of weft's LLM commands ---------*- C++ -*-===//
#ifndef WEFT_TOOLS_COMMANDS_H
#define WEFT_TOOLS_COMMANDS_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

namespace weft {
/// Prints `weft: error: <msg>` and returns the exit code of a failed command.
inline int commandError(const llvm::Twine &msg) {
  llvm::errs() << "weft: error: " << msg << "\n";
  return 1;
}

/// argv[0] is "weft cost"/"weft plan"/"weft build-model"; the rest are the
/// command's options.
int costMain(int argc, char **argv);
/// `weft cost profile` (CostProfileCommand.cpp).
int costProfileMain(int argc, char **argv);
int planMain(int argc, char **argv);
int buildModelMain(int argc, char **argv);
/// `weft import-model` (ImportModelCommand.cpp).
int importModelMain(int argc, char **argv);
} // namespace weft

#endif
