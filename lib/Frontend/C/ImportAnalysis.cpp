//===- ImportAnalysis.cpp - Classify what a region touches ------*- C++ -*-===//
//
// The importer's analysis: which variables a region reads and writes, which
// are loop iterators, what the loop headers say, and what the region must
// leave behind for the code after it.
//
//===----------------------------------------------------------------------===//
#include "RegionImporter.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace weft;
using namespace weft::importer;

//===----------------------------------------------------------------------===//
// Analysis
//===----------------------------------------------------------------------===//

const cl::VarDecl *RegionImporter::refVar(const cl::Expr *e) const {
  e = e->IgnoreParenImpCasts();
  if (const auto *ref = dyn_cast<cl::DeclRefExpr>(e))
    return dyn_cast<cl::VarDecl>(ref->getDecl());
  return nullptr;
}

/// The variable an lvalue expression ultimately designates: `x` for `x`,
/// `A` for `A[i][j]`.
const cl::VarDecl *importer::baseVar(const cl::Expr *e, bool &isElement) {
  isElement = false;
  e = e->IgnoreParenImpCasts();
  while (const auto *sub = dyn_cast<cl::ArraySubscriptExpr>(e)) {
    isElement = true;
    e = sub->getBase()->IgnoreParenImpCasts();
  }
  if (const auto *ref = dyn_cast<cl::DeclRefExpr>(e))
    return dyn_cast<cl::VarDecl>(ref->getDecl());
  return nullptr;
}

/// Variables that `s` assigns, as scalars or through array elements.
llvm::SmallPtrSet<const cl::VarDecl *, 8>
importer::writtenVars(const cl::Stmt *s) {
  llvm::SmallPtrSet<const cl::VarDecl *, 8> writes;
  std::function<void(const cl::Stmt *)> walk = [&](const cl::Stmt *s) {
    if (!s)
      return;
    bool element;
    if (const auto *bin = dyn_cast<cl::BinaryOperator>(s);
        bin && bin->isAssignmentOp())
      if (const cl::VarDecl *var = baseVar(bin->getLHS(), element))
        writes.insert(var);
    if (const auto *un = dyn_cast<cl::UnaryOperator>(s);
        un && un->isIncrementDecrementOp())
      if (const cl::VarDecl *var = baseVar(un->getSubExpr(), element))
        writes.insert(var);
    for (const cl::Stmt *c : s->children())
      walk(c);
  };
  walk(s);
  return writes;
}

void RegionImporter::scan(const cl::Stmt *s) {
  if (!s)
    return;
  if (const auto *ref = dyn_cast<cl::DeclRefExpr>(s)) {
    if (const auto *var = dyn_cast<cl::VarDecl>(ref->getDecl())) {
      refs.push_back(ref);
      VarInfo &info = vars.insert({var, VarInfo{VarKind::ScalarValue, {}, {},
                                                useCounter}})
                          .first->second;
      if (info.firstRef.isInvalid())
        info.firstRef = ref->getLocation();
      ++useCounter;
    }
  } else if (const auto *bin = dyn_cast<cl::BinaryOperator>(s)) {
    if (bin->isAssignmentOp()) {
      bool element;
      if (const cl::VarDecl *var = baseVar(bin->getLHS(), element))
        (element ? arrayWrites : scalarWrites).insert(var);
    }
  } else if (const auto *un = dyn_cast<cl::UnaryOperator>(s)) {
    if (un->isIncrementDecrementOp()) {
      bool element;
      if (const cl::VarDecl *var = baseVar(un->getSubExpr(), element))
        (element ? arrayWrites : scalarWrites).insert(var);
    }
  } else if (const auto *decl = dyn_cast<cl::DeclStmt>(s)) {
    for (const cl::Decl *d : decl->decls())
      if (const auto *var = dyn_cast<cl::VarDecl>(d)) {
        regionDecls.insert(var);
        vars.insert({var, VarInfo{VarKind::Local, {}, {}, useCounter++}});
        if (var->getInit())
          scan(var->getInit());
      }
  } else if (const auto *loop = dyn_cast<cl::ForStmt>(s)) {
    ForHeader header;
    if (parseForHeader(loop, header, /*report=*/false))
      iteratorLoops[header.iv].push_back(loop);
  }
  for (const cl::Stmt *child : s->children())
    scan(child);
}

