//===- FuzzServeArgs.cpp - The serving program's command line -------------===//
//
// The input is the argument list, NUL-separated (at most 64 arguments).
//
//===----------------------------------------------------------------------===//
#include "weft_rt_serve_args.h"

#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<std::string> args = {"serve"};
  std::string current;
  for (size_t i = 0; i < size && args.size() < 64; ++i) {
    if (data[i] == 0) {
      args.push_back(current);
      current.clear();
    } else {
      current += char(data[i]);
    }
  }
  if (!current.empty() && args.size() < 64)
    args.push_back(current);
  std::vector<const char *> argv;
  for (const std::string &a : args)
    argv.push_back(a.c_str());
  weft::rt::serve::ServeArgs parsed;
  std::string error =
      weft::rt::serve::parseServeArgs(int(argv.size()), argv.data(), parsed);
  if (error.empty() && parsed.prompts.empty())
    __builtin_trap(); // accepted without the required prompt
  return 0;
}
