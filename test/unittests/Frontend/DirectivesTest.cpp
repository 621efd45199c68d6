//===- DirectivesTest.cpp - #pragma weft parser tests ---------------------===//
//
// Every directive, every diagnostic (message and token index), and the
// str() round trip. Inputs are written as text and split into tokens the way
// Clang's preprocessor would hand them to the parser.
//
//===----------------------------------------------------------------------===//
#include "weft/Frontend/C/Directives.h"
#include "llvm/ADT/StringExtras.h"
#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace weft;

namespace weft {
// Readable gtest failure output.
void PrintTo(const Directive &d, std::ostream *os) { *os << d.str(); }
void PrintTo(const DimDistribution &d, std::ostream *os) { *os << d.str(); }
} // namespace weft

using DK = DimDistribution::Kind;
using TK = DirectiveToken::Kind;

namespace {

/// Splits `text` like Clang's lexer would for a pragma line: identifiers
/// (keywords included), pp-numbers (a digit followed by letters, digits, '_'
/// and '.', so "1.5", "0x8" and "4u" stay one token) and one-character
/// punctuators (including '@').
std::vector<DirectiveToken> lex(llvm::StringRef text) {
  std::vector<DirectiveToken> tokens;
  size_t i = 0, n = text.size();
  auto isIdentChar = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  while (i < n) {
    char c = text[i];
    if (c == ' ' || c == '\t') {
      ++i;
      continue;
    }
    size_t start = i;
    TK kind;
    if (llvm::isAlpha(c) || c == '_') {
      kind = TK::Identifier;
      while (i < n && isIdentChar(text[i]))
        ++i;
    } else if (llvm::isDigit(c)) {
      kind = TK::Number;
      while (i < n && (isIdentChar(text[i]) || text[i] == '.'))
        ++i;
    } else {
      kind = TK::Punct;
      ++i;
    }
    tokens.push_back({kind, text.substr(start, i - start).str()});
  }
  return tokens;
}

/// Parses `text`, which must succeed.
Directive parseOk(llvm::StringRef text) {
  Directive d;
  DirectiveError e;
  bool ok = parseDirective(lex(text), d, e);
  EXPECT_TRUE(ok) << "'" << text.str() << "': token " << e.tokenIndex << ": "
                  << e.message;
  return d;
}

struct ErrorCase {
  const char *text;
  size_t tokenIndex;
  const char *message;
};

/// Checks that every case fails with exactly its message and token index.
void expectErrors(llvm::ArrayRef<ErrorCase> cases) {
  for (const ErrorCase &c : cases) {
    SCOPED_TRACE(std::string("input: '") + c.text + "'");
    Directive d;
    DirectiveError e;
    std::vector<DirectiveToken> tokens = lex(c.text);
    ASSERT_FALSE(parseDirective(tokens, d, e)) << "parsed as: " << d.str();
    EXPECT_EQ(e.message, c.message);
    EXPECT_EQ(e.tokenIndex, c.tokenIndex);
    EXPECT_LE(e.tokenIndex, tokens.size());
    // Clang style: lower-case start, no trailing period.
    ASSERT_FALSE(e.message.empty());
    EXPECT_FALSE(llvm::isUpper(e.message.front()));
    EXPECT_NE(e.message.back(), '.');
  }
}

DimDistribution dist(DK kind, int gridDim = -1, int64_t blockSize = 0) {
  DimDistribution d;
  d.kind = kind;
  d.gridDim = gridDim;
  d.blockSize = blockSize;
  return d;
}

const char *const known =
    "known directives are scop, endscop, grid, distribute, replicate, local, "
    "parallel, nodist, noalias, device and host";
const char *const kinds =
    "valid kinds are block, cyclic, block_cyclic(N), replicated and *";

std::string join(const char *a, const char *b) { return std::string(a) + b; }

} // namespace

//===----------------------------------------------------------------------===//
// The test tokenizer itself
//===----------------------------------------------------------------------===//

