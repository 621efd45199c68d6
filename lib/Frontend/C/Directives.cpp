//===- Directives.cpp - #pragma weft directive parser -----------*- C++ -*-===//
//
// A hand-written recursive-descent parser for the `#pragma weft` directives
// described in docs/directives.md. Every error names the token it points at
// (by index) so the front end can print `file:line:col: error: ...`.
//
//===----------------------------------------------------------------------===//
#include "weft/Frontend/C/Directives.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <iterator>

using namespace weft;
using llvm::ArrayRef;
using llvm::StringRef;
using llvm::Twine;

//===----------------------------------------------------------------------===//
// Names and printing
//===----------------------------------------------------------------------===//

/// The directive names, indexed by DirectiveKind.
static constexpr StringRef directiveNames[] = {
    "scop",     "endscop", "grid",    "distribute", "replicate", "local",
    "parallel", "nodist",  "noalias", "device",     "host"};
static_assert(std::size(directiveNames) ==
                  static_cast<size_t>(DirectiveKind::Host) + 1,
              "one name per DirectiveKind");

/// The distribution-kind keywords the parser accepts.
static constexpr StringRef distributionNames[] = {"block", "cyclic",
                                                  "block_cyclic", "replicated"};

static constexpr StringRef knownDirectivesNote =
    "known directives are scop, endscop, grid, distribute, replicate, local, "
    "parallel, nodist, noalias, device and host";

static constexpr StringRef validKindsNote =
    "valid kinds are block, cyclic, block_cyclic(N), replicated and *";

StringRef weft::getDirectiveName(DirectiveKind kind) {
  return directiveNames[static_cast<unsigned>(kind)];
}

std::string DimDistribution::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  switch (kind) {
  case Kind::Block:
    os << "block";
    break;
  case Kind::Cyclic:
    os << "cyclic";
    break;
  case Kind::BlockCyclic:
    os << "block_cyclic(" << blockSize << ")";
    break;
  case Kind::Replicated:
    os << "*";
    break;
  }
  if (gridDim >= 0)
    os << "@" << gridDim;
  return s;
}

std::string Directive::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << getDirectiveName(kind);
  auto printNames = [&] {
    os << "(";
    llvm::interleaveComma(names, os);
    os << ")";
  };
  switch (kind) {
  case DirectiveKind::Scop:
  case DirectiveKind::EndScop:
  case DirectiveKind::Parallel:
  case DirectiveKind::NoDist:
  case DirectiveKind::Device:
  case DirectiveKind::Host:
    break;
  case DirectiveKind::Grid:
    os << "(";
    if (gridShape.empty())
      os << "auto";
    llvm::interleaveComma(gridShape, os, [&](int64_t extent) {
      if (extent == 0)
        os << "*";
      else
        os << extent;
    });
    os << ")";
    break;
  case DirectiveKind::Distribute:
    if (target == Target::Array) {
      os << " " << (names.empty() ? std::string("?") : names.front()) << "(";
      llvm::interleaveComma(dims, os,
                            [&](const DimDistribution &d) { os << d.str(); });
      os << ")";
      break;
    }
    os << "(";
    for (size_t i = 0, e = std::max(names.size(), dims.size()); i != e; ++i) {
      if (i)
        os << ", ";
      os << (i < names.size() ? names[i] : std::string("?")) << ": "
         << (i < dims.size() ? dims[i].str() : std::string("?"));
    }
    os << ")";
    break;
  case DirectiveKind::Replicate:
  case DirectiveKind::Local:
    printNames();
    break;
  case DirectiveKind::NoAlias:
    if (!names.empty())
      printNames();
    break;
  }
  return s;
}

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

