//===- ImportStatements.cpp -------------------------------------*- C++ -*-===//
//
// Statements of a region: affine expressions and bounds, the three loop
// forms (affine.for, scf.for, scf.while), ifs and declarations.
//
//===----------------------------------------------------------------------===//
#include "RegionImporter.h"
#include "weft/Support/SourceNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IntegerSet.h"
#include "clang/Basic/SourceManager.h"

using namespace weft;
using namespace weft::importer;

//===----------------------------------------------------------------------===//
// Affine expressions
//===----------------------------------------------------------------------===//

const IterBinding *RegionImporter::iterator(const cl::VarDecl *var) const {
  auto it = iterScopes.find(var);
  if (it == iterScopes.end() || it->second.empty())
    return nullptr;
  return &it->second.back();
}

std::optional<mlir::AffineExpr>
RegionImporter::affineOf(const cl::Expr *e, AffineOperands &ops) {
  e = e->IgnoreParens();
  if (e->getType()->isIntegerType() && !e->HasSideEffects(ctx))
    if (std::optional<llvm::APSInt> c = e->getIntegerConstantExpr(ctx))
      return b.getAffineConstantExpr(c->getExtValue());
  // Unsigned arithmetic wraps; affine maps compute on unbounded integers.
  if (isUnsigned(e->getType()))
    return std::nullopt;
  if (const auto *cast = dyn_cast<cl::CastExpr>(e)) {
    switch (cast->getCastKind()) {
    case cl::CK_IntegralCast:
      // Only widening keeps the value; a narrowing cast may wrap.
      if (ctx.getTypeSize(cast->getType()) <
          ctx.getTypeSize(cast->getSubExpr()->getType()))
        return std::nullopt;
      [[fallthrough]];
    case cl::CK_LValueToRValue:
    case cl::CK_NoOp:
      if (cast->getSubExpr()->getType()->isIntegerType())
        return affineOf(cast->getSubExpr(), ops);
      return std::nullopt;
    default:
      return std::nullopt;
    }
  }
  if (const auto *ref = dyn_cast<cl::DeclRefExpr>(e)) {
    const auto *var = dyn_cast<cl::VarDecl>(ref->getDecl());
    if (!var)
      return std::nullopt;
    if (const IterBinding *it = iterator(var))
      return it->affine ? std::optional(b.getAffineDimExpr(ops.dim(it->index)))
                        : std::nullopt;
    auto vit = vars.find(var);
    if (vit != vars.end() && vit->second.symbol)
      return b.getAffineSymbolExpr(ops.symbol(vit->second.symbol));
    return std::nullopt;
  }
  if (const auto *un = dyn_cast<cl::UnaryOperator>(e)) {
    if (un->getOpcode() == cl::UO_Minus)
      if (auto x = affineOf(un->getSubExpr(), ops))
        return -*x;
    if (un->getOpcode() == cl::UO_Plus)
      return affineOf(un->getSubExpr(), ops);
    return std::nullopt;
  }
  if (const auto *bin = dyn_cast<cl::BinaryOperator>(e)) {
    cl::BinaryOperatorKind op = bin->getOpcode();
    if (op != cl::BO_Add && op != cl::BO_Sub && op != cl::BO_Mul)
      return std::nullopt;
    auto l = affineOf(bin->getLHS(), ops);
    if (!l)
      return std::nullopt;
    auto r = affineOf(bin->getRHS(), ops);
    if (!r)
      return std::nullopt;
    if (op == cl::BO_Add)
      return *l + *r;
    if (op == cl::BO_Sub)
      return *l - *r;
    if (!l->isSymbolicOrConstant() && !r->isSymbolicOrConstant())
      return std::nullopt;
    if (!llvm::isa<mlir::AffineConstantExpr>(*l) &&
        !llvm::isa<mlir::AffineConstantExpr>(*r))
      return std::nullopt; // symbol * symbol or symbol * dim: not affine
    return *l * *r;
  }
  return std::nullopt;
}

