//===- ServeArgsTest.cpp - The serving program's command line -------------===//
#include "weft_rt_serve_args.h"

#include <gtest/gtest.h>

#include <initializer_list>

using weft::rt::serve::parseServeArgs;
using weft::rt::serve::ServeArgs;

namespace {

std::string parse(std::initializer_list<const char *> flags, ServeArgs &a) {
  std::vector<const char *> argv = {"serve"};
  argv.insert(argv.end(), flags);
  return parseServeArgs(int(argv.size()), argv.data(), a);
}

TEST(ServeArgs, ParsesEveryFlagInBothSpellings) {
  ServeArgs a;
  a.prefillMb = 3; // the plan's, until a flag overrides it
  ASSERT_EQ(parse({"--prompt", " 1  5\t9 ", "--prompt=7", "--max-new-tokens",
                   "4", "--batch=6", "--decode-microbatch", "2",
                   "--temperature=0.5", "--seed", "42", "--logits-out=l.bin",
                   "--weights", "w", "--stats"},
                  a),
            "");
  ASSERT_EQ(a.prompts.size(), 2u);
  EXPECT_EQ(a.prompts[0], (std::vector<int>{1, 5, 9}));
  EXPECT_EQ(a.prompts[1], (std::vector<int>{7}));
  EXPECT_EQ(a.maxNew, 4);
  EXPECT_EQ(a.batch, 6);
  EXPECT_EQ(a.prefillMb, 3);
  EXPECT_EQ(a.decodeMb, 2);
  EXPECT_FLOAT_EQ(a.temperature, 0.5f);
  EXPECT_EQ(a.seed, 42u);
  EXPECT_EQ(a.logitsOut, "l.bin");
  EXPECT_EQ(a.weightsDir, "w");
  EXPECT_TRUE(a.stats);
}

TEST(ServeArgs, RejectsBadValuesWithTheFlagsName) {
  struct Case {
    std::initializer_list<const char *> flags;
    const char *error;
  };
  const Case cases[] = {
      {{}, "missing --prompt \"ID ID ...\""},
      {{"--prompt", "1 x"}, "--prompt: token id 'x' is not an integer"},
      {{"--prompt", "   "}, "--prompt: no token ids in '   '"},
      {{"--prompt", "-1"}, "--prompt: token id -1 is outside [0, 2147483647]"},
      {{"--prompt=1", "--batch=0"}, "--batch: 0 is outside [1, 16777216]"},
      {{"--prompt=1", "--max-new-tokens"}, "--max-new-tokens needs a value"},
      {{"--prompt=1", "--seed=99999999999999999999"},
       "--seed: '99999999999999999999' is not an integer"},
      {{"--prompt=1", "--temperature=1e300"},
       "--temperature: '1e300' is not a number in [0, 1e30]"},
      {{"--prompt=1", "--temperature=nan"},
       "--temperature: 'nan' is not a number in [0, 1e30]"},
      {{"--prompt=1", "--stats=1"}, "--stats takes no value"},
      {{"--prompt=1", "--logits-out="}, "--logits-out needs a file name"},
  };
  for (const Case &c : cases) {
    ServeArgs a;
    EXPECT_EQ(parse(c.flags, a), c.error);
  }
  ServeArgs a;
  EXPECT_EQ(parse({"--prompt=1", "-v"}, a).rfind("unknown argument '-v'", 0),
            0u);
}

} // namespace
