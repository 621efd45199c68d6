//===- CxxCompat.cpp - The C outside regions as C++ -------------*- C++ -*-===//
#include "weft/Target/CUDA/CxxCompat.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;
using namespace weft;

/// Names C programs may use that are keywords (or alternative tokens) in
/// C++.
static const llvm::StringSet<> &cxxKeywords() {
  static const llvm::StringSet<> keywords = {"alignas",
                                             "alignof",
                                             "and",
                                             "and_eq",
                                             "asm",
                                             "bitand",
                                             "bitor",
                                             "catch",
                                             "char16_t",
                                             "char32_t",
                                             "char8_t",
                                             "class",
                                             "compl",
                                             "concept",
                                             "consteval",
                                             "constexpr",
                                             "constinit",
                                             "const_cast",
                                             "co_await",
                                             "co_return",
                                             "co_yield",
                                             "decltype",
                                             "delete",
                                             "dynamic_cast",
                                             "explicit",
                                             "export",
                                             "friend",
                                             "mutable",
                                             "namespace",
                                             "new",
                                             "noexcept",
                                             "not",
                                             "not_eq",
                                             "nullptr",
                                             "operator",
                                             "or",
                                             "or_eq",
                                             "private",
                                             "protected",
                                             "public",
                                             "reinterpret_cast",
                                             "requires",
                                             "static_assert",
                                             "static_cast",
                                             "template",
                                             "this",
                                             "thread_local",
                                             "throw",
                                             "try",
                                             "typeid",
                                             "typename",
                                             "using",
                                             "virtual",
                                             "wchar_t",
                                             "xor",
                                             "xor_eq"};
  return keywords;
}

namespace {
class CxxEdits : public RecursiveASTVisitor<CxxEdits> {
public:
  CxxEdits(ASTContext &ctx, const std::vector<ScopRegion> &regions,
           std::vector<SourceEdit> &edits)
      : ctx(ctx), sm(ctx.getSourceManager()), edits(edits) {
    for (const ScopRegion &r : regions) {
      SourceLocation begin = sm.getExpansionLoc(r.beginLoc);
      begin =
          begin.getLocWithOffset(-(int)(sm.getSpellingColumnNumber(begin) - 1));
      regionRanges.push_back(
          {sm.getFileOffset(begin),
           sm.getFileOffset(sm.getExpansionLoc(r.endLineEnd))});
    }
  }

  bool VisitFunctionDecl(FunctionDecl *fn);
  bool VisitImplicitCastExpr(ImplicitCastExpr *cast);
  bool VisitNamedDecl(NamedDecl *decl);
  bool VisitCallExpr(CallExpr *call);

  bool ok = true;

private:
  /// Whether `loc` is in the main file and outside every region.
  bool kept(SourceLocation loc) const {
    if (loc.isInvalid())
      return false;
    SourceLocation file = sm.getExpansionLoc(loc);
    if (!sm.isInMainFile(file))
      return false;
    unsigned offset = sm.getFileOffset(file);
    return llvm::none_of(regionRanges, [&](auto range) {
      return offset >= range.first && offset < range.second;
    });
  }
  void error(SourceLocation loc, const llvm::Twine &message) {
    DiagnosticsEngine &diags = ctx.getDiagnostics();
    diags.Report(loc, diags.getCustomDiagID(DiagnosticsEngine::Error, "%0"))
        << message.str();
    ok = false;
  }
  /// The file range of `range`'s tokens; invalid inside macros.
  CharSourceRange fileRange(SourceRange range) const {
    return Lexer::makeFileCharRange(CharSourceRange::getTokenRange(range), sm,
                                    ctx.getLangOpts());
  }
  std::string text(CharSourceRange range) const {
    return Lexer::getSourceText(range, sm, ctx.getLangOpts()).str();
  }
  void insert(SourceLocation loc, std::string text) {
    edits.push_back({loc, 0, std::move(text)});
  }
  void rewriteArrayParameter(FunctionDecl *fn, ParmVarDecl *param);

  ASTContext &ctx;
  SourceManager &sm;
  std::vector<SourceEdit> &edits;
  std::vector<std::pair<unsigned, unsigned>> regionRanges;
};
} // end anonymous namespace

