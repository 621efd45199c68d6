//===- ServeDirectory.h - The output directory of build-model ---*- C++ -*-===//
#ifndef WEFT_TOOLS_SERVEDIRECTORY_H
#define WEFT_TOOLS_SERVEDIRECTORY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace weft {

/// Builds the directory in a temporary sibling and renames it into place
/// on commit(), so a failed build-model leaves nothing behind; an existing
/// directory is replaced only if an earlier build-model wrote it.
class ServeDirectory {
public:
  ServeDirectory(llvm::StringRef dir, llvm::StringRef target);
  ~ServeDirectory(); ///< removes the temporary directory unless committed

  llvm::Error create();
  /// serve.cpp and the Makefile that builds it against the serving runtime
  /// of the target (an error when that runtime is not built).
  llvm::Error writeProgram(llvm::StringRef program, llvm::StringRef model,
                           size_t stages);
  /// Where stage k's weight file goes (inside the temporary directory).
  std::string stageFilePath(int stage) const;
  llvm::Error commit();

private:
  std::string dir, target, temp;
  bool committed = false;
};

} // namespace weft

#endif