/// Whether C gives values of `type` unsigned semantics (division, shifts,
/// comparisons, conversions). `_Bool` counts as unsigned too.
bool importer::isUnsigned(cl::QualType type) {
  return type->isUnsignedIntegerOrEnumerationType();
}

/// What a user calls the construct `s`, for diagnostics.
std::string importer::describe(const cl::Stmt *s) {
  if (const auto *un = dyn_cast<cl::UnaryOperator>(s)) {
    switch (un->getOpcode()) {
    case cl::UO_Deref: return "pointer dereference ('*')";
    case cl::UO_AddrOf: return "address-of ('&')";
    default:
      return "operator '" +
             cl::UnaryOperator::getOpcodeStr(un->getOpcode()).str() + "'";
    }
  }
  if (const auto *bin = dyn_cast<cl::BinaryOperator>(s))
    return "operator '" + bin->getOpcodeStr().str() + "'";
  if (isa<cl::SwitchStmt>(s)) return "'switch' statement";
  if (isa<cl::LabelStmt>(s)) return "label";
  if (isa<cl::CaseStmt, cl::DefaultStmt>(s)) return "'case' label";
  if (isa<cl::MemberExpr>(s)) return "struct or union member access";
  if (isa<cl::StringLiteral>(s)) return "string literal";
  if (isa<cl::CompoundLiteralExpr>(s)) return "compound literal";
  if (isa<cl::InitListExpr>(s)) return "initializer list";
  if (isa<cl::StmtExpr>(s)) return "statement expression";
  if (isa<cl::UnaryExprOrTypeTraitExpr>(s)) return "sizeof of a run-time value";
  if (isa<cl::AsmStmt>(s)) return "inline assembly";
  return std::string("construct '") + s->getStmtClassName() + "'";
}

/// Strips parens and the implicit casts Clang wraps around a variable read.
const cl::Expr *importer::strip(const cl::Expr *e) {
  return e->IgnoreParenImpCasts();
}

