//===- FuzzCompile.cpp - The C front end and the loop pipelines -----------===//
//
// `weft compile --target=seq` (weft-fuzz-c-seq), `--target=mpi --report`
// (weft-fuzz-c-mpi), `--target=cuda --report --gpu-choice=always`
// (weft-fuzz-c-cuda) or `--target=mpi-cuda --report --gpu-choice=always`
// (weft-fuzz-c-mpi-cuda) on the input as a C file: Clang, scop import, the
// partitioning and GPU passes, the EmitC conversion and the splice into the
// source. `always` sends every nest that may run on the device there, so
// that the kernel passes see all of them.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "weft/Driver/Compile.h"

#include <string_view>

#ifndef WEFT_FUZZ_TARGET
#error "define WEFT_FUZZ_TARGET to a weft::CompileTarget (Seq, Mpi, Cuda, MpiCuda)"
#endif

namespace {

bool isNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '.';
}

/// Whether every include-like word (#include, #import, #embed, also when
/// spelled through a digraph) names a plain header: <name.h> or "name.h".
/// Files are the harness's boundary, not the compiler's: a file naming
/// /dev/stdin or /dev/zero blocks or grows without end (in gcc too), a
/// macro can name any path, and other paths read this machine's files.
bool includesOnlyPlainHeaders(std::string_view text) {
  if (text.find("\\\n") != std::string_view::npos ||
      text.find("\\\r") != std::string_view::npos)
    return false; // a spliced line can spell a directive in pieces
  for (std::string_view word : {"include", "include_next", "import", "embed"}) {
    for (size_t at = text.find(word); at != std::string_view::npos;
         at = text.find(word, at + 1)) {
      size_t p = at + word.size();
      if (p < text.size() && (isNameChar(text[p]) || text[p] == '('))
        continue; // part of a longer name, or __has_include(...)
      while (p < text.size() && (text[p] == ' ' || text[p] == '\t'))
        ++p;
      if (p == text.size() || text[p] == '\n')
        continue;
      char close = text[p] == '<' ? '>' : text[p] == '"' ? '"' : 0;
      if (!close)
        return false;
      size_t q = p + 1;
      while (q < text.size() && isNameChar(text[q]))
        ++q;
      if (q == text.size() || text[q] != close)
        return false;
    }
  }
  return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  if (!includesOnlyPlainHeaders(text))
    return -1;
  weft::CompileOptions options;
  options.input = weft::fuzz::writeScratch("input.c", data, size);
  // Not beside the input, where "output.c" could be included.
  options.output = weft::fuzz::scratchSubdir("out") + "/output.c";
  options.target = weft::CompileTarget::WEFT_FUZZ_TARGET;
  options.report = options.target != weft::CompileTarget::Seq;
  options.gpuChoice = "always";
  weft::runCompile(options);
  return 0;
}
