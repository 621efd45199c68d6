//===- OutputFile.h - Write a tool's output file safely ---------*- C++ -*-===//
//
// Every weft command writes its results through writeOutputFile, so that
// `-o` behaves as a compiler's does: `-` is standard output, a regular file
// is replaced whole (a temporary file and a rename: a failed run leaves no
// partial file), a device, FIFO or socket is written through, never
// replaced, a symbolic link is followed to its target, and a path that
// names one of the inputs is refused.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_SUPPORT_OUTPUTFILE_H
#define WEFT_SUPPORT_OUTPUTFILE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace weft {

/// Writes `text` to `path` as described above; `inputs` are the files the
/// command read. Errors name the path.
llvm::Error writeOutputFile(llvm::StringRef path, llvm::StringRef text,
                            llvm::ArrayRef<llvm::StringRef> inputs = {});

} // namespace weft

#endif // WEFT_SUPPORT_OUTPUTFILE_H