TEST(DirectivesLexer, SplitsLikeClang) {
  std::vector<DirectiveToken> t = lex("distribute A(block_cyclic(8)@1, *) 1.5");
  std::vector<std::string> texts;
  for (const DirectiveToken &tok : t)
    texts.push_back(tok.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"distribute", "A", "(",
                                             "block_cyclic", "(", "8", ")", "@",
                                             "1", ",", "*", ")", "1.5"}));
  EXPECT_EQ(t[0].kind, TK::Identifier);
  EXPECT_EQ(t[5].kind, TK::Number);
  EXPECT_EQ(t[7].kind, TK::Punct);
  EXPECT_EQ(t[12].kind, TK::Number);
}

//===----------------------------------------------------------------------===//
// Accepted directives
//===----------------------------------------------------------------------===//

TEST(Directives, Scop) {
  Directive d;
  DirectiveError e;
  ASSERT_TRUE(parseDirective({{TK::Identifier, "scop"}}, d, e));
  EXPECT_EQ(d.kind, DirectiveKind::Scop);
  EXPECT_EQ(parseOk("endscop").kind, DirectiveKind::EndScop);
}

TEST(Directives, ParallelAndNoDist) {
  EXPECT_EQ(parseOk("parallel").kind, DirectiveKind::Parallel);
  EXPECT_EQ(parseOk("nodist").kind, DirectiveKind::NoDist);
}

TEST(Directives, DeviceAndHost) {
  EXPECT_EQ(parseOk("device").kind, DirectiveKind::Device);
  EXPECT_EQ(parseOk("host").kind, DirectiveKind::Host);
}

TEST(Directives, NoAlias) {
  Directive all = parseOk("noalias");
  EXPECT_EQ(all.kind, DirectiveKind::NoAlias);
  EXPECT_TRUE(all.names.empty());
  Directive some = parseOk("noalias(a, b)");
  EXPECT_EQ(some.kind, DirectiveKind::NoAlias);
  EXPECT_EQ(some.names, (std::vector<std::string>{"a", "b"}));
  expectErrors({
      {"noalias()", 2, "expected at least one array name in 'noalias'"},
      {"noalias(a, a)", 4, "duplicate array 'a' in 'noalias'"},
      {"noalias a", 1, "expected '(' after 'noalias'"},
  });
}