bool RegionImporter::sameAffine(const cl::Expr *x, const cl::Expr *y) {
  AffineOperands ops;
  auto ax = affineOf(x, ops);
  auto ay = affineOf(y, ops);
  return ax && ay && *ax == *ay;
}

/// Splits a bound into the affine pieces of a max (lower bounds) or min
/// (upper bounds) written with `?:`, adding `offset` to each.
bool RegionImporter::affineBoundList(
    const cl::Expr *e, bool wantMax, int64_t offset, AffineOperands &ops,
    llvm::SmallVectorImpl<mlir::AffineExpr> &out) {
  e = e->IgnoreParens();
  while (const auto *cast = dyn_cast<cl::ImplicitCastExpr>(e)) {
    bool widening = cast->getCastKind() == cl::CK_IntegralCast &&
                    ctx.getTypeSize(cast->getType()) >=
                        ctx.getTypeSize(cast->getSubExpr()->getType());
    if (!widening && cast->getCastKind() != cl::CK_NoOp)
      break;
    e = cast->getSubExpr()->IgnoreParens();
  }
  if (const auto *c = dyn_cast<cl::ConditionalOperator>(e)) {
    const auto *cmp = dyn_cast<cl::BinaryOperator>(strip(c->getCond()));
    if (cmp && cmp->isRelationalOp()) {
      const cl::Expr *x = c->getTrueExpr(), *y = c->getFalseExpr();
      bool greater = cmp->getOpcode() == cl::BO_GT ||
                     cmp->getOpcode() == cl::BO_GE;
      // `a > b ? a : b` is max(a, b); `a < b ? a : b` is min(a, b).
      bool direct = sameAffine(cmp->getLHS(), x) && sameAffine(cmp->getRHS(), y);
      bool swapped =
          sameAffine(cmp->getLHS(), y) && sameAffine(cmp->getRHS(), x);
      bool isMax = (direct && greater) || (swapped && !greater);
      bool isMin = (direct && !greater) || (swapped && greater);
      if ((wantMax && isMax) || (!wantMax && isMin))
        return affineBoundList(x, wantMax, offset, ops, out) &&
               affineBoundList(y, wantMax, offset, ops, out);
    }
  }
  auto a = affineOf(e, ops);
  if (!a)
    return false;
  out.push_back(*a + offset);
  return true;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

bool RegionImporter::emitStmt(const cl::Stmt *s) {
  if (failed)
    return false;
  if (const auto *block = dyn_cast<cl::CompoundStmt>(s)) {
    for (const cl::Stmt *child : block->body())
      if (!emitStmt(child))
        return false;
    return true;
  }
  if (isa<cl::NullStmt>(s))
    return true;
  if (const auto *ds = dyn_cast<cl::DeclStmt>(s)) {
    for (const cl::Decl *d : ds->decls()) {
      const auto *var = dyn_cast<cl::VarDecl>(d);
      if (!var)
        return error(d->getLocation(),
                     "only variable declarations are supported in a scop "
                     "region");
      if (!emitDecl(var))
        return false;
    }
    return true;
  }
  if (const auto *loop = dyn_cast<cl::ForStmt>(s))
    return emitFor(loop);
  if (const auto *ifs = dyn_cast<cl::IfStmt>(s))
    return emitIf(ifs);
  if (const auto *e = dyn_cast<cl::Expr>(s))
    return emitRValue(e) != nullptr || !failed;
  if (const auto *loop = dyn_cast<cl::WhileStmt>(s)) {
    if (loop->getConditionVariable())
      return error(s->getBeginLoc(), "declarations in a 'while' condition "
                                     "are not supported");
    return emitWhile(s, loop->getCond(), loop->getBody(), /*bodyFirst=*/false);
  }
  if (const auto *loop = dyn_cast<cl::DoStmt>(s))
    return emitWhile(s, loop->getCond(), loop->getBody(), /*bodyFirst=*/true);
  if (isa<cl::ReturnStmt, cl::BreakStmt, cl::ContinueStmt, cl::GotoStmt>(s))
    return error(s->getBeginLoc(),
                 "jumps (return, break, continue, goto) are not supported in "
                 "a scop region");
  return error(s->getBeginLoc(),
               describe(s) + " is not supported in a scop region");
}

bool RegionImporter::emitDecl(const cl::VarDecl *var) {
  VarInfo &info = vars[var];
  // An iterator declared in the region lives only in its loops, which bind
  // it; an initial value is dead, as every use sits inside those loops.
  if (info.kind == VarKind::Iterator)
    return !var->getInit() || !var->getInit()->HasSideEffects(ctx) ||
           emitRValue(var->getInit());
  mlir::Location l = loc(var->getLocation());
  if (info.kind == VarKind::Array) {
    llvm::SmallVector<int64_t> shape;
    cl::QualType elem;
    if (!arrayShape(var->getType(), var->getLocation(), shape, elem))
      return false;
    if (var->getType()->isPointerType() ||
        llvm::any_of(shape, mlir::ShapedType::isDynamic))
      return error(var->getLocation(),
                   "arrays declared in a scop region must have constant "
                   "sizes");
    if (var->hasInit())
      return error(var->getLocation(),
                   "initialisers of arrays declared in a scop region are not "
                   "supported");
    info.value = b.create<mlir::memref::AllocaOp>(
        withSourceName(l, var->getName()),
        mlir::MemRefType::get(shape, scalarType(elem, var->getLocation())));
    return true;
  }
  mlir::Type t = scalarType(var->getType(), var->getLocation());
  if (!t)
    return false;
  info.kind = VarKind::Local;
  info.value = b.create<mlir::memref::AllocaOp>(
      withSourceName(l, var->getName()), mlir::MemRefType::get({}, t));
  if (const cl::Expr *init = var->getInit()) {
    Value v = emitRValue(init);
    if (!v)
      return false;
    b.create<mlir::affine::AffineStoreOp>(l, v, info.value,
                                          mlir::AffineMap::get(mctx),
                                          mlir::ValueRange{});
  }
  return true;
}

/// The location of a loop's induction variable that is the iterator `iv`:
/// its name and, for a signed iterator narrower than 64 bits, its C type
/// (narrow-iterators prints an `int` iterator as `int` where it can).
mlir::Location RegionImporter::iteratorLoc(mlir::Location l,
                                           const cl::VarDecl *iv) {
  l = withSourceName(l, iv->getName());
  cl::QualType type = iv->getType().getCanonicalType();
  if (!type->isSignedIntegerType() || ctx.getTypeSize(type) >= 64)
    return l;
  return withSourceType(l, b.getIntegerType(ctx.getTypeSize(type)));
}

bool RegionImporter::emitFor(const cl::ForStmt *loop) {
  ForHeader h;
  if (!parseForHeader(loop, h, /*report=*/true))
    return false;
  if (vars.lookup(h.iv).kind != VarKind::Iterator)
    return error(loop->getBeginLoc(), "unsupported loop iterator");
  if (writtenVars(loop->getBody()).contains(h.iv))
    return error(firstWrite(h.iv, loop->getBody()),
                 "loop iterator '" + h.iv->getName() +
                     "' is modified in the loop body; this is not supported");
  // An unsigned iterator may wrap around where an induction variable would
  // not: it takes the path that evaluates C's own condition every time.
  if (isUnsigned(h.iv->getType()) || !h.boundedCondition)
    return emitWhileFor(loop, h);
  if (emitAffineFor(loop, h))
    return true;
  if (failed)
    return false;
  if (boundsInvariant(loop, h))
    return emitScfFor(loop, h);
  return emitWhileFor(loop, h);
}

/// The conservative path for a `for` whose condition may change while it
/// runs: the iterator lives in memory and the condition is evaluated before
/// every iteration, as C does.
bool RegionImporter::emitWhileFor(const cl::ForStmt *loop, const ForHeader &h) {
  mlir::Location l = loc(loop);
  Value start = emitIndex(h.init);
  if (!start)
    return false;
  Value slot = b.create<mlir::memref::AllocaOp>(
      withSourceName(l, h.iv->getName()),
      mlir::MemRefType::get({}, b.getIndexType()));
  b.create<mlir::memref::StoreOp>(l, start, slot);
  auto whileOp = b.create<mlir::scf::WhileOp>(l, mlir::TypeRange{},
                                              mlir::ValueRange{});
  mlir::OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(b.createBlock(&whileOp.getBefore()));
  iterScopes[h.iv].push_back({b.create<mlir::memref::LoadOp>(l, slot), false});
  Value cond = emitCond(loop->getCond());
  iterScopes[h.iv].pop_back();
  if (!cond)
    return false;
  b.create<mlir::scf::ConditionOp>(l, cond, mlir::ValueRange{});
  b.setInsertionPointToStart(b.createBlock(&whileOp.getAfter()));
  Value iv = b.create<mlir::memref::LoadOp>(l, slot);
  iterScopes[h.iv].push_back({iv, false});
  emitStmt(loop->getBody());
  iterScopes[h.iv].pop_back();
  Value step = b.create<mlir::arith::ConstantIndexOp>(l, h.step);
  Value next = h.increasing ? Value(b.create<mlir::arith::AddIOp>(l, iv, step))
                            : Value(b.create<mlir::arith::SubIOp>(l, iv, step));
  b.create<mlir::memref::StoreOp>(l, next, slot);
  b.create<mlir::scf::YieldOp>(l);
  if (vars[h.iv].liveOut) {
    b.setInsertionPointAfter(whileOp);
    Value final = b.create<mlir::memref::LoadOp>(l, slot);
    Value memref = vars[h.iv].value;
    mlir::Type t =
        llvm::cast<mlir::MemRefType>(memref.getType()).getElementType();
    b.create<mlir::memref::StoreOp>(
        l, b.create<mlir::arith::IndexCastOp>(l, t, final), memref);
  }
  return !failed;
}

/// `while (c) s` and `do s while (c)`: the condition is evaluated where C
/// evaluates it, every time.
bool RegionImporter::emitWhile(const cl::Stmt *stmt, const cl::Expr *condExpr,
                               const cl::Stmt *body, bool bodyFirst) {
  mlir::Location l = loc(stmt);
  auto whileOp = b.create<mlir::scf::WhileOp>(l, mlir::TypeRange{},
                                              mlir::ValueRange{});
  mlir::OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(b.createBlock(&whileOp.getBefore()));
  if (bodyFirst && !emitStmt(body))
    return false;
  Value cond = emitCond(condExpr);
  if (!cond)
    return false;
  b.create<mlir::scf::ConditionOp>(l, cond, mlir::ValueRange{});
  b.setInsertionPointToStart(b.createBlock(&whileOp.getAfter()));
  if (!bodyFirst && !emitStmt(body))
    return false;
  b.create<mlir::scf::YieldOp>(l);
  return true;
}

bool RegionImporter::emitAffineFor(const cl::ForStmt *loop,
                                   const ForHeader &h) {
  mlir::Location l = loc(loop);
  AffineOperands ops;
  llvm::SmallVector<mlir::AffineExpr> lbs, ubs;
  if (h.increasing) {
    if (!affineBoundList(h.init, /*wantMax=*/true, 0, ops, lbs))
      return false;
    for (auto &[bound, offset] : h.bounds)
      if (!affineBoundList(bound, /*wantMax=*/false, offset, ops, ubs))
        return false;
  } else {
    // for (i = s; i >= lo; i -= c): k runs over [0, s - lo + 1), i = s - k.
    auto start = affineOf(h.init, ops);
    if (!start)
      return false;
    lbs.push_back(b.getAffineConstantExpr(0));
    for (auto &[bound, offset] : h.bounds) {
      llvm::SmallVector<mlir::AffineExpr> los;
      if (!affineBoundList(bound, /*wantMax=*/true, offset, ops, los))
        return false;
      for (mlir::AffineExpr lo : los)
        ubs.push_back(*start - lo + 1);
    }
    auto operands = ops.all();
    unsigned nd = ops.dims.size(), ns = ops.symbols.size();
    auto lbMap = mlir::AffineMap::get(nd, ns, lbs, mctx);
    auto ubMap = mlir::AffineMap::get(nd, ns, ubs, mctx);
    auto forOp = createAffineFor(l, lbMap, ubMap, operands, h.step);
    // The loop counts up; the iterator is `start - counter`.
    forOp.getInductionVar().setLoc(
        withSourceName(l, (h.iv->getName() + "_rev").str()));
    imported->loops.push_back(
        {loop->getBeginLoc(), forOp, h.iv->getName().str()});
    mlir::OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(forOp.getBody());
    llvm::SmallVector<Value> applyOps(ops.dims);
    applyOps.push_back(forOp.getInductionVar());
    applyOps.append(ops.symbols.begin(), ops.symbols.end());
    auto ivMap = mlir::AffineMap::get(
        nd + 1, ns, *start - b.getAffineDimExpr(nd), mctx);
    Value iv = b.create<mlir::affine::AffineApplyOp>(
        withSourceName(l, h.iv->getName()), ivMap, applyOps);
    iterScopes[h.iv].push_back({iv, true});
    emitStmt(loop->getBody());
    iterScopes[h.iv].pop_back();
    if (vars[h.iv].liveOut) {
      b.setInsertionPointAfter(forOp);
      Value first = b.create<mlir::affine::AffineApplyOp>(
          l, mlir::AffineMap::get(nd, ns, *start, mctx), operands);
      Value range = b.create<mlir::affine::AffineMinOp>(l, ubMap, operands);
      storeFinalValue(h, first, range, l);
    }
    return true;
  }
  auto operands = ops.all();
  unsigned nd = ops.dims.size(), ns = ops.symbols.size();
  auto lbMap = mlir::AffineMap::get(nd, ns, lbs, mctx);
  auto ubMap = mlir::AffineMap::get(nd, ns, ubs, mctx);
  auto forOp = createAffineFor(l, lbMap, ubMap, operands, h.step);
  forOp.getInductionVar().setLoc(iteratorLoc(l, h.iv));
  imported->loops.push_back({loop->getBeginLoc(), forOp, h.iv->getName().str()});
  mlir::OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forOp.getBody());
  iterScopes[h.iv].push_back({forOp.getInductionVar(), true});
  emitStmt(loop->getBody());
  iterScopes[h.iv].pop_back();
  if (vars[h.iv].liveOut) {
    b.setInsertionPointAfter(forOp);
    Value first = b.create<mlir::affine::AffineMaxOp>(l, lbMap, operands);
    Value last = b.create<mlir::affine::AffineMinOp>(l, ubMap, operands);
    storeFinalValue(h, first,
                    b.create<mlir::arith::SubIOp>(l, last, first), l);
  }
  // An affine loop was emitted; errors inside it are reported already.
  return true;
}

