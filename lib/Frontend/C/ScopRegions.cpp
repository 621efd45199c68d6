//===- ScopRegions.cpp - Find #pragma scop regions in C ---------*- C++ -*-===//
//
// This file implements the pragma handlers that log scop/endscop/weft
// pragmas, and the pairing of those pragmas with the statements of the
// enclosing block.
//
//===----------------------------------------------------------------------===//
#include "weft/Frontend/C/ScopRegions.h"
#include "weft/Frontend/C/Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;
using namespace weft;

namespace {
/// Logs `#pragma scop`, `#pragma endscop` and `#pragma weft ...`.
class ScopPragmaHandler : public PragmaHandler {
public:
  ScopPragmaHandler(StringRef name, PragmaLog &log)
      : PragmaHandler(name), log(log) {}

  void HandlePragma(Preprocessor &pp, PragmaIntroducer introducer,
                    Token &firstToken) override;

private:
  PragmaLog &log;
};
} // end anonymous namespace

void ScopPragmaHandler::HandlePragma(Preprocessor &pp,
                                     PragmaIntroducer introducer,
                                     Token &firstToken) {
  std::vector<DirectiveToken> tokens;
  std::vector<SourceLocation> locs;
  StringRef name = getName();
  Token tok;
  pp.Lex(tok);
  while (tok.isNot(tok::eod)) {
    DirectiveToken::Kind kind = DirectiveToken::Kind::Punct;
    if (tok.getIdentifierInfo())
      kind = DirectiveToken::Kind::Identifier;
    else if (tok.is(tok::numeric_constant))
      kind = DirectiveToken::Kind::Number;
    tokens.push_back({kind, pp.getSpelling(tok)});
    locs.push_back(tok.getLocation());
    pp.Lex(tok);
  }
  SourceLocation endLoc = tok.getLocation();

  PragmaEvent event;
  event.loc = introducer.Loc;
  if (introducer.Kind != PIK_HashPragma) {
    // Regions are cut out of the file line by line.
    reportError(pp.getDiagnostics(), introducer.Loc,
                "weft pragmas must be written as '#pragma' lines, not with "
                "the _Pragma operator");
    return;
  }
  event.endLoc = endLoc;
  DiagnosticsEngine &diags = pp.getDiagnostics();
  if (name == "weft") {
    DirectiveError error;
    if (!parseDirective(tokens, event.directive, error)) {
      SourceLocation at = error.tokenIndex < locs.size()
                              ? locs[error.tokenIndex]
                              : (locs.empty() ? firstToken.getEndLoc() : endLoc);
      reportError(diags, at, error.message);
      return;
    }
  } else {
    if (!tokens.empty()) {
      reportError(diags, locs.front(),
                  "unexpected tokens after '#pragma " + name + "'");
      return;
    }
    event.directive.kind =
        name == "scop" ? DirectiveKind::Scop : DirectiveKind::EndScop;
  }
  log.events.push_back(std::move(event));
}

void weft::registerScopPragmaHandlers(Preprocessor &pp, PragmaLog &log) {
  pp.AddPragmaHandler(new ScopPragmaHandler("scop", log));
  pp.AddPragmaHandler(new ScopPragmaHandler("endscop", log));
  pp.AddPragmaHandler(new ScopPragmaHandler("weft", log));
}

//===----------------------------------------------------------------------===//
// Pairing pragmas with statements
//===----------------------------------------------------------------------===//

static bool isBefore(const SourceManager &sm, SourceLocation a,
                     SourceLocation b) {
  return sm.isBeforeInTranslationUnit(sm.getExpansionLoc(a),
                                      sm.getExpansionLoc(b));
}

/// True if `loc` lies strictly inside the source range of `s`.
static bool contains(const SourceManager &sm, const Stmt *s,
                     SourceLocation loc) {
  if (auto *block = dyn_cast<CompoundStmt>(s))
    return isBefore(sm, block->getLBracLoc(), loc) &&
           isBefore(sm, loc, block->getRBracLoc());
  SourceLocation end = sm.getExpansionRange(s->getEndLoc()).getEnd();
  return isBefore(sm, s->getBeginLoc(), loc) && isBefore(sm, loc, end);
}

/// The innermost compound statement of `s` that contains `loc`.
static CompoundStmt *findInnermostBlock(const SourceManager &sm, Stmt *s,
                                        SourceLocation loc) {
  for (Stmt *child : s->children()) {
    if (!child || !contains(sm, child, loc))
      continue;
    if (CompoundStmt *inner = findInnermostBlock(sm, child, loc))
      return inner;
  }
  if (auto *block = dyn_cast<CompoundStmt>(s))
    if (contains(sm, block, loc))
      return block;
  return nullptr;
}

/// Finds the function whose body contains `loc`.
static FunctionDecl *findFunction(ASTContext &ctx, SourceLocation loc) {
  const SourceManager &sm = ctx.getSourceManager();
  for (Decl *decl : ctx.getTranslationUnitDecl()->decls()) {
    auto *fn = dyn_cast<FunctionDecl>(decl);
    if (!fn || !fn->doesThisDeclarationHaveABody())
      continue;
    if (contains(sm, fn->getBody(), loc))
      return fn;
  }
  return nullptr;
}

