//===- weft_rt_serve_args.cpp - The serving program's command line --------===//
#include "weft_rt_serve_args.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <iterator>

namespace weft::rt::serve {

namespace {

/// Parses a whole decimal integer in [lo, hi]; "" or what is wrong.
std::string parseInt(const std::string &text, long long lo, long long hi,
                     long long &out) {
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE)
    return "'" + text + "' is not an integer";
  if (v < lo || v > hi)
    return std::to_string(v) + " is outside [" + std::to_string(lo) + ", " +
           std::to_string(hi) + "]";
  out = v;
  return "";
}

/// The token ids of one --prompt value, separated by white space.
std::string parsePrompt(const std::string &value, std::vector<int> &ids) {
  size_t p = 0;
  while (p < value.size()) {
    while (p < value.size() && std::isspace((unsigned char)value[p]))
      ++p;
    size_t q = p;
    while (q < value.size() && !std::isspace((unsigned char)value[q]))
      ++q;
    if (q == p)
      break;
    long long n = 0;
    std::string why = parseInt(value.substr(p, q - p), 0, INT_MAX, n);
    if (!why.empty())
      return "--prompt: token id " + why;
    ids.push_back(int(n));
    p = q;
  }
  if (ids.empty())
    return "--prompt: no token ids in '" + value + "'";
  return "";
}

/// Sets the flag `arg` (one that takes a value) to `value`.
std::string setFlag(const std::string &arg, const std::string &value,
                    ServeArgs &a) {
  if (arg == "--prompt") {
    std::vector<int> ids;
    std::string why = parsePrompt(value, ids);
    if (why.empty())
      a.prompts.push_back(std::move(ids));
    return why;
  }
  if (arg == "--logits-out") {
    if (value.empty())
      return "--logits-out needs a file name";
    a.logitsOut = value;
    return "";
  }
  if (arg == "--weights") {
    if (value.empty())
      return "--weights needs a directory";
    a.weightsDir = value;
    return "";
  }
  if (arg == "--temperature") {
    char *end = nullptr;
    double t = std::strtod(value.c_str(), &end);
    // Above 1e30 sampling is uniform anyway, and a double beyond the
    // float range would not convert.
    if (value.empty() || *end != '\0' || !std::isfinite(t) || t < 0 ||
        t > 1e30)
      return "--temperature: '" + value + "' is not a number in [0, 1e30]";
    a.temperature = float(t);
    return "";
  }
  long long n = 0;
  if (arg == "--seed") {
    std::string why = parseInt(value, 0, LLONG_MAX, n);
    if (!why.empty())
      return "--seed: " + why;
    a.seed = uint64_t(n);
    return "";
  }
  std::string why = parseInt(value, 1, 1 << 24, n);
  if (!why.empty())
    return arg + ": " + why;
  if (arg == "--max-new-tokens")
    a.maxNew = int(n);
  else if (arg == "--batch")
    a.batch = int(n);
  else if (arg == "--prefill-microbatch")
    a.prefillMb = int(n);
  else
    a.decodeMb = int(n);
  return "";
}

} // namespace

std::string parseServeArgs(int argc, const char *const *argv, ServeArgs &a) {
  static const char *const withValue[] = {
      "--prompt",     "--max-new-tokens", "--batch",
      "--prefill-microbatch", "--decode-microbatch", "--temperature",
      "--seed",       "--logits-out",     "--weights"};
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    bool hasValue = false;
    size_t eq = arg.find('=');
    if (arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      hasValue = true;
    }
    if (arg == "--stats") {
      if (hasValue)
        return "--stats takes no value";
      a.stats = true;
      continue;
    }
    if (std::find_if(std::begin(withValue), std::end(withValue),
                     [&](const char *f) { return arg == f; }) ==
        std::end(withValue))
      return "unknown argument '" + arg +
             "' (flags: --prompt, --max-new-tokens, --batch, "
             "--prefill-microbatch, --decode-microbatch, --temperature, "
             "--seed, --logits-out, --weights, --stats)";
    if (!hasValue) {
      if (i + 1 >= argc)
        return arg + " needs a value";
      value = argv[++i];
    }
    std::string why = setFlag(arg, value, a);
    if (!why.empty())
      return why;
  }
  if (a.prompts.empty())
    return "missing --prompt \"ID ID ...\"";
  return "";
}

} // namespace weft::rt::serve