bool RegionImporter::parseForHeader(const cl::ForStmt *loop, ForHeader &h,
                                    bool report) {
  auto fail = [&](cl::SourceLocation l, const llvm::Twine &msg) {
    if (report)
      error(l, msg);
    return false;
  };
  // Init: `iv = e` or `T iv = e`.
  const cl::Stmt *init = loop->getInit();
  if (!init)
    return fail(loop->getBeginLoc(),
                "unsupported loop: the iterator must be initialised in the "
                "'for' header");
  if (const auto *ds = dyn_cast<cl::DeclStmt>(init)) {
    const auto *var = ds->isSingleDecl()
                          ? dyn_cast<cl::VarDecl>(ds->getSingleDecl())
                          : nullptr;
    if (!var || !var->getInit())
      return fail(init->getBeginLoc(),
                  "unsupported loop: expected one initialised iterator");
    h.iv = var;
    h.init = var->getInit();
  } else if (const auto *as = dyn_cast<cl::BinaryOperator>(init);
             as && as->getOpcode() == cl::BO_Assign && refVar(as->getLHS())) {
    h.iv = refVar(as->getLHS());
    h.init = as->getRHS();
  } else {
    return fail(init->getBeginLoc(),
                "unsupported loop: expected 'iterator = start' in the 'for' "
                "header");
  }
  if (!h.iv->getType()->isIntegerType() || h.iv->getType()->isBooleanType())
    return fail(h.iv->getLocation(),
                "unsupported loop: the iterator must have an integer type");

  // Increment: ++/--, += c, -= c, iv = iv +/- c.
  const cl::Expr *inc = loop->getInc();
  if (!inc)
    return fail(loop->getBeginLoc(), "unsupported loop: missing increment");
  inc = inc->IgnoreParens();
  bool incOk = false;
  if (const auto *un = dyn_cast<cl::UnaryOperator>(inc)) {
    if (un->isIncrementDecrementOp() && refVar(un->getSubExpr()) == h.iv) {
      h.increasing = un->isIncrementOp();
      h.step = 1;
      incOk = true;
    }
  } else if (const auto *bin = dyn_cast<cl::BinaryOperator>(inc);
             bin && refVar(bin->getLHS()) == h.iv) {
    const cl::Expr *amount = nullptr;
    bool plus = true;
    if (bin->getOpcode() == cl::BO_AddAssign ||
        bin->getOpcode() == cl::BO_SubAssign) {
      amount = bin->getRHS();
      plus = bin->getOpcode() == cl::BO_AddAssign;
    } else if (bin->getOpcode() == cl::BO_Assign) {
      const auto *rhs = dyn_cast<cl::BinaryOperator>(strip(bin->getRHS()));
      if (rhs && refVar(rhs->getLHS()) == h.iv &&
          (rhs->getOpcode() == cl::BO_Add || rhs->getOpcode() == cl::BO_Sub)) {
        amount = rhs->getRHS();
        plus = rhs->getOpcode() == cl::BO_Add;
      } else if (rhs && refVar(rhs->getRHS()) == h.iv &&
                 rhs->getOpcode() == cl::BO_Add) {
        amount = rhs->getLHS(); // iv = c + iv
      }
    }
    if (amount) {
      if (std::optional<llvm::APSInt> c = amount->getIntegerConstantExpr(ctx)) {
        int64_t v = c->getExtValue();
        if (v != 0) {
          h.increasing = (v > 0) == plus;
          h.step = v > 0 ? v : -v;
          incOk = true;
        }
      }
    }
  }
  if (!incOk)
    return fail(inc->getBeginLoc(),
                "unsupported loop: the increment must add or subtract a "
                "non-zero constant to the iterator");

  // Condition: comparisons of the iterator against bounds, joined by &&.
  const cl::Expr *cond = loop->getCond();
  if (!cond)
    return fail(loop->getBeginLoc(), "unsupported loop: missing condition");
  h.boundedCondition = parseBounds(cond, h);
  if (!h.boundedCondition)
    h.bounds.clear();
  return true;
}

llvm::SmallVector<const cl::Expr *>
importer::conjuncts(const cl::Expr *cond) {
  llvm::SmallVector<const cl::Expr *> terms, work{cond};
  while (!work.empty()) {
    const cl::Expr *t = strip(work.pop_back_val());
    const auto *bin = dyn_cast<cl::BinaryOperator>(t);
    if (bin && bin->getOpcode() == cl::BO_LAnd) {
      work.push_back(bin->getRHS());
      work.push_back(bin->getLHS());
      continue;
    }
    terms.push_back(t);
  }
  return terms;
}

bool RegionImporter::parseBounds(const cl::Expr *cond, ForHeader &h) {
  for (const cl::Expr *t : conjuncts(cond)) {
    const auto *bin = dyn_cast<cl::BinaryOperator>(t);
    if (!bin || !bin->isRelationalOp() ||
        !bin->getLHS()->getType()->isIntegerType())
      return false;
    cl::BinaryOperatorKind op = bin->getOpcode();
    const cl::Expr *bound = nullptr;
    if (refVar(bin->getLHS()) == h.iv) {
      bound = bin->getRHS();
    } else if (refVar(bin->getRHS()) == h.iv) {
      bound = bin->getLHS();
      op = op == cl::BO_LT   ? cl::BO_GT
           : op == cl::BO_GT ? cl::BO_LT
           : op == cl::BO_LE ? cl::BO_GE
                             : cl::BO_LE;
    } else {
      return false;
    }
    bool upper = op == cl::BO_LT || op == cl::BO_LE;
    if (upper != h.increasing)
      return false;
    int64_t offset = (op == cl::BO_LE || op == cl::BO_GT) ? 1 : 0;
    h.bounds.push_back({bound, offset});
  }
  return true;
}