/// An affine.for whose bound maps keep only the operands they use.
mlir::affine::AffineForOp
RegionImporter::createAffineFor(mlir::Location l, mlir::AffineMap lbMap,
                                mlir::AffineMap ubMap,
                                llvm::ArrayRef<Value> operands, int64_t step) {
  llvm::SmallVector<Value> lbOperands(operands), ubOperands(operands);
  mlir::affine::canonicalizeMapAndOperands(&lbMap, &lbOperands);
  mlir::affine::canonicalizeMapAndOperands(&ubMap, &ubOperands);
  return b.create<mlir::affine::AffineForOp>(l, lbOperands, lbMap, ubOperands,
                                             ubMap, step);
}

/// C evaluates a loop condition before every iteration; scf.for evaluates
/// its bounds once. That is the same only if the body changes nothing a
/// bound reads. Arrays reached through pointers may alias any other array
/// the body writes; only distinct array objects are known to be disjoint.
bool RegionImporter::boundsInvariant(const cl::ForStmt *loop,
                                     const ForHeader &h) {
  llvm::SmallPtrSet<const cl::VarDecl *, 8> writes = writtenVars(loop->getBody());
  writes.insert(h.iv);
  // `restrict` pointers promise what array objects guarantee.
  auto mayAlias = [](const cl::VarDecl *v) {
    return v->getType()->isPointerType() &&
           !v->getType().isRestrictQualified();
  };
  auto isObject = [&](const cl::VarDecl *v) {
    return (v->getType()->isArrayType() || v->getType()->isPointerType()) &&
           !mayAlias(v);
  };
  bool writesObject = llvm::any_of(writes, isObject);
  bool writesPointer = llvm::any_of(writes, mayAlias);
  bool invariant = true;
  std::function<void(const cl::Stmt *)> walk = [&](const cl::Stmt *s) {
    if (!s || !invariant)
      return;
    if (const auto *ref = dyn_cast<cl::DeclRefExpr>(s))
      if (const auto *var = dyn_cast<cl::VarDecl>(ref->getDecl()))
        invariant = !writes.contains(var) &&
                    !(mayAlias(var) && (writesObject || writesPointer)) &&
                    !(isObject(var) && writesPointer);
    for (const cl::Stmt *c : s->children())
      walk(c);
  };
  for (auto &[bound, offset] : h.bounds) {
    invariant &= !bound->HasSideEffects(ctx);
    walk(bound);
  }
  return invariant;
}

