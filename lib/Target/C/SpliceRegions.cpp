//===- SpliceRegions.cpp - Put generated C back into the source -*- C++ -*-===//
#include "weft/Target/C/SpliceRegions.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/StringExtras.h"

#include <set>

using namespace clang;
using namespace weft;

/// Start of the line holding `loc`.
static SourceLocation lineStart(const SourceManager &sm, SourceLocation loc) {
  loc = sm.getExpansionLoc(loc);
  unsigned col = sm.getSpellingColumnNumber(loc);
  return loc.getLocWithOffset(-(int)(col - 1));
}

/// `#line N "file"`, naming the original file so that diagnostics on the
/// generated file point at the user's source.
static std::string lineDirective(unsigned line, StringRef file) {
  std::string quoted;
  for (char c : file) {
    if (c == '"' || c == '\\')
      quoted += '\\';
    quoted += c;
  }
  return "#line " + std::to_string(line) + " \"" + quoted + "\"\n";
}

/// Stands for `#line N "output"` before the region functions until the
/// result's lines are known (\x01: no C source line is this).
static constexpr llvm::StringLiteral kOutputLineMarker =
    "#line \x01weft-output-line\x01\n";

/// `text` with each marker line replaced by a `#line` that numbers the next
/// line as the line of `outputName` it is.
static std::string numberOutputLines(StringRef text, StringRef outputName) {
  std::string out;
  out.reserve(text.size());
  StringRef marker = kOutputLineMarker.drop_back();
  unsigned line = 1;
  while (!text.empty()) {
    auto [current, rest] = text.split('\n');
    bool newline = text.size() > current.size();
    if (current == marker)
      out += lineDirective(line + 1, outputName);
    else
      out += current.str() + (newline ? "\n" : "");
    text = rest;
    ++line;
  }
  return out;
}

static unsigned lineOf(const SourceManager &sm, SourceLocation loc) {
  return sm.getSpellingLineNumber(sm.getExpansionLoc(loc));
}

/// The preprocessor directive lines of `text` other than pragmas, with their
/// continuation lines, each preceded by a newline.
static std::string keptDirectives(StringRef text) {
  std::string kept;
  bool continuing = false;
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    StringRef body = line.ltrim();
    bool isDirective = continuing || body.starts_with("#");
    if (!continuing && isDirective) {
      StringRef name = body.drop_front().ltrim();
      if (name.starts_with("pragma"))
        isDirective = false;
    }
    if (isDirective)
      kept += "\n" + line.str();
    continuing = isDirective && line.rtrim().ends_with("\\");
  }
  return kept;
}

/// The statement that replaces a region: the call, wrapped in copies of
/// `register` scalars, then `(void)` for iterators the region made unused.
static std::string regionCall(const RegionReplacement &rep) {
  std::string call;
  bool copies = !rep.copiedScalars.empty();
  if (copies)
    call += "{ ";
  for (auto &[type, name] : rep.copiedScalars)
    call += type + " weft_copy_" + name + " = " + name + "; ";
  call += rep.functionName + "(" + llvm::join(rep.callArgs, ", ") + ");";
  for (auto &[type, name] : rep.copiedScalars)
    call += " " + name + " = weft_copy_" + name + ";";
  if (copies)
    call += " }";
  for (const std::string &var : rep.unusedVars)
    call += " (void)" + var + ";";
  return call;
}

std::string weft::spliceRegions(ASTContext &ctx,
                                const std::vector<RegionReplacement> &reps,
                                const std::string &preamble,
                                const std::vector<SourceEdit> &edits,
                                StringRef outputName) {
  SourceManager &sm = ctx.getSourceManager();
  FileID main = sm.getMainFileID();
  StringRef original = sm.getBufferData(main);
  if (reps.empty() && preamble.empty() && edits.empty())
    return original.str();
  Rewriter rewriter(sm, ctx.getLangOpts());
  for (const SourceEdit &edit : edits)
    rewriter.ReplaceText(edit.begin, edit.length, edit.text);
  StringRef file = sm.getFileEntryRefForID(main)->getName();
  // A UTF-8 byte-order mark must stay the file's first bytes: the
  // preamble goes after it.
  unsigned start = original.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  rewriter.InsertTextBefore(sm.getLocForStartOfFile(main).getLocWithOffset(start),
                            preamble + lineDirective(1, file));
  // A written `register` scalar is passed by address: drop the keyword
  // (once, however many regions or declarators share it).
  std::set<unsigned> dropped;
  for (const RegionReplacement &rep : reps)
    for (SourceLocation kw : rep.droppedRegisterKeywords)
      if (dropped.insert(sm.getFileOffset(kw)).second)
        rewriter.RemoveText(kw, StringRef("register").size());
  for (const RegionReplacement &rep : reps) {
    const ScopRegion &region = *rep.region;
    // The definition goes right before the enclosing function (not at the
    // start of its line, which may be inside a comment).
    SourceLocation fnStart =
        sm.getExpansionLoc(region.function->getSourceRange().getBegin());
    unsigned fnColumn = sm.getSpellingColumnNumber(fnStart);
    rewriter.InsertTextAfter(fnStart, (fnColumn > 1 ? "\n" : "") +
                                          kOutputLineMarker.str() +
                                          rep.definition +
                                          lineDirective(lineOf(sm, fnStart),
                                                        file) +
                                          std::string(fnColumn - 1, ' '));
    // The region, pragma lines included, becomes one call.
    SourceLocation begin = lineStart(sm, region.beginLoc);
    SourceLocation end = sm.getExpansionLoc(region.endLineEnd);
    unsigned col =
        sm.getSpellingColumnNumber(sm.getExpansionLoc(region.beginLoc));
    std::string call = std::string(col - 1, ' ') + regionCall(rep);
    // Preprocessor directives inside the region (#define, #undef, ...) still
    // matter to the code after it; #pragma lines belonged to the region.
    StringRef text = original.substr(sm.getFileOffset(begin),
                                     sm.getFileOffset(end) -
                                         sm.getFileOffset(begin));
    call += keptDirectives(text);
    // The closing pragma's newline follows the directive.
    std::string next = lineDirective(lineOf(sm, region.endLoc) + 1, file);
    next.pop_back();
    call += "\n" + next;
    // `end` is the newline of the closing pragma's line, which stays.
    rewriter.ReplaceText(begin, sm.getFileOffset(end) - sm.getFileOffset(begin),
                         call);
  }
  const RewriteBuffer *buffer = rewriter.getRewriteBufferFor(main);
  if (!buffer)
    return original.str();
  return numberOutputLines(std::string(buffer->begin(), buffer->end()),
                           outputName);
}