cl::SourceLocation RegionImporter::firstWrite(const cl::VarDecl *var,
                                             const cl::Stmt *s) const {
  cl::SourceLocation found;
  std::function<void(const cl::Stmt *)> walk = [&](const cl::Stmt *s) {
    if (!s || found.isValid())
      return;
    bool element = false;
    const cl::Expr *target = nullptr;
    if (const auto *bin = dyn_cast<cl::BinaryOperator>(s);
        bin && bin->isAssignmentOp())
      target = bin->getLHS();
    if (const auto *un = dyn_cast<cl::UnaryOperator>(s);
        un && un->isIncrementDecrementOp())
      target = un->getSubExpr();
    if (target && baseVar(target, element) == var && !element) {
      found = s->getBeginLoc();
      return;
    }
    for (const cl::Stmt *c : s->children())
      walk(c);
  };
  if (s)
    walk(s);
  else
    for (const cl::Stmt *st : region.stmts)
      walk(st);
  return found.isValid() ? found : var->getLocation();
}

bool RegionImporter::isAfterRegion(cl::SourceLocation l) const {
  return sm.isBeforeInTranslationUnit(region.endLoc, sm.getExpansionLoc(l));
}

bool RegionImporter::isInRegion(cl::SourceLocation l) const {
  l = sm.getExpansionLoc(l);
  return sm.isBeforeInTranslationUnit(region.beginLoc, l) &&
         sm.isBeforeInTranslationUnit(l, region.endLoc);
}

namespace {
/// Finds an expression naming `var` outside the region.
struct OutsideReference : cl::RecursiveASTVisitor<OutsideReference> {
  const cl::VarDecl *var;
  llvm::function_ref<bool(cl::SourceLocation)> inRegion;
  bool found = false;
  bool VisitDeclRefExpr(cl::DeclRefExpr *ref) {
    found = ref->getDecl() == var && !inRegion(ref->getLocation());
    return !found;
  }
};
} // namespace

/// Whether no code outside the region can see `var`'s elements: an array
/// or an arithmetic scalar (a pointer may alias others) that is a local of
/// the region's function or has internal linkage, named by no expression
/// outside the region. Then nothing reads what the region leaves in it.
bool RegionImporter::usedOnlyInRegion(const cl::VarDecl *var) {
  if (!(var->getType()->isArrayType() || var->getType()->isArithmeticType()) ||
      isa<cl::ParmVarDecl>(var) || var->getType().isVolatileQualified())
    return false;
  auto inRegion = [&](cl::SourceLocation l) { return isInRegion(l); };
  OutsideReference finder;
  finder.var = var;
  finder.inRegion = inRegion;
  if (var->isLocalVarDecl())
    finder.TraverseStmt(region.function->getBody());
  else if (!var->isExternallyVisible())
    finder.TraverseDecl(ctx.getTranslationUnitDecl());
  else
    return false;
  return !finder.found;
}

/// Every reference to an iterator must sit in one of its loops' bodies (or
/// headers), and the loops must not write it in their bodies.
bool RegionImporter::checkIteratorUses() {
  auto insideLoopOf = [&](const cl::Expr *e, const cl::VarDecl *var) {
    auto it = iteratorLoops.find(var);
    if (it == iteratorLoops.end())
      return false;
    cl::SourceLocation l = sm.getExpansionLoc(e->getBeginLoc());
    for (const cl::ForStmt *loop : it->second) {
      cl::SourceLocation lb = sm.getExpansionLoc(loop->getBeginLoc());
      cl::SourceLocation le =
          sm.getExpansionRange(loop->getEndLoc()).getEnd();
      if (!sm.isBeforeInTranslationUnit(l, lb) &&
          !sm.isBeforeInTranslationUnit(le, l))
        return true;
    }
    return false;
  };
  for (auto &[var, loops] : iteratorLoops) {
    bool ok = true;
    for (const cl::DeclRefExpr *ref : refs)
      if (ref->getDecl() == var && !insideLoopOf(ref, var)) {
        ok = false;
        error(ref->getLocation(),
              "loop iterator '" + var->getName() +
                  "' is used outside its loops in the scop region; this is "
                  "not supported");
        break;
      }
    if (ok)
      vars[var].kind = VarKind::Iterator;
  }
  return !failed;
}