/// The outermost array declarator of a parameter's written type.
static ArrayTypeLoc outerArray(TypeLoc tl) {
  while (tl) {
    if (auto array = tl.getAs<ArrayTypeLoc>())
      return array;
    if (auto qualified = tl.getAs<QualifiedTypeLoc>())
      tl = qualified.getUnqualifiedLoc();
    else if (auto paren = tl.getAs<ParenTypeLoc>())
      tl = paren.getInnerLoc();
    else if (auto attributed = tl.getAs<AttributedTypeLoc>())
      tl = attributed.getModifiedLoc();
    else if (auto adjusted = tl.getAs<AdjustedTypeLoc>())
      tl = adjusted.getOriginalLoc();
    else
      return {};
  }
  return {};
}

void CxxEdits::rewriteArrayParameter(FunctionDecl *fn, ParmVarDecl *param) {
  QualType original = param->getOriginalType();
  TypeLoc written = param->getTypeSourceInfo()->getTypeLoc();
  // The first array declarator of the pointed-to rows, and their element.
  ArrayTypeLoc first;
  QualType base;
  if (const ArrayType *array = ctx.getAsArrayType(original)) {
    ArrayTypeLoc outer = outerArray(written);
    if (!outer)
      return;
    QualType element = array->getElementType();
    if (!element->isVariablyModifiedType()) {
      // Only the first extent is variable (or has `static`, qualifiers): C++
      // needs none of it, as the parameter is a pointer either way.
      if (!isa<VariableArrayType>(array) &&
          array->getSizeModifier() == ArraySizeModifier::Normal &&
          !array->getIndexTypeCVRQualifiers())
        return;
      CharSourceRange brackets = fileRange(outer.getBracketsRange());
      if (brackets.isInvalid())
        return error(param->getLocation(),
                     "cannot rewrite this array parameter for C++ (it is "
                     "written by a macro)");
      edits.push_back(
          {brackets.getBegin(), (unsigned)text(brackets).size(), "[]"});
      return;
    }
    first = outerArray(outer.getElementLoc());
    base = ctx.getBaseElementType(element);
  } else if (const auto *ptr = original->getAs<PointerType>();
             ptr && ptr->getPointeeType()->isVariablyModifiedType() &&
             ctx.getAsArrayType(ptr->getPointeeType())) {
    // Written as a pointer to variable-length rows: double (*A)[m].
    TypeLoc tl = written.getUnqualifiedLoc();
    while (auto paren = tl.getAs<ParenTypeLoc>())
      tl = paren.getInnerLoc();
    auto pointer = tl.getAs<PointerTypeLoc>();
    if (!pointer)
      return;
    first = outerArray(pointer.getPointeeLoc());
    base = ctx.getBaseElementType(ptr->getPointeeType());
  } else {
    return;
  }
  // A pointer to variable-length arrays: C++ has no such parameter, but
  // GNU C++ has such local variables.
  ArrayTypeLoc last = first;
  while (last)
    if (ArrayTypeLoc next = outerArray(last.getElementLoc()))
      last = next;
    else
      break;
  CharSourceRange declaration = fileRange(param->getSourceRange());
  CharSourceRange dims = first && last
                             ? fileRange(SourceRange(first.getLBracketLoc(),
                                                     last.getRBracketLoc()))
                             : CharSourceRange();
  if (declaration.isInvalid() || dims.isInvalid())
    return error(param->getLocation(),
                 "cannot rewrite this variable-length array parameter for "
                 "C++ (it is written by a macro)");
  std::string name = param->getName().str();
  std::string pointer = std::string(base.isConstQualified() ? "const " : "") +
                        "void *" + (name.empty() ? "" : "weft_vla_" + name);
  edits.push_back(
      {declaration.getBegin(), (unsigned)text(declaration).size(), pointer});
  if (name.empty() || !fn->doesThisDeclarationHaveABody())
    return;
  auto *body = dyn_cast<CompoundStmt>(fn->getBody());
  if (!body)
    return;
  std::string type = base.getAsString(ctx.getPrintingPolicy());
  insert(body->getLBracLoc().getLocWithOffset(1),
         " " + type + " (*" + name + ")" + text(dims) + " = (" + type + " (*)" +
             text(dims) + ")weft_vla_" + name + ";");
}