bool RegionImporter::emitScfFor(const cl::ForStmt *loop, const ForHeader &h) {
  mlir::Location l = loc(loop);
  Value init = emitIndex(h.init);
  if (!init)
    return false;
  Value limit;
  for (auto &[bound, offset] : h.bounds) {
    Value v = emitIndex(bound);
    if (!v)
      return false;
    if (offset)
      v = b.create<mlir::arith::AddIOp>(
          l, v, b.create<mlir::arith::ConstantIndexOp>(l, offset));
    if (!limit)
      limit = v;
    else if (h.increasing)
      limit = b.create<mlir::arith::MinSIOp>(l, limit, v);
    else
      limit = b.create<mlir::arith::MaxSIOp>(l, limit, v);
  }
  Value step = b.create<mlir::arith::ConstantIndexOp>(l, h.step);
  Value lb = init, ub = limit;
  if (!h.increasing) {
    // k in [0, init - limit + 1), iv = init - k.
    Value one = b.create<mlir::arith::ConstantIndexOp>(l, 1);
    lb = b.create<mlir::arith::ConstantIndexOp>(l, 0);
    ub = b.create<mlir::arith::AddIOp>(
        l, b.create<mlir::arith::SubIOp>(l, init, limit), one);
  }
  auto forOp = b.create<mlir::scf::ForOp>(l, lb, ub, step);
  forOp.getInductionVar().setLoc(
      h.increasing ? iteratorLoc(l, h.iv)
                   : withSourceName(l, (h.iv->getName() + "_rev").str()));
  imported->loops.push_back({loop->getBeginLoc(), forOp, h.iv->getName().str()});
  mlir::OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forOp.getBody());
  Value iv = forOp.getInductionVar();
  if (!h.increasing)
    iv = b.create<mlir::arith::SubIOp>(withSourceName(l, h.iv->getName()), init,
                                       iv);
  iterScopes[h.iv].push_back({iv, false});
  emitStmt(loop->getBody());
  iterScopes[h.iv].pop_back();
  if (vars[h.iv].liveOut) {
    b.setInsertionPointAfter(forOp);
    storeFinalValue(h, init, b.create<mlir::arith::SubIOp>(l, ub, lb), l);
  }
  return !failed;
}