/// Whether code after the region overwrites `var` before any read of it, so
/// that the region's final value of it is dead: every reference to it after
/// the region (`later`) lies in a `for` statement whose init is `var = e`
/// (e not naming var), so it runs after that init, and the function has no
/// goto that could enter such a loop past its init. The common
/// `for (i = 0; ...)` loops that print the results then need no final value
/// of the region's iterators, which would make its nests imperfect.
bool RegionImporter::overwrittenAfterRegion(
    const cl::VarDecl *var,
    llvm::ArrayRef<const cl::DeclRefExpr *> later) const {
  std::function<bool(const cl::Stmt *)> jumps = [&](const cl::Stmt *s) {
    if (!s)
      return false;
    if (isa<cl::GotoStmt, cl::IndirectGotoStmt>(s))
      return true;
    return llvm::any_of(s->children(), jumps);
  };
  std::function<bool(const cl::Stmt *, const cl::Stmt *)> holds =
      [&](const cl::Stmt *s, const cl::Stmt *ref) {
        return s && (s == ref || llvm::any_of(s->children(), [&](auto *c) {
                       return holds(c, ref);
                     }));
      };
  if (jumps(region.function->getBody()))
    return false;
  // The loops after the region that start by assigning var.
  llvm::SmallVector<const cl::ForStmt *> resets;
  std::function<void(const cl::Stmt *)> find = [&](const cl::Stmt *s) {
    if (!s)
      return;
    if (const auto *loop = dyn_cast<cl::ForStmt>(s))
      if (const auto *init =
              llvm::dyn_cast_or_null<cl::BinaryOperator>(loop->getInit()))
        if (init->getOpcode() == cl::BO_Assign &&
            isAfterRegion(loop->getForLoc()))
          if (const auto *lhs =
                  dyn_cast<cl::DeclRefExpr>(init->getLHS()->IgnoreParens()))
            if (lhs->getDecl() == var)
              resets.push_back(loop);
    for (const cl::Stmt *c : s->children())
      find(c);
  };
  find(region.function->getBody());
  for (const cl::DeclRefExpr *ref : later) {
    if (ref->getDecl() != var)
      continue;
    bool covered = llvm::any_of(resets, [&](const cl::ForStmt *loop) {
      const auto *init = llvm::cast<cl::BinaryOperator>(loop->getInit());
      return holds(loop, ref) && !holds(init->getRHS(), ref);
    });
    if (!covered)
      return false;
  }
  return true;
}

