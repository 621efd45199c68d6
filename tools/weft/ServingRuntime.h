//===- ServingRuntime.h - The runtime generated programs link ---*- C++ -*-===//
//
// weft's serving runtime is built once, with weft (runtime/Makefile, into
// lib/weft-runtime next to weft's bin/). `weft build-model` and `weft cost
// profile` write Makefiles that compile only the program's own code and
// link it.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_TOOLS_SERVINGRUNTIME_H
#define WEFT_TOOLS_SERVINGRUNTIME_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace weft {

/// The built runtime for `target` (cpu or cuda): $WEFT_RUNTIME, else
/// ../lib/weft-runtime from weft's executable. Errors say what is missing
/// and how to build it.
llvm::Expected<std::string> findServingRuntime(llvm::StringRef target);

/// A Makefile that links `program` against the runtime in `runtimeDir`
/// (the default of its WEFT_RUNTIME variable): `source` (serve.cpp) is
/// compiled with $(compiler), default `compilerDefault` ("mpicxx", "g++"),
/// against the runtime's headers, then linked with the serving library and
/// the target's backend; without a source, the program is the runtime's
/// kernel benchmark linked with the target's backend alone. `comment` is
/// the header (lines without '#').
struct ProgramMakefile {
  std::string comment, program, compiler, compilerDefault, target;
  std::string runtimeDir, source;
};
std::string programMakefile(const ProgramMakefile &m);

/// Writes `text` to `path`; errors name the path.
llvm::Error writeTextFile(const llvm::Twine &path, llvm::StringRef text);

} // namespace weft

#endif