/// After `for (iv = first; ...; iv += s)` has run over a range of `range`
/// values (not iterations), C leaves `first +/- ceil(max(range, 0) / s) * s`
/// in the iterator; store it where code after the region will read it.
void RegionImporter::storeFinalValue(const ForHeader &h, Value first,
                                     Value range, mlir::Location l) {
  auto cst = [&](int64_t v) -> Value {
    return b.create<mlir::arith::ConstantIndexOp>(l, v);
  };
  Value positive = b.create<mlir::arith::MaxSIOp>(l, range, cst(0));
  Value trips = b.create<mlir::arith::DivSIOp>(
      l, b.create<mlir::arith::AddIOp>(l, positive, cst(h.step - 1)),
      cst(h.step));
  Value distance = b.create<mlir::arith::MulIOp>(l, trips, cst(h.step));
  Value final = h.increasing
                    ? Value(b.create<mlir::arith::AddIOp>(l, first, distance))
                    : Value(b.create<mlir::arith::SubIOp>(l, first, distance));
  Value memref = vars[h.iv].value;
  mlir::Type t = llvm::cast<mlir::MemRefType>(memref.getType()).getElementType();
  b.create<mlir::affine::AffineStoreOp>(
      l, b.create<mlir::arith::IndexCastOp>(l, t, final), memref,
      mlir::AffineMap::get(mctx), mlir::ValueRange{});
}