/// Region locals disappear with the region, so they must not be used after
/// it; iterators used after it must get the value C would leave in them.
bool RegionImporter::checkLiveness() {
  const cl::FunctionDecl *fn = region.function;
  // References that may run after the region: those after it, and, in a
  // loop around it, those before it (the next iteration runs them).
  llvm::SmallVector<const cl::DeclRefExpr *> later;
  auto aroundRegion = [&](const cl::Stmt *s) {
    if (!isa<cl::ForStmt, cl::WhileStmt, cl::DoStmt>(s))
      return false;
    cl::SourceLocation b = sm.getExpansionLoc(s->getBeginLoc());
    cl::SourceLocation e = sm.getExpansionRange(s->getEndLoc()).getEnd();
    return sm.isBeforeInTranslationUnit(b, region.beginLoc) &&
           sm.isBeforeInTranslationUnit(region.endLoc, e);
  };
  std::function<void(const cl::Stmt *, bool)> walk = [&](const cl::Stmt *s,
                                                         bool inLoop) {
    if (!s)
      return;
    inLoop |= aroundRegion(s);
    if (const auto *ref = dyn_cast<cl::DeclRefExpr>(s))
      if (isAfterRegion(ref->getLocation()) ||
          (inLoop && !isInRegion(ref->getLocation())))
        later.push_back(ref);
    for (const cl::Stmt *c : s->children())
      walk(c, inLoop);
  };
  walk(fn->getBody(), false);
  llvm::sort(later, [&](const cl::DeclRefExpr *a, const cl::DeclRefExpr *c) {
    return sm.isBeforeInTranslationUnit(sm.getExpansionLoc(a->getLocation()),
                                        sm.getExpansionLoc(c->getLocation()));
  });
  llvm::SmallPtrSet<const cl::VarDecl *, 8> seen;
  for (const cl::DeclRefExpr *ref : later) {
    const auto *var = dyn_cast<cl::VarDecl>(ref->getDecl());
    if (!var || !seen.insert(var).second)
      continue;
    auto it = vars.find(var);
    if (it == vars.end())
      continue;
    if (regionDecls.contains(var)) {
      error(ref->getLocation(),
            "'" + var->getName() +
                "' is declared in the scop region and used after it");
      continue;
    }
    // An iterator read after the region gets its final value written back,
    // unless the code after the region overwrites it first.
    if (it->second.kind == VarKind::Iterator &&
        !overwrittenAfterRegion(var, later))
      it->second.liveOut = true;
  }
  // Iterators with static storage may be read anywhere.
  for (auto &[var, info] : vars)
    if (info.kind == VarKind::Iterator && var->hasGlobalStorage())
      info.liveOut = true;
  return !failed;
}

/// The deepest nesting of statements and expressions the importer accepts:
/// it recurses over them (as do the MLIR walks over the regions of `?:`,
/// `&&` and `||`), so deeper input would overflow the stack. Clang stops
/// at 256 nested brackets by default; a chain of 10,000 `?:` or a sum of
/// 20,000 terms is this deep without any.
static constexpr unsigned kMaxNesting = 1000;

/// The first statement or expression nested deeper than kMaxNesting under
/// `root`, found without recursion; null if none.
static const cl::Stmt *tooDeep(const cl::Stmt *root) {
  llvm::SmallVector<std::pair<const cl::Stmt *, unsigned>, 64> stack{{root, 0}};
  while (!stack.empty()) {
    auto [s, depth] = stack.pop_back_val();
    if (!s)
      continue;
    if (depth > kMaxNesting)
      return s;
    for (const cl::Stmt *child : s->children())
      stack.push_back({child, depth + 1});
  }
  return nullptr;
}

bool RegionImporter::analyze() {
  for (const cl::Stmt *s : region.stmts)
    if (const cl::Stmt *deep = tooDeep(s))
      return error(deep->getBeginLoc(),
                   "statements and expressions nested more than " +
                       llvm::Twine(kMaxNesting) +
                       " levels deep are not supported in a scop region");
  for (const cl::Stmt *s : region.stmts)
    scan(s);
  if (failed)
    return false;
  if (!checkIteratorUses())
    return false;
  for (auto &[var, info] : vars) {
    if (info.kind == VarKind::Iterator)
      continue;
    cl::QualType type = var->getType();
    bool arrayLike = type->isArrayType() || type->isPointerType();
    if (var->isStaticLocal() && regionDecls.contains(var))
      return error(var->getLocation(),
                   "static variables in a scop region are not supported");
    if (arrayLike) {
      if (scalarWrites.contains(var))
        return error(firstWrite(var),
                     "assigning to array or pointer '" + var->getName() +
                         "' in a scop region is not supported");
      info.kind = VarKind::Array;
      continue;
    }
    if (regionDecls.contains(var))
      info.kind = VarKind::Local;
    else if (scalarWrites.contains(var))
      info.kind = VarKind::ScalarRef;
    else
      info.kind = VarKind::ScalarValue;
  }
  return checkLiveness();
}

