//===- RuntimeSources.h - Runtime sources of generated programs -*- C++ -*-===//
//
// weft embeds the serving runtime's sources (runtime/cpu, serve, cuda,
// profile) when it is built; `weft build-model` and `weft cost profile`
// write the ones a program needs next to a Makefile that builds it with the
// user's compiler and flags.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_TOOLS_RUNTIMESOURCES_H
#define WEFT_TOOLS_RUNTIMESOURCES_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace weft {

/// The sources written for one program, relative to its directory.
struct ProgramSources {
  std::vector<std::string> cpp, cuda;
};

/// Writes every embedded runtime file whose path (relative to runtime/:
/// "cpu/…", "serve/…") `wanted` accepts to DIR/runtime/, creating the
/// directories, and adds the .cpp and .cu files to `out`.
llvm::Error writeRuntimeFiles(llvm::StringRef dir,
                              llvm::function_ref<bool(llvm::StringRef)> wanted,
                              ProgramSources &out);

/// A Makefile that builds `program` from `sources` with $(compiler) (its
/// default `compilerDefault`: "mpicxx", "g++") and, for target "cuda", the
/// .cu files with nvcc, linking cuBLAS and the CUDA runtime. `comment` is
/// the header (lines without '#').
struct ProgramMakefile {
  std::string comment, program, compiler, compilerDefault, target;
  ProgramSources sources;
};
std::string programMakefile(const ProgramMakefile &m);

/// Writes `text` to `path`; errors name the path.
llvm::Error writeTextFile(const llvm::Twine &path, llvm::StringRef text);

} // namespace weft

#endif
