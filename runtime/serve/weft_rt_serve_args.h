//===- weft_rt_serve_args.h - The serving program's command line -*- C++ -*-===//
//
// Parsed apart from the MPI-driven server (weft_rt_serve.cpp) so that it can
// be tested and fuzzed on its own (fuzz/FuzzServeArgs.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_SERVE_ARGS_H
#define WEFT_RT_SERVE_ARGS_H

#include <cstdint>
#include <string>
#include <vector>

namespace weft::rt::serve {

/// What the command line sets; fields no flag names keep their values.
struct ServeArgs {
  std::vector<std::vector<int>> prompts; ///< token ids, one list per --prompt
  int maxNew = 16, batch = 0;
  int prefillMb = 1, decodeMb = 1; ///< the plan's until a flag overrides them
  float temperature = 0.0f;
  uint64_t seed = 0;
  std::string logitsOut, weightsDir;
  bool stats = false;
};

/// Parses argv[1..argc) (the flags of weft_rt_serve.h's init) into `args`.
/// Returns "" or what is wrong ("--batch: 0 is outside [1, 16777216]").
std::string parseServeArgs(int argc, const char *const *argv, ServeArgs &args);

} // namespace weft::rt::serve

#endif