TEST(Directives, Grid) {
  Directive d = parseOk("grid(4, 2)");
  EXPECT_EQ(d.kind, DirectiveKind::Grid);
  EXPECT_EQ(d.gridShape, (std::vector<int64_t>{4, 2}));
  EXPECT_FALSE(d.isAutoGrid());

  EXPECT_EQ(parseOk("grid(8)").gridShape, (std::vector<int64_t>{8}));
  EXPECT_EQ(parseOk("grid(*, 2)").gridShape, (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(parseOk("grid(2, 3, *)").gridShape,
            (std::vector<int64_t>{2, 3, 0}));
  EXPECT_EQ(parseOk("grid(*, *)").gridShape, (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(parseOk("grid(2147483647)").gridShape,
            (std::vector<int64_t>{2147483647}));

  Directive a = parseOk("grid(auto)");
  EXPECT_EQ(a.kind, DirectiveKind::Grid);
  EXPECT_TRUE(a.gridShape.empty());
  EXPECT_TRUE(a.isAutoGrid());
}

TEST(Directives, DistributeLoops) {
  Directive d = parseOk("distribute(i: block, j: cyclic)");
  EXPECT_EQ(d.kind, DirectiveKind::Distribute);
  EXPECT_EQ(d.target, Directive::Target::Loops);
  EXPECT_EQ(d.names, (std::vector<std::string>{"i", "j"}));
  EXPECT_EQ(d.dims,
            (std::vector<DimDistribution>{dist(DK::Block), dist(DK::Cyclic)}));

  d = parseOk("distribute(t: *, i: replicated, j: block_cyclic(16)@2, "
              "k: block@0)");
  EXPECT_EQ(d.names, (std::vector<std::string>{"t", "i", "j", "k"}));
  EXPECT_EQ(d.dims, (std::vector<DimDistribution>{
                        dist(DK::Replicated), dist(DK::Replicated),
                        dist(DK::BlockCyclic, 2, 16), dist(DK::Block, 0)}));

  // Replicated loops do not count against the three grid dimensions.
  d = parseOk("distribute(a: block, b: *, c: cyclic, d: *, e: block)");
  EXPECT_EQ(d.dims.size(), 5u);
}

TEST(Directives, DistributeArray) {
  Directive d = parseOk("distribute A(block, *)");
  EXPECT_EQ(d.kind, DirectiveKind::Distribute);
  EXPECT_EQ(d.target, Directive::Target::Array);
  EXPECT_EQ(d.names, (std::vector<std::string>{"A"}));
  EXPECT_EQ(d.dims, (std::vector<DimDistribution>{dist(DK::Block),
                                                  dist(DK::Replicated)}));

  d = parseOk("distribute A(block_cyclic(8), cyclic)");
  EXPECT_EQ(d.dims, (std::vector<DimDistribution>{dist(DK::BlockCyclic, -1, 8),
                                                  dist(DK::Cyclic)}));

  d = parseOk("distribute my_array2(block@1, block@0, *, *)");
  EXPECT_EQ(d.names, (std::vector<std::string>{"my_array2"}));
  EXPECT_EQ(d.dims, (std::vector<DimDistribution>{
                        dist(DK::Block, 1), dist(DK::Block, 0),
                        dist(DK::Replicated), dist(DK::Replicated)}));

  // Mixing explicit and implicit grid dimensions is allowed.
  d = parseOk("distribute B(cyclic, block@0, block)");
  EXPECT_EQ(d.dims[0].gridDim, -1);
  EXPECT_EQ(d.dims[1].gridDim, 0);
}

TEST(Directives, ReplicateAndLocal) {
  Directive d = parseOk("replicate(A, B)");
  EXPECT_EQ(d.kind, DirectiveKind::Replicate);
  EXPECT_EQ(d.names, (std::vector<std::string>{"A", "B"}));

  d = parseOk("local(T)");
  EXPECT_EQ(d.kind, DirectiveKind::Local);
  EXPECT_EQ(d.names, (std::vector<std::string>{"T"}));

  // The same name may appear in different directives' lists.
  EXPECT_EQ(parseOk("local(tmp, A, _x1)").names.size(), 3u);
}

TEST(Directives, ResultUntouchedOnError) {
  Directive d = parseOk("replicate(A)");
  Directive before = d;
  DirectiveError e;
  EXPECT_FALSE(parseDirective(lex("grid(0)"), d, e));
  EXPECT_EQ(d, before);
}

TEST(Directives, ReusedResultIsReset) {
  Directive d = parseOk("replicate(A, B)");
  DirectiveError e;
  ASSERT_TRUE(parseDirective(lex("grid(2)"), d, e));
  EXPECT_TRUE(d.names.empty());
  EXPECT_EQ(d.gridShape, (std::vector<int64_t>{2}));
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

TEST(DirectiveErrors, DirectiveName) {
  std::string empty = join("expected weft directive; ", known);
  std::string paren = join("expected weft directive name, got '('; ", known);
  std::string gird =
      join("unknown weft directive 'gird' (did you mean 'grid'?); ", known);
  std::string gridCap =
      join("unknown weft directive 'Grid' (did you mean 'grid'?); ", known);
  std::string endscope = join(
      "unknown weft directive 'endscope' (did you mean 'endscop'?); ", known);
  std::string dist = join(
      "unknown weft directive 'dist' (did you mean 'distribute'?); ", known);
  std::string foo = join("unknown weft directive 'foo'; ", known);
  std::string number = join("expected weft directive name, got '4'; ", known);
  expectErrors({
      {"", 0, empty.c_str()},
      {"(", 0, paren.c_str()},
      {"4", 0, number.c_str()},
      {"gird(4)", 0, gird.c_str()},
      {"Grid(4)", 0, gridCap.c_str()},
      {"endscope", 0, endscope.c_str()},
      {"dist(i: block)", 0, dist.c_str()},
      {"foo", 0, foo.c_str()},
  });
}

TEST(DirectiveErrors, ExtraTokens) {
  expectErrors({
      {"scop x", 1, "extra tokens at end of '#pragma weft scop'"},
      {"endscop ;", 1, "extra tokens at end of '#pragma weft endscop'"},
      {"parallel(i)", 1, "extra tokens at end of '#pragma weft parallel'"},
      {"nodist 1", 1, "extra tokens at end of '#pragma weft nodist'"},
      {"device(gpu)", 1, "extra tokens at end of '#pragma weft device'"},
      {"host 0", 1, "extra tokens at end of '#pragma weft host'"},
      {"grid(4) x", 4, "extra tokens at end of '#pragma weft grid'"},
      {"grid(auto))", 4, "extra tokens at end of '#pragma weft grid'"},
      {"distribute A(block) B(cyclic)", 5,
       "extra tokens at end of '#pragma weft distribute'"},
      {"distribute(i: block);", 6,
       "extra tokens at end of '#pragma weft distribute'"},
      {"replicate(A) B", 4, "extra tokens at end of '#pragma weft replicate'"},
      {"local(T) x", 4, "extra tokens at end of '#pragma weft local'"},
  });
}

TEST(DirectiveErrors, Grid) {
  const char *expectedExtent =
      "expected grid extent (a positive integer, '*' or 'auto')";
  const char *onlyAuto = "'auto' must be the only grid argument; use '*' for "
                         "a single extent chosen by weft";
  expectErrors({
      {"grid", 1, "expected '(' after 'grid'"},
      {"grid 4, 2", 1, "expected '(' after 'grid'"},
      {"grid[4]", 1, "expected '(' after 'grid'"},
      {"grid()", 2, "expected at least one grid extent or 'auto'"},
      {"grid(", 2, expectedExtent},
      {"grid(+)", 2, expectedExtent},
      {"grid(4, 2", 5, "expected ')' after grid extents"},
      {"grid(auto", 3, "expected ')' after grid extents"},
      {"grid(4 2)", 3, "expected ',' or ')' after grid extent"},
      {"grid(4; 2)", 3, "expected ',' or ')' after grid extent"},
      {"grid(4,)", 4, "expected grid extent after ','"},
      {"grid(4,", 4, "expected grid extent after ','"},
      {"grid(4, , 2)", 4, expectedExtent},
      {"grid(0)", 2, "grid extent must be positive, got '0'"},
      {"grid(4, 0)", 4, "grid extent must be positive, got '0'"},
      {"grid(-2, 2)", 2, "grid extent must be positive, got '-2'"},
      {"grid(1.5)", 2, "grid extent must be a decimal integer, got '1.5'"},
      {"grid(0x4)", 2, "grid extent must be a decimal integer, got '0x4'"},
      {"grid(04)", 2, "grid extent must be a decimal integer, got '04'"},
      {"grid(4u)", 2, "grid extent must be a decimal integer, got '4u'"},
      {"grid(1e3)", 2, "grid extent must be a decimal integer, got '1e3'"},
      {"grid(NP, 2)", 2,
       "grid extent 'NP' is not an integer (macros are not expanded in "
       "'#pragma weft')"},
      {"grid(2147483648)", 2,
       "grid extent '2147483648' is too large (at most 2147483647)"},
      {"grid(99999999999999999999999)", 2,
       "grid extent '99999999999999999999999' is too large (at most "
       "2147483647)"},
      {"grid(2, 2, 2, 2)", 8, "too many grid dimensions (at most 3)"},
      {"grid(*, *, *, *)", 8, "too many grid dimensions (at most 3)"},
      {"grid(auto, 2)", 2, onlyAuto},
      {"grid(2, auto)", 4, onlyAuto},
  });
}

TEST(DirectiveErrors, DistributeLoops) {
  std::string blok =
      join("unknown distribution kind 'blok' (did you mean 'block'?); ", kinds);
  std::string cap = join(
      "unknown distribution kind 'Cyclic' (did you mean 'cyclic'?); ", kinds);
  std::string diag = join("unknown distribution kind 'diagonal'; ", kinds);
  std::string dash = join("unknown distribution kind 'block-cyclic' (did you "
                          "mean 'block_cyclic'?); ",
                          kinds);
  std::string glued = join("unknown distribution kind 'blockcyclic' (did you "
                           "mean 'block_cyclic'?); ",
                           kinds);
  const char *expectedKind = "expected distribution kind (block, cyclic, "
                             "block_cyclic(N), replicated or *)";
  expectErrors({
      {"distribute", 1, "expected '(' or array name after 'distribute'"},
      {"distribute 4", 1, "expected '(' or array name after 'distribute'"},
      {"distribute()", 2,
       "expected at least one loop distribution in 'distribute'"},
      {"distribute(1: block)", 2, "expected loop iterator name"},
      {"distribute(i block)", 3, "expected ':' after loop iterator 'i'"},
      {"distribute(i)", 3, "expected ':' after loop iterator 'i'"},
      {"distribute(i: block, i: cyclic)", 6,
       "duplicate loop iterator 'i' in 'distribute'"},
      {"distribute(i: blok)", 4, blok.c_str()},
      {"distribute(i: Cyclic)", 4, cap.c_str()},
      {"distribute(i: diagonal)", 4, diag.c_str()},
      {"distribute(i: block-cyclic)", 4, dash.c_str()},
      {"distribute(i: blockcyclic(4))", 4, glued.c_str()},
      {"distribute(i: )", 4, expectedKind},
      {"distribute(i:", 4, expectedKind},
      {"distribute(i: 4)", 4, expectedKind},
      {"distribute(i: block j: cyclic)", 5,
       "expected ',' or ')' after loop distribution"},
      {"distribute(i: block", 5, "expected ')' after loop distributions"},
      {"distribute(i: block,)", 6, "expected loop distribution after ','"},
      {"distribute(i: block_cyclic)", 5, "expected '(' after 'block_cyclic'"},
      {"distribute(i: block_cyclic 8)", 5, "expected '(' after 'block_cyclic'"},
      {"distribute(i: block_cyclic())", 6,
       "expected block size (a positive integer)"},
      {"distribute(i: block_cyclic(*))", 6,
       "expected block size (a positive integer)"},
      {"distribute(i: block_cyclic(0))", 6,
       "block size must be positive, got '0'"},
      {"distribute(i: block_cyclic(-8))", 6,
       "block size must be positive, got '-8'"},
      {"distribute(i: block_cyclic(4.0))", 6,
       "block size must be a decimal integer, got '4.0'"},
      {"distribute(i: block_cyclic(BS))", 6,
       "block size 'BS' is not an integer (macros are not expanded in "
       "'#pragma weft')"},
      {"distribute(i: block_cyclic(4294967296))", 6,
       "block size '4294967296' is too large (at most 2147483647)"},
      {"distribute(i: block_cyclic(8", 7, "expected ')' after block size"},
      {"distribute(i: block_cyclic(8)", 8,
       "expected ')' after loop distributions"},
      {"distribute(i: block_cyclic(8 2))", 7, "expected ')' after block size"},
      {"distribute(i: block(8))", 5,
       "'block' takes no block size; use 'block_cyclic(N)'"},
      {"distribute(i: cyclic(4))", 5,
       "'cyclic' takes no block size; use 'block_cyclic(N)'"},
      {"distribute(i: replicated(2))", 5, "'replicated' takes no argument"},
      {"distribute(i: block@)", 6,
       "expected grid dimension (0, 1 or 2) after '@'"},
      {"distribute(i: block@x)", 6,
       "expected grid dimension (0, 1 or 2) after '@'"},
      {"distribute(i: block@3)", 6,
       "grid dimension must be 0, 1 or 2, got '3'"},
      {"distribute(i: block@10)", 6,
       "grid dimension must be 0, 1 or 2, got '10'"},
      {"distribute(i: block@1x)", 6,
       "grid dimension must be 0, 1 or 2, got '1x'"},
      {"distribute(i: *@0)", 5,
       "a replicated dimension cannot be mapped to a grid dimension"},
      {"distribute(i: replicated@1)", 5,
       "a replicated dimension cannot be mapped to a grid dimension"},
      {"distribute(i: block@0, j: cyclic@0)", 12,
       "grid dimension 0 is already used by loop 'i'"},
      {"distribute(i: block, j: block, k: block, l: block)", 16,
       "too many distributed loops (at most 3)"},
      {"distribute(i: block, j: *, k: cyclic, l: block, m: block_cyclic(2))",
       20, "too many distributed loops (at most 3)"},
  });
}

TEST(DirectiveErrors, DistributeArray) {
  std::string blok =
      join("unknown distribution kind 'blok' (did you mean 'block'?); ", kinds);
  expectErrors({
      {"distribute A", 2, "expected '(' after array name 'A'"},
      {"distribute A[block]", 2, "expected '(' after array name 'A'"},
      {"distribute A()", 3,
       "expected at least one dimension distribution for 'A'"},
      {"distribute A(block *)", 4,
       "expected ',' or ')' after dimension distribution"},
      {"distribute A(block", 4, "expected ')' after dimension distributions"},
      {"distribute A(block,", 5, "expected dimension distribution after ','"},
      {"distribute A(block, )", 5, "expected dimension distribution after ','"},
      {"distribute A(*, blok)", 5, blok.c_str()},
      {"distribute A(block@1, cyclic@1)", 9,
       "grid dimension 1 is already used by dimension 0 of 'A'"},
      {"distribute A(*, block@2, cyclic@2)", 11,
       "grid dimension 2 is already used by dimension 1 of 'A'"},
      {"distribute A(block, block, block, cyclic)", 9,
       "too many distributed dimensions (at most 3)"},
      {"distribute A(block_cyclic(0), *)", 5,
       "block size must be positive, got '0'"},
  });
}

TEST(DirectiveErrors, ReplicateAndLocal) {
  expectErrors({
      {"replicate", 1, "expected '(' after 'replicate'"},
      {"replicate A", 1, "expected '(' after 'replicate'"},
      {"local", 1, "expected '(' after 'local'"},
      {"replicate()", 2, "expected at least one array name in 'replicate'"},
      {"local()", 2, "expected at least one array name in 'local'"},
      {"replicate(1)", 2, "expected array name"},
      {"local(*)", 2, "expected array name"},
      {"replicate(A, A)", 4, "duplicate array 'A' in 'replicate'"},
      {"local(T, U, T)", 6, "duplicate array 'T' in 'local'"},
      {"replicate(A B)", 3, "expected ',' or ')' after array name"},
      {"local(A[0])", 3, "expected ',' or ')' after array name"},
      {"replicate(A,", 4, "expected array name after ','"},
      {"replicate(A, )", 4, "expected array name after ','"},
      {"replicate(A", 3, "expected ')' after array names"},
      {"local(", 2, "expected array name"},
  });
}

//===----------------------------------------------------------------------===//
// Canonical spelling and round trips
//===----------------------------------------------------------------------===//

TEST(DirectivesPrinting, Names) {
  EXPECT_EQ(getDirectiveName(DirectiveKind::Scop), "scop");
  EXPECT_EQ(getDirectiveName(DirectiveKind::EndScop), "endscop");
  EXPECT_EQ(getDirectiveName(DirectiveKind::Grid), "grid");
  EXPECT_EQ(getDirectiveName(DirectiveKind::Distribute), "distribute");
  EXPECT_EQ(getDirectiveName(DirectiveKind::Replicate), "replicate");
  EXPECT_EQ(getDirectiveName(DirectiveKind::Local), "local");
  EXPECT_EQ(getDirectiveName(DirectiveKind::Parallel), "parallel");
  EXPECT_EQ(getDirectiveName(DirectiveKind::NoDist), "nodist");
  EXPECT_EQ(getDirectiveName(DirectiveKind::NoAlias), "noalias");
  EXPECT_EQ(getDirectiveName(DirectiveKind::Device), "device");
  EXPECT_EQ(getDirectiveName(DirectiveKind::Host), "host");

  EXPECT_EQ(dist(DK::Block).str(), "block");
  EXPECT_EQ(dist(DK::Cyclic, 2).str(), "cyclic@2");
  EXPECT_EQ(dist(DK::BlockCyclic, -1, 8).str(), "block_cyclic(8)");
  EXPECT_EQ(dist(DK::BlockCyclic, 0, 8).str(), "block_cyclic(8)@0");
  EXPECT_EQ(dist(DK::Replicated).str(), "*");
}

/// Parses `input`, checks it prints as `canonical`, and that the canonical
/// text parses back to an equal directive that prints the same.
static void checkRoundTrip(const char *input, const char *canonical) {
  SCOPED_TRACE(std::string("input: '") + input + "'");
  Directive d = parseOk(input);
  EXPECT_EQ(d.str(), canonical);
  Directive again = parseOk(d.str());
  EXPECT_EQ(again, d);
  EXPECT_EQ(again.str(), d.str());
}

TEST(DirectivesPrinting, RoundTripEveryKind) {
  const char *canonical[] = {
      "scop",
      "endscop",
      "parallel",
      "nodist",
      "noalias",
      "device",
      "host",
      "noalias(a, b)",
      "grid(auto)",
      "grid(4)",
      "grid(4, 2)",
      "grid(*, 2)",
      "grid(2, *, 8)",
      "grid(*, *, *)",
      "distribute(i: block)",
      "distribute(i: block, j: cyclic)",
      "distribute(i: block_cyclic(16)@1, j: *, k: cyclic@0)",
      "distribute(t: *, i: block@2)",
      "distribute A(block, *)",
      "distribute A(block_cyclic(8), cyclic)",
      "distribute A(block@1, block@0)",
      "distribute A(*)",
      "distribute data_2d(*, block_cyclic(2147483647)@2, *)",
      "replicate(A)",
      "replicate(A, B)",
      "local(T)",
      "local(T, tmp_2)",
  };
  for (const char *c : canonical)
    checkRoundTrip(c, c);
}

TEST(DirectivesPrinting, NonCanonicalInputs) {
  checkRoundTrip("grid( 4 ,2 )", "grid(4, 2)");
  checkRoundTrip("grid ( auto )", "grid(auto)");
  checkRoundTrip("distribute(i:replicated,j:block)",
                 "distribute(i: *, j: block)");
  checkRoundTrip("distribute A (replicated , block_cyclic ( 4 ) @ 1)",
                 "distribute A(*, block_cyclic(4)@1)");
  checkRoundTrip("replicate(A,B,C)", "replicate(A, B, C)");
}

TEST(DirectivesPrinting, BuiltDirectivesRoundTrip) {
  std::vector<Directive> built;
  for (DirectiveKind k :
       {DirectiveKind::Scop, DirectiveKind::EndScop, DirectiveKind::Parallel,
        DirectiveKind::NoDist, DirectiveKind::Device, DirectiveKind::Host}) {
    Directive d;
    d.kind = k;
    built.push_back(d);
  }
  Directive grid;
  grid.kind = DirectiveKind::Grid;
  grid.gridShape = {0, 3};
  built.push_back(grid);
  Directive loops;
  loops.kind = DirectiveKind::Distribute;
  loops.names = {"i", "j"};
  loops.dims = {dist(DK::BlockCyclic, 1, 4), dist(DK::Replicated)};
  built.push_back(loops);
  Directive array = loops;
  array.target = Directive::Target::Array;
  array.names = {"A"};
  built.push_back(array);
  Directive rep;
  rep.kind = DirectiveKind::Replicate;
  rep.names = {"x", "y"};
  built.push_back(rep);
  Directive local = rep;
  local.kind = DirectiveKind::Local;
  built.push_back(local);

  for (const Directive &d : built) {
    SCOPED_TRACE(d.str());
    EXPECT_EQ(parseOk(d.str()), d);
  }
  EXPECT_EQ(grid.str(), "grid(*, 3)");
  EXPECT_EQ(loops.str(), "distribute(i: block_cyclic(4)@1, j: *)");
  EXPECT_EQ(array.str(), "distribute A(block_cyclic(4)@1, *)");
}

TEST(DirectivesPrinting, Equality) {
  EXPECT_NE(parseOk("distribute(i: block)"), parseOk("distribute i(block)"));
  EXPECT_NE(parseOk("replicate(A)"), parseOk("local(A)"));
  EXPECT_NE(parseOk("grid(auto)"), parseOk("grid(*)"));
  EXPECT_NE(parseOk("distribute A(block)"), parseOk("distribute A(block@0)"));
  EXPECT_EQ(parseOk("distribute A(replicated)"), parseOk("distribute A(*)"));
}

TEST(DirectivesPrinting, RandomTokenSequences) {
  // Deterministic token soup: the parser never crashes, always points into
  // the line, and everything it accepts round-trips through str().
  const DirectiveToken alphabet[] = {{TK::Identifier, "grid"},
                                     {TK::Identifier, "distribute"},
                                     {TK::Identifier, "replicate"},
                                     {TK::Identifier, "local"},
                                     {TK::Identifier, "scop"},
                                     {TK::Identifier, "auto"},
                                     {TK::Identifier, "block"},
                                     {TK::Identifier, "cyclic"},
                                     {TK::Identifier, "block_cyclic"},
                                     {TK::Identifier, "replicated"},
                                     {TK::Identifier, "A"},
                                     {TK::Identifier, "i"},
                                     {TK::Number, "0"},
                                     {TK::Number, "1"},
                                     {TK::Number, "4"},
                                     {TK::Punct, "("},
                                     {TK::Punct, ")"},
                                     {TK::Punct, ","},
                                     {TK::Punct, ":"},
                                     {TK::Punct, "*"},
                                     {TK::Punct, "@"},
                                     {TK::Punct, "-"}};
  const unsigned alphabetSize = sizeof(alphabet) / sizeof(alphabet[0]);
  uint64_t state = 12345;
  auto next = [&](unsigned bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<unsigned>((state >> 33) % bound);
  };
  unsigned accepted = 0;
  for (unsigned iter = 0; iter < 50000; ++iter) {
    std::vector<DirectiveToken> tokens;
    // Start with a directive name most of the time to get past the first
    // token; the parenthesis after it makes acceptance likely enough.
    tokens.push_back(alphabet[next(5)]);
    if (next(4))
      tokens.push_back({TK::Punct, "("});
    for (unsigned n = next(10); n; --n)
      tokens.push_back(alphabet[next(alphabetSize)]);
    if (next(2))
      tokens.push_back({TK::Punct, ")"});
    Directive d;
    DirectiveError e;
    if (!parseDirective(tokens, d, e)) {
      ASSERT_LE(e.tokenIndex, tokens.size());
      ASSERT_FALSE(e.message.empty());
      continue;
    }
    ++accepted;
    Directive again = parseOk(d.str());
    ASSERT_EQ(again, d) << d.str();
  }
  EXPECT_GT(accepted, 100u);
}