bool RegionImporter::emitIf(const cl::IfStmt *stmt) {
  mlir::Location l = loc(stmt);
  if (stmt->getInit() || stmt->getConditionVariable())
    return error(stmt->getBeginLoc(),
                 "declarations in an 'if' condition are not supported");
  // Affine conditions: comparisons of affine expressions joined by &&.
  AffineOperands ops;
  llvm::SmallVector<mlir::AffineExpr> constraints;
  llvm::SmallVector<bool> eqFlags;
  bool affine = true;
  for (const cl::Expr *t : conjuncts(stmt->getCond())) {
    const auto *bin = dyn_cast<cl::BinaryOperator>(t);
    if (!bin || !(bin->isRelationalOp() || bin->getOpcode() == cl::BO_EQ) ||
        !bin->getLHS()->getType()->isIntegerType() ||
        !bin->getRHS()->getType()->isIntegerType()) {
      affine = false;
      break;
    }
    auto x = affineOf(bin->getLHS(), ops);
    auto y = x ? affineOf(bin->getRHS(), ops) : std::nullopt;
    if (!x || !y) {
      affine = false;
      break;
    }
    switch (bin->getOpcode()) {
    case cl::BO_GE: constraints.push_back(*x - *y); break;
    case cl::BO_GT: constraints.push_back(*x - *y - 1); break;
    case cl::BO_LE: constraints.push_back(*y - *x); break;
    case cl::BO_LT: constraints.push_back(*y - *x - 1); break;
    default: constraints.push_back(*x - *y); break;
    }
    eqFlags.push_back(bin->getOpcode() == cl::BO_EQ);
  }
  if (affine) {
    auto set = mlir::IntegerSet::get(ops.dims.size(), ops.symbols.size(),
                                     constraints, eqFlags);
    llvm::SmallVector<Value> setOperands = ops.all();
    mlir::affine::canonicalizeSetAndOperands(&set, &setOperands);
    auto ifOp = b.create<mlir::affine::AffineIfOp>(
        l, set, setOperands, /*withElseRegion=*/stmt->getElse() != nullptr);
    return emitBranches(stmt, ifOp.getThenBlock(),
                        stmt->getElse() ? ifOp.getElseBlock() : nullptr);
  }
  Value cond = emitCond(stmt->getCond());
  if (!cond)
    return false;
  auto ifOp = b.create<mlir::scf::IfOp>(l, cond,
                                        /*withElseRegion=*/stmt->getElse() !=
                                            nullptr);
  return emitBranches(stmt, ifOp.thenBlock(),
                      stmt->getElse() ? ifOp.elseBlock() : nullptr);
}

/// Emits the branches of `stmt` into the blocks of the op that replaces it.
bool RegionImporter::emitBranches(const cl::IfStmt *stmt,
                                  mlir::Block *thenBlock,
                                  mlir::Block *elseBlock) {
  mlir::OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(thenBlock);
  if (!emitStmt(stmt->getThen()))
    return false;
  if (!elseBlock)
    return true;
  b.setInsertionPointToStart(elseBlock);
  return emitStmt(stmt->getElse());
}