bool CxxEdits::VisitFunctionDecl(FunctionDecl *fn) {
  if (!kept(fn->getLocation()))
    return true;
  if (!fn->hasWrittenPrototype() && fn->getNumParams() > 0 &&
      fn->doesThisDeclarationHaveABody()) {
    error(fn->getLocation(), "a function defined without a prototype (K&R "
                             "style) is not C++: write its parameter types");
    return true;
  }
  for (ParmVarDecl *param : fn->parameters())
    rewriteArrayParameter(fn, param);
  return true;
}

bool CxxEdits::VisitImplicitCastExpr(ImplicitCastExpr *cast) {
  if (!kept(cast->getBeginLoc()))
    return true;
  QualType to = cast->getType();
  const Expr *sub = cast->getSubExpr();
  bool needed = false;
  switch (cast->getCastKind()) {
  case CK_BitCast:
    // T * to void * is fine in C++; anything else between pointers is not,
    // except what reaches a variable-length array parameter (now void *).
    needed = to->isPointerType() && !to->getPointeeType()->isVoidType() &&
             !(to->isVariablyModifiedType() &&
               !sub->getType()->getPointeeType()->isVoidType());
    break;
  case CK_IntegralToPointer:
  case CK_PointerToIntegral:
    needed = true;
    break;
  case CK_IntegralCast:
    needed = to->isEnumeralType();
    break;
  case CK_ArrayToPointerDecay: {
    // A string literal is const in C++: `char *s = "..."` needs the cast,
    // unless the pointer becomes a pointer to const (or another cast
    // follows).
    if (!isa<StringLiteral>(sub->IgnoreParens()) || !to->isPointerType() ||
        to->getPointeeType().isConstQualified())
      break;
    needed = true;
    for (const DynTypedNode &parent : ctx.getParents(*cast))
      if (const auto *next = parent.get<ImplicitCastExpr>())
        needed = next->getCastKind() != CK_BitCast &&
                 !(next->getType()->isPointerType() &&
                   next->getType()->getPointeeType().isConstQualified());
    break;
  }
  default:
    break;
  }
  if (!needed)
    return true;
  std::string type = to.getAsString(ctx.getPrintingPolicy());
  if (StringRef(type).contains("(unnamed") ||
      StringRef(type).contains("(anonymous")) {
    error(cast->getBeginLoc(), "this conversion needs a cast in C++, to a "
                               "type without a name: name the type");
    return true;
  }
  CharSourceRange range = fileRange(sub->getSourceRange());
  if (range.isInvalid()) {
    error(cast->getBeginLoc(), "this conversion needs a cast to '" + type +
                                   "' in C++, and it is inside a macro: "
                                   "write the cast");
    return true;
  }
  insert(range.getBegin(), "(" + type + ")(");
  insert(range.getEnd(), ")");
  return true;
}

bool CxxEdits::VisitNamedDecl(NamedDecl *decl) {
  if (!kept(decl->getLocation()) || !decl->getIdentifier())
    return true;
  if (cxxKeywords().contains(decl->getName()))
    error(decl->getLocation(), "'" + decl->getName() +
                                   "' is a keyword in C++, which "
                                   "--target=cuda writes: rename it");
  return true;
}

bool CxxEdits::VisitCallExpr(CallExpr *call) {
  if (!kept(call->getBeginLoc()))
    return true;
  if (const FunctionDecl *callee = call->getDirectCallee();
      callee && callee->isImplicit() &&
      !callee->getName().starts_with("__builtin"))
    error(call->getBeginLoc(), "'" + callee->getName() +
                                   "' is called without a declaration, which "
                                   "C++ does not allow: declare it");
  return true;
}

bool weft::collectCxxEdits(ASTContext &ctx,
                           const std::vector<ScopRegion> &regions,
                           std::vector<SourceEdit> &edits) {
  CxxEdits visitor(ctx, regions, edits);
  visitor.TraverseDecl(ctx.getTranslationUnitDecl());
  return visitor.ok;
}