/// Finds the block of `region` and the statements between its pragmas.
static bool placeRegion(ASTContext &ctx, ScopRegion &region) {
  const SourceManager &sm = ctx.getSourceManager();
  DiagnosticsEngine &diags = ctx.getDiagnostics();
  region.function = findFunction(ctx, region.beginLoc);
  if (!region.function) {
    reportError(diags, region.beginLoc,
                "'#pragma scop' must be inside a function body");
    return false;
  }
  region.block =
      findInnermostBlock(sm, region.function->getBody(), region.beginLoc);
  if (!region.block || !contains(sm, region.block, region.endLoc)) {
    reportError(diags, region.endLoc,
                "'#pragma endscop' must be in the same block as its "
                "'#pragma scop'");
    reportNote(diags, region.beginLoc, "region opened here");
    return false;
  }
  for (Stmt *s : region.block->body()) {
    SourceLocation end = sm.getExpansionRange(s->getEndLoc()).getEnd();
    bool startsInside = isBefore(sm, region.beginLoc, s->getBeginLoc()) &&
                        isBefore(sm, s->getBeginLoc(), region.endLoc);
    bool straddles = contains(sm, s, region.beginLoc) ||
                     contains(sm, s, region.endLoc);
    if (straddles || (startsInside && isBefore(sm, region.endLoc, end))) {
      reportError(diags, region.endLoc,
                  "'#pragma endscop' must be in the same block as its "
                  "'#pragma scop'");
      reportNote(diags, region.beginLoc, "region opened here");
      return false;
    }
    if (startsInside)
      region.stmts.push_back(s);
  }
  return true;
}

/// True if the text from `from` to `to` holds only blank lines, comments and
/// other pragma lines: a directive written there belongs to the region that
/// starts at `to`.
static bool onlyPragmasBetween(const SourceManager &sm, SourceLocation from,
                               SourceLocation to) {
  from = sm.getExpansionLoc(from);
  to = sm.getExpansionLoc(to);
  if (sm.getFileID(from) != sm.getFileID(to) ||
      !sm.isBeforeInTranslationUnit(from, to))
    return false;
  StringRef text = sm.getBufferData(sm.getFileID(from))
                       .slice(sm.getFileOffset(from), sm.getFileOffset(to));
  bool inComment = false;
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    line = line.trim();
    while (!line.empty()) {
      if (inComment) {
        size_t end = line.find("*/");
        if (end == StringRef::npos) {
          line = "";
          break;
        }
        inComment = false;
        line = line.drop_front(end + 2).ltrim();
      } else if (line.starts_with("/*")) {
        inComment = true;
        line = line.drop_front(2);
      } else if (line.starts_with("//") || line.starts_with("#")) {
        // A pragma line (only pragmas are logged between the two).
        if (line.starts_with("#") &&
            !line.drop_front().ltrim().starts_with("pragma"))
          return false;
        line = "";
      } else {
        return false;
      }
    }
  }
  return true;
}

static void reportNotFollowedByRegion(DiagnosticsEngine &diags,
                                      const PragmaEvent &event) {
  reportError(diags, event.loc,
              "'#pragma weft " + event.directive.str() +
                  "' must be inside a scop region or directly before one");
}

bool weft::collectScopRegions(ASTContext &ctx, const PragmaLog &log,
                              std::vector<ScopRegion> &regions) {
  const SourceManager &sm = ctx.getSourceManager();
  DiagnosticsEngine &diags = ctx.getDiagnostics();
  bool ok = true;
  std::optional<ScopRegion> open;
  std::vector<PragmaEvent> pending;
  for (const PragmaEvent &event : log.events) {
    if (!sm.isWrittenInMainFile(sm.getExpansionLoc(event.loc))) {
      reportError(diags, event.loc,
                  "weft pragmas are only supported in the main source file");
      ok = false;
      continue;
    }
    switch (event.directive.kind) {
    case DirectiveKind::Scop:
      if (open) {
        reportError(diags, event.loc, "nested '#pragma scop'");
        reportNote(diags, open->beginLoc, "previous region opened here");
        ok = false;
        continue;
      }
      open.emplace();
      open->beginLoc = event.loc;
      break;
    case DirectiveKind::EndScop:
      if (!open) {
        reportError(diags, event.loc,
                    "'#pragma endscop' without a matching '#pragma scop'");
        ok = false;
        continue;
      }
      open->endLoc = event.loc;
      open->endLineEnd = event.endLoc;
      if (placeRegion(ctx, *open))
        regions.push_back(std::move(*open));
      else
        ok = false;
      open.reset();
      break;
    default:
      // Directives just before a region belong to it.
      if (!open)
        pending.push_back(event);
      else
        open->directives.push_back(event);
      break;
    }
    if (open && !pending.empty()) {
      for (const PragmaEvent &p : pending) {
        if (onlyPragmasBetween(sm, p.endLoc, open->beginLoc)) {
          open->directives.push_back(p);
          continue;
        }
        reportNotFollowedByRegion(diags, p);
        ok = false;
      }
      pending.clear();
    }
  }
  for (const PragmaEvent &event : pending) {
    reportNotFollowedByRegion(diags, event);
    ok = false;
  }
  if (open) {
    reportError(diags, open->beginLoc,
                "'#pragma scop' is not closed by a '#pragma endscop'");
    ok = false;
  }
  return ok;
}