/// Returns the candidate the user most likely meant by `word`, or "" if none
/// is close: a candidate that `word` is a prefix of (at least 3 characters),
/// else the nearest one within two edits (and at most half its length).
static StringRef suggest(StringRef word, ArrayRef<StringRef> candidates) {
  if (word.size() >= 3)
    for (StringRef c : candidates)
      if (c.starts_with(word))
        return c;
  StringRef best;
  unsigned bestDistance = 3;
  for (StringRef c : candidates) {
    unsigned d = word.edit_distance(c, /*AllowReplacements=*/true,
                                    /*MaxEditDistance=*/bestDistance);
    if (d < bestDistance && 2 * d <= c.size()) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/// " (did you mean 'x'?)" or "".
static std::string didYouMean(StringRef suggestion) {
  if (suggestion.empty())
    return "";
  return (" (did you mean '" + suggestion + "'?)").str();
}

namespace {
class DirectiveParser {
public:
  DirectiveParser(ArrayRef<DirectiveToken> tokens, DirectiveError &error)
      : tokens(tokens), error(error) {}

  bool parse(Directive &d);

private:
  //===--- Token helpers --------------------------------------------------===//

  bool atEnd() const { return pos >= tokens.size(); }
  bool isKind(DirectiveToken::Kind kind, size_t ahead = 0) const {
    return pos + ahead < tokens.size() && tokens[pos + ahead].kind == kind;
  }
  bool isPunct(StringRef text, size_t ahead = 0) const {
    return isKind(DirectiveToken::Kind::Punct, ahead) &&
           tokens[pos + ahead].text == text;
  }
  bool isIdent(size_t ahead = 0) const {
    return isKind(DirectiveToken::Kind::Identifier, ahead);
  }
  bool isNumber(size_t ahead = 0) const {
    return isKind(DirectiveToken::Kind::Number, ahead);
  }
  StringRef text(size_t ahead = 0) const { return tokens[pos + ahead].text; }

  bool fail(size_t index, const Twine &message) {
    error.tokenIndex = index;
    error.message = message.str();
    return false;
  }
  bool failHere(const Twine &message) { return fail(pos, message); }

  /// Consumes `p` or fails with "expected 'p' <context>".
  bool expectPunct(StringRef p, const Twine &context) {
    if (!isPunct(p))
      return failHere("expected '" + p + "' " + context);
    ++pos;
    return true;
  }

  /// Parses `'(' item {',' item} ')'` with `pos` at the '('.
  bool parseList(const Twine &emptyMessage, StringRef itemName,
                 StringRef itemsName, llvm::function_ref<bool()> parseItem);

  /// Parses a positive decimal integer (`what` names it in messages).
  bool parsePositive(StringRef what, int64_t &value);

  bool parseGrid(Directive &d);
  bool parseDistribute(Directive &d);
  bool parseNameList(Directive &d);
  /// Parses one distribution, `owner` naming its loop or array dimension in
  /// messages. `usedBy` maps grid dimensions to their users so far.
  bool parseDimDistribution(DimDistribution &dist, const std::string &owner,
                            std::string (&usedBy)[maxGridDims],
                            unsigned &distributed, bool loops);

  ArrayRef<DirectiveToken> tokens;
  DirectiveError &error;
  size_t pos = 0;
};
} // namespace

bool DirectiveParser::parseList(const Twine &emptyMessage, StringRef itemName,
                                StringRef itemsName,
                                llvm::function_ref<bool()> parseItem) {
  ++pos; // '('
  if (isPunct(")"))
    return failHere(emptyMessage);
  while (true) {
    if (!parseItem())
      return false;
    if (isPunct(")")) {
      ++pos;
      return true;
    }
    if (atEnd())
      return failHere("expected ')' after " + itemsName);
    if (!isPunct(","))
      return failHere("expected ',' or ')' after " + itemName);
    ++pos;
    if (atEnd() || isPunct(")"))
      return failHere("expected " + itemName + " after ','");
  }
}

bool DirectiveParser::parsePositive(StringRef what, int64_t &value) {
  if (isPunct("-") && isNumber(1))
    return failHere(what + " must be positive, got '-" + text(1) + "'");
  if (isIdent())
    return failHere(what + " '" + text() +
                    "' is not an integer (macros are not expanded in "
                    "'#pragma weft')");
  if (!isNumber())
    return failHere("expected " + what + " (a positive integer)");
  StringRef t = text();
  bool decimal =
      llvm::all_of(t, llvm::isDigit) && (t.size() == 1 || t[0] != '0');
  if (!decimal)
    return failHere(what + " must be a decimal integer, got '" + t + "'");
  if (t == "0")
    return failHere(what + " must be positive, got '0'");
  unsigned long long v;
  if (t.getAsInteger(10, v) ||
      v > static_cast<unsigned long long>(maxDirectiveInteger))
    return failHere(what + " '" + t + "' is too large (at most " +
                    Twine(maxDirectiveInteger) + ")");
  value = static_cast<int64_t>(v);
  ++pos;
  return true;
}

bool DirectiveParser::parseGrid(Directive &d) {
  if (!isPunct("("))
    return failHere("expected '(' after 'grid'");
  return parseList(
      "expected at least one grid extent or 'auto'", "grid extent",
      "grid extents", [&]() -> bool {
        if (isIdent() && text() == "auto") {
          if (!d.gridShape.empty() || isPunct(",", 1))
            return failHere("'auto' must be the only grid argument; use '*' "
                            "for a single extent chosen by weft");
          ++pos;
          return true;
        }
        if (d.gridShape.size() == maxGridDims)
          return failHere("too many grid dimensions (at most " +
                          Twine(maxGridDims) + ")");
        if (isPunct("*")) {
          d.gridShape.push_back(0);
          ++pos;
          return true;
        }
        if (!isNumber() && !isIdent() && !(isPunct("-") && isNumber(1)))
          return failHere("expected grid extent (a positive integer, '*' or "
                          "'auto')");
        int64_t extent;
        if (!parsePositive("grid extent", extent))
          return false;
        d.gridShape.push_back(extent);
        return true;
      });
}

bool DirectiveParser::parseDimDistribution(DimDistribution &dist,
                                           const std::string &owner,
                                           std::string (&usedBy)[maxGridDims],
                                           unsigned &distributed, bool loops) {
  size_t kindIndex = pos;
  if (isPunct("*")) {
    dist.kind = DimDistribution::Kind::Replicated;
    ++pos;
  } else if (isIdent()) {
    StringRef word = text();
    if (word == "block" && isPunct("-", 1) && isIdent(2) && text(2) == "cyclic")
      return failHere("unknown distribution kind 'block-cyclic' (did you mean "
                      "'block_cyclic'?); " +
                      validKindsNote);
    if (word == "block" || word == "cyclic" || word == "replicated") {
      dist.kind = word == "block"    ? DimDistribution::Kind::Block
                  : word == "cyclic" ? DimDistribution::Kind::Cyclic
                                     : DimDistribution::Kind::Replicated;
      ++pos;
      if (isPunct("("))
        return failHere("'" + word + "' takes no " +
                        (word == "replicated" ? "argument"
                                              : "block size; use "
                                                "'block_cyclic(N)'"));
    } else if (word == "block_cyclic") {
      dist.kind = DimDistribution::Kind::BlockCyclic;
      ++pos;
      if (!expectPunct("(", "after 'block_cyclic'") ||
          !parsePositive("block size", dist.blockSize) ||
          !expectPunct(")", "after block size"))
        return false;
    } else {
      return failHere("unknown distribution kind '" + word + "'" +
                      didYouMean(suggest(word, distributionNames)) + "; " +
                      validKindsNote);
    }
  } else {
    return failHere("expected distribution kind (block, cyclic, "
                    "block_cyclic(N), replicated or *)");
  }

  if (dist.isDistributed() && ++distributed > maxGridDims)
    return fail(kindIndex, Twine("too many distributed ") +
                               (loops ? "loops" : "dimensions") + " (at most " +
                               Twine(maxGridDims) + ")");

  if (!isPunct("@"))
    return true;
  if (!dist.isDistributed())
    return failHere(
        "a replicated dimension cannot be mapped to a grid dimension");
  ++pos;
  StringRef t = isNumber() ? text() : StringRef();
  if (t.empty())
    return failHere("expected grid dimension (0, 1 or 2) after '@'");
  if (t.size() != 1 || t[0] < '0' || t[0] >= char('0' + maxGridDims))
    return failHere("grid dimension must be 0, 1 or 2, got '" + t + "'");
  dist.gridDim = t[0] - '0';
  std::string &user = usedBy[dist.gridDim];
  if (!user.empty())
    return failHere("grid dimension " + t + " is already used by " + user);
  user = owner;
  ++pos;
  return true;
}

bool DirectiveParser::parseDistribute(Directive &d) {
  std::string usedBy[maxGridDims];
  unsigned distributed = 0;

  if (isPunct("(")) {
    d.target = Directive::Target::Loops;
    return parseList(
        "expected at least one loop distribution in 'distribute'",
        "loop distribution", "loop distributions", [&]() -> bool {
          if (!isIdent())
            return failHere("expected loop iterator name");
          std::string name = text().str();
          if (llvm::is_contained(d.names, name))
            return failHere("duplicate loop iterator '" + name +
                            "' in 'distribute'");
          ++pos;
          if (!expectPunct(":", "after loop iterator '" + name + "'"))
            return false;
          DimDistribution dist;
          if (!parseDimDistribution(dist, "loop '" + name + "'", usedBy,
                                    distributed, /*loops=*/true))
            return false;
          d.names.push_back(std::move(name));
          d.dims.push_back(dist);
          return true;
        });
  }

  if (!isIdent())
    return failHere("expected '(' or array name after 'distribute'");
  d.target = Directive::Target::Array;
  std::string array = text().str();
  d.names.push_back(array);
  ++pos;
  if (!isPunct("("))
    return failHere("expected '(' after array name '" + array + "'");
  return parseList(
      "expected at least one dimension distribution for '" + array + "'",
      "dimension distribution", "dimension distributions", [&]() -> bool {
        DimDistribution dist;
        std::string owner = "dimension " + std::to_string(d.dims.size()) +
                            " of '" + array + "'";
        if (!parseDimDistribution(dist, owner, usedBy, distributed,
                                  /*loops=*/false))
          return false;
        d.dims.push_back(dist);
        return true;
      });
}

bool DirectiveParser::parseNameList(Directive &d) {
  StringRef directive = getDirectiveName(d.kind);
  if (!isPunct("("))
    return failHere("expected '(' after '" + directive + "'");
  return parseList("expected at least one array name in '" + directive + "'",
                   "array name", "array names", [&]() -> bool {
                     if (!isIdent())
                       return failHere("expected array name");
                     if (llvm::is_contained(d.names, text()))
                       return failHere("duplicate array '" + text() + "' in '" +
                                       directive + "'");
                     d.names.push_back(text().str());
                     ++pos;
                     return true;
                   });
}

bool DirectiveParser::parse(Directive &d) {
  if (atEnd())
    return failHere("expected weft directive; " + knownDirectivesNote);
  if (!isIdent())
    return failHere("expected weft directive name, got '" + text() + "'; " +
                    knownDirectivesNote);
  StringRef name = text();
  const StringRef *it = llvm::find(directiveNames, name);
  if (it == std::end(directiveNames))
    return failHere("unknown weft directive '" + name + "'" +
                    didYouMean(suggest(name, directiveNames)) + "; " +
                    knownDirectivesNote);
  d.kind = static_cast<DirectiveKind>(it - std::begin(directiveNames));
  ++pos;

  bool ok = true;
  switch (d.kind) {
  case DirectiveKind::Scop:
  case DirectiveKind::EndScop:
  case DirectiveKind::Parallel:
  case DirectiveKind::NoDist:
  case DirectiveKind::Device:
  case DirectiveKind::Host:
    break;
  case DirectiveKind::Grid:
    ok = parseGrid(d);
    break;
  case DirectiveKind::Distribute:
    ok = parseDistribute(d);
    break;
  case DirectiveKind::Replicate:
  case DirectiveKind::Local:
    ok = parseNameList(d);
    break;
  case DirectiveKind::NoAlias:
    // Bare: every array of the region; with a list: the arrays named.
    ok = atEnd() || parseNameList(d);
    break;
  }
  if (!ok)
    return false;
  if (!atEnd())
    return failHere("extra tokens at end of '#pragma weft " + name + "'");
  return true;
}

bool weft::parseDirective(ArrayRef<DirectiveToken> tokens, Directive &result,
                          DirectiveError &error) {
  Directive d;
  if (!DirectiveParser(tokens, error).parse(d))
    return false;
  result = std::move(d);
  return true;
}
