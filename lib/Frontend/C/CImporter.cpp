//===- CImporter.cpp - Import scop regions into MLIR ------------*- C++ -*-===//
//
// This file implements the translation of a scop region's Clang AST into
// affine/scf/arith/math/memref. It runs in two steps: an analysis that
// classifies every variable the region touches (array, scalar read, scalar
// written, region local, loop iterator) and checks that the region can be
// lifted out of its function, then the code generation proper.
//
//===----------------------------------------------------------------------===//
#include "weft/Frontend/C/CImporter.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IntegerSet.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

using namespace weft;
using clang::dyn_cast;
using clang::isa;
namespace cl = clang;
using mlir::Value;

void weft::registerImportedDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::math::MathDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect>();
}

namespace {

/// How the region sees a variable.
enum class VarKind {
  Array,       // memref argument (or region-local memref.alloca)
  ScalarValue, // scalar argument read only
  ScalarRef,   // scalar written by the region: rank-0 memref argument
  Local,       // scalar declared in the region: rank-0 memref.alloca
  Iterator,    // loop iterator: an induction variable, never in memory
};

struct VarInfo {
  VarKind kind;
  Value value;             // memref or scalar value once materialised
  Value symbol;            // ScalarValue of integer type: index_cast at entry
  unsigned firstUse = ~0u; // order of first reference, for argument order
  cl::SourceLocation firstRef; // for diagnostics about the variable
  bool liveOut = false;    // Iterator read after the region: kept in memory
};

/// A loop iterator in scope: its `index` value, and whether affine ops may
/// use it as a dimension.
struct IterBinding {
  Value index;
  bool affine;
};

/// Collects dims and symbols while affine expressions are built.
struct AffineOperands {
  llvm::SmallVector<Value> dims, symbols;
  unsigned dim(Value v) {
    for (unsigned i = 0; i < dims.size(); ++i)
      if (dims[i] == v)
        return i;
    dims.push_back(v);
    return dims.size() - 1;
  }
  unsigned symbol(Value v) {
    for (unsigned i = 0; i < symbols.size(); ++i)
      if (symbols[i] == v)
        return i;
    symbols.push_back(v);
    return symbols.size() - 1;
  }
  llvm::SmallVector<Value> all() const {
    llvm::SmallVector<Value> ops(dims);
    ops.append(symbols.begin(), symbols.end());
    return ops;
  }
};

/// Where a C lvalue lives.
struct LValue {
  Value memref;
  bool affine = false;
  mlir::AffineMap map;                 // affine access
  llvm::SmallVector<Value> operands;   // map operands or plain indices
  cl::QualType type;                   // C type of the object
};

/// A parsed `for` header: `for (iv = init; iv <op> bound [&& ...]; iv += step)`.
struct ForHeader {
  const cl::VarDecl *iv = nullptr;
  const cl::Expr *init = nullptr;
  bool increasing = true;
  int64_t step = 1;
  /// Bounds, each with +1 applied when the comparison is inclusive (upper)
  /// or strict (lower, for decreasing loops).
  llvm::SmallVector<std::pair<const cl::Expr *, int64_t>> bounds;
  /// False when the condition is not comparisons of the iterator against
  /// bounds in the direction it moves: then only C's own condition,
  /// evaluated every time, describes the loop.
  bool boundedCondition = true;
};

class RegionImporter {
public:
  RegionImporter(cl::ASTContext &ctx, const ScopRegion &region,
                 mlir::ModuleOp module)
      : ctx(ctx), sm(ctx.getSourceManager()), region(region),
        mctx(module.getContext()), module(module), b(mctx) {}

  bool run(llvm::StringRef name, ImportedRegion &result);

private:
  // Diagnostics and locations.
  bool error(cl::SourceLocation loc, const llvm::Twine &message);
  mlir::Location loc(cl::SourceLocation l);
  mlir::Location loc(const cl::Stmt *s) { return loc(s->getBeginLoc()); }

  // Types.
  mlir::Type scalarType(cl::QualType type, cl::SourceLocation at);
  bool arrayShape(cl::QualType type, cl::SourceLocation at,
                  llvm::SmallVectorImpl<int64_t> &shape, cl::QualType &elem);

  // Analysis.
  bool analyze();
  void scan(const cl::Stmt *s);
  bool parseForHeader(const cl::ForStmt *loop, ForHeader &header,
                      bool report);
  bool parseBounds(const cl::Expr *cond, ForHeader &header);
  bool checkIteratorUses();
  bool checkLiveness();
  bool isAfterRegion(cl::SourceLocation l) const;
  /// Where `var` is first assigned as a scalar in `s` (the region if null).
  cl::SourceLocation firstWrite(const cl::VarDecl *var,
                                const cl::Stmt *s = nullptr) const;

  // Arguments.
  bool buildFunction(llvm::StringRef name, ImportedRegion &result);

  // Affine expressions.
  std::optional<mlir::AffineExpr> affineOf(const cl::Expr *e,
                                           AffineOperands &ops);
  bool affineBoundList(const cl::Expr *e, bool wantMax, int64_t offset,
                       AffineOperands &ops,
                       llvm::SmallVectorImpl<mlir::AffineExpr> &out);
  bool sameAffine(const cl::Expr *a, const cl::Expr *b);

  // Statements.
  bool emitStmt(const cl::Stmt *s);
  bool emitDecl(const cl::VarDecl *var);
  bool emitFor(const cl::ForStmt *loop);
  bool emitAffineFor(const cl::ForStmt *loop, const ForHeader &h);
  mlir::affine::AffineForOp createAffineFor(mlir::Location l,
                                            mlir::AffineMap lbMap,
                                            mlir::AffineMap ubMap,
                                            llvm::ArrayRef<Value> operands,
                                            int64_t step);
  bool emitScfFor(const cl::ForStmt *loop, const ForHeader &h);
  bool boundsInvariant(const cl::ForStmt *loop, const ForHeader &h);
  bool emitWhileFor(const cl::ForStmt *loop, const ForHeader &h);
  bool emitWhile(const cl::Stmt *stmt, const cl::Expr *cond,
                 const cl::Stmt *body, bool bodyFirst);
  bool emitIf(const cl::IfStmt *stmt);
  bool emitBranches(const cl::IfStmt *stmt, mlir::Block *thenBlock,
                    mlir::Block *elseBlock);
  void storeFinalValue(const ForHeader &h, Value first, Value range,
                       mlir::Location l);

  // Expressions.
  Value emitRValue(const cl::Expr *e);
  Value emitCond(const cl::Expr *e);
  Value emitCast(const cl::CastExpr *e);
  Value emitBinary(const cl::BinaryOperator *e);
  Value emitArith(cl::BinaryOperatorKind op, Value lhs, Value rhs,
                  cl::QualType type, mlir::Location l);
  Value emitCompare(cl::BinaryOperatorKind op, Value lhs, Value rhs,
                    bool isUnsigned, mlir::Location l);
  Value emitAssign(const cl::BinaryOperator *e);
  Value emitUnary(const cl::UnaryOperator *e);
  Value emitConditional(const cl::ConditionalOperator *e);
  Value emitCall(const cl::CallExpr *e);
  Value emitIndex(const cl::Expr *e);
  Value convert(Value v, cl::QualType from, cl::QualType to, mlir::Location l);
  Value boolToInt(Value cond, cl::QualType type, mlir::Location l);
  Value constantFor(cl::QualType type, double fp, int64_t integer,
                    mlir::Location l);

  std::optional<LValue> emitLValue(const cl::Expr *e);
  Value load(const LValue &lv, mlir::Location l);
  void store(const LValue &lv, Value v, mlir::Location l);

  const cl::VarDecl *refVar(const cl::Expr *e) const;
  const IterBinding *iterator(const cl::VarDecl *var) const;

  cl::ASTContext &ctx;
  const cl::SourceManager &sm;
  const ScopRegion &region;
  mlir::MLIRContext *mctx;
  mlir::ModuleOp module;
  mlir::OpBuilder b;
  bool failed = false;

  // Analysis results.
  llvm::MapVector<const cl::VarDecl *, VarInfo> vars;
  llvm::SmallPtrSet<const cl::VarDecl *, 8> scalarWrites;
  llvm::SmallPtrSet<const cl::VarDecl *, 8> arrayWrites;
  llvm::SmallPtrSet<const cl::VarDecl *, 8> regionDecls;
  llvm::DenseMap<const cl::VarDecl *, llvm::SmallVector<const cl::ForStmt *>>
      iteratorLoops;
  llvm::SmallVector<const cl::DeclRefExpr *> refs;
  unsigned useCounter = 0;

  // Code generation state.
  ImportedRegion *imported = nullptr;
  mlir::Block *entry = nullptr;
  llvm::DenseMap<const cl::VarDecl *, llvm::SmallVector<IterBinding, 2>>
      iterScopes;
};

} // end anonymous namespace

//===----------------------------------------------------------------------===//
// Diagnostics, locations and types
//===----------------------------------------------------------------------===//

bool RegionImporter::error(cl::SourceLocation l, const llvm::Twine &message) {
  cl::DiagnosticsEngine &diags = ctx.getDiagnostics();
  unsigned id = diags.getCustomDiagID(cl::DiagnosticsEngine::Error, "%0");
  diags.Report(l, id) << message.str();
  failed = true;
  return false;
}

mlir::Location RegionImporter::loc(cl::SourceLocation l) {
  cl::PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(l));
  if (p.isInvalid())
    return mlir::UnknownLoc::get(mctx);
  return mlir::FileLineColLoc::get(mctx, p.getFilename(), p.getLine(),
                                   p.getColumn());
}

mlir::Type RegionImporter::scalarType(cl::QualType type,
                                      cl::SourceLocation at) {
  type = type.getCanonicalType().getUnqualifiedType();
  if (const auto *bt = type->getAs<cl::BuiltinType>()) {
    if (bt->isFloatingPoint()) {
      if (bt->getKind() == cl::BuiltinType::Float)
        return b.getF32Type();
      if (bt->getKind() == cl::BuiltinType::Double)
        return b.getF64Type();
    } else if (bt->getKind() == cl::BuiltinType::Bool) {
      return b.getI1Type();
    } else if (bt->isInteger() && bt->getKind() != cl::BuiltinType::Int128 &&
               bt->getKind() != cl::BuiltinType::UInt128) {
      // Signless: the operations pick signed or unsigned semantics from
      // the C types (see isUnsigned).
      return b.getIntegerType(ctx.getTypeSize(type));
    }
  }
  error(at, "type '" + type.getAsString() +
                "' is not supported in a scop region (supported: signed and "
                "unsigned char, short, int, long, long long; float, double, "
                "_Bool)");
  return nullptr;
}

/// Shape of an array-like C type: arrays of arrays, possibly behind one
/// pointer. Non-constant extents are dynamic.
bool RegionImporter::arrayShape(cl::QualType type, cl::SourceLocation at,
                                llvm::SmallVectorImpl<int64_t> &shape,
                                cl::QualType &elem) {
  type = type.getCanonicalType();
  if (const auto *pt = type->getAs<cl::PointerType>()) {
    shape.push_back(mlir::ShapedType::kDynamic);
    type = pt->getPointeeType().getCanonicalType();
  }
  while (const cl::ArrayType *at2 = ctx.getAsArrayType(type)) {
    if (const auto *cat = dyn_cast<cl::ConstantArrayType>(at2))
      shape.push_back(cat->getSize().getSExtValue());
    else
      shape.push_back(mlir::ShapedType::kDynamic);
    type = at2->getElementType().getCanonicalType();
  }
  if (type->isPointerType())
    return error(at, "arrays of pointers are not supported in a scop region");
  elem = type;
  return scalarType(type, at) != nullptr;
}

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
static const cl::VarDecl *baseVar(const cl::Expr *e, bool &isElement) {
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
static llvm::SmallPtrSet<const cl::VarDecl *, 8>
writtenVars(const cl::Stmt *s) {
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
static bool isUnsigned(cl::QualType type) {
  return type->isUnsignedIntegerOrEnumerationType();
}

/// What a user calls the construct `s`, for diagnostics.
static std::string describe(const cl::Stmt *s) {
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
static const cl::Expr *strip(const cl::Expr *e) {
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
      if (const auto *rhs = dyn_cast<cl::BinaryOperator>(strip(bin->getRHS()));
          rhs && refVar(rhs->getLHS()) == h.iv &&
          (rhs->getOpcode() == cl::BO_Add || rhs->getOpcode() == cl::BO_Sub)) {
        amount = rhs->getRHS();
        plus = rhs->getOpcode() == cl::BO_Add;
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

bool RegionImporter::parseBounds(const cl::Expr *cond, ForHeader &h) {
  llvm::SmallVector<const cl::Expr *> terms{cond};
  while (!terms.empty()) {
    const cl::Expr *t = strip(terms.pop_back_val());
    const auto *bin = dyn_cast<cl::BinaryOperator>(t);
    if (bin && bin->getOpcode() == cl::BO_LAnd) {
      terms.push_back(bin->getRHS());
      terms.push_back(bin->getLHS());
      continue;
    }
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

/// Region locals disappear with the region, so they must not be used after
/// it; iterators used after it must get the value C would leave in them.
bool RegionImporter::checkLiveness() {
  const cl::FunctionDecl *fn = region.function;
  llvm::SmallVector<const cl::DeclRefExpr *> later;
  std::function<void(const cl::Stmt *)> walk = [&](const cl::Stmt *s) {
    if (!s)
      return;
    if (const auto *ref = dyn_cast<cl::DeclRefExpr>(s))
      if (isAfterRegion(ref->getLocation()))
        later.push_back(ref);
    for (const cl::Stmt *c : s->children())
      walk(c);
  };
  walk(fn->getBody());
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
    // An iterator read after the region gets its final value written back.
    if (it->second.kind == VarKind::Iterator)
      it->second.liveOut = true;
  }
  // Iterators with static storage may be read anywhere.
  for (auto &[var, info] : vars)
    if (info.kind == VarKind::Iterator && var->hasGlobalStorage())
      info.liveOut = true;
  return !failed;
}

bool RegionImporter::analyze() {
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

//===----------------------------------------------------------------------===//
// The region function
//===----------------------------------------------------------------------===//

/// `(long)(sizeof(A[0]...[0]) / sizeof(A[0]...[0][0]))`: extent of `dim`.
static std::string extentExpr(llvm::StringRef name, unsigned dim) {
  std::string prefix = name.str();
  for (unsigned i = 0; i < dim; ++i)
    prefix += "[0]";
  return "(long)(sizeof(" + prefix + ") / sizeof(" + prefix + "[0]))";
}

static std::string cTypeName(mlir::Type t) {
  if (t.isF64())
    return "double";
  if (t.isF32())
    return "float";
  if (t.isInteger(1))
    return "_Bool";
  return "int" + std::to_string(t.getIntOrFloatBitWidth()) + "_t";
}

bool RegionImporter::buildFunction(llvm::StringRef name,
                                   ImportedRegion &result) {
  llvm::SmallVector<mlir::Type> argTypes;
  llvm::SmallVector<std::string> callArgs;
  llvm::SmallVector<const cl::VarDecl *> argVars;
  // Array dims passed as extra arguments: (array arg, dim, C expression).
  struct DimArg {
    unsigned arrayArg, dim;
    std::string expr;
  };
  llvm::SmallVector<DimArg> dimArgs;

  llvm::SmallVector<std::pair<const cl::VarDecl *, VarInfo *>> order;
  for (auto &[var, info] : vars)
    order.push_back({var, &info});
  llvm::stable_sort(order, [](auto &x, auto &y) {
    return x.second->firstUse < y.second->firstUse;
  });

  for (auto &[var, info] : order) {
    if (regionDecls.contains(var) ||
        (info->kind == VarKind::Iterator && !info->liveOut))
      continue;
    // Problems with an outside variable are reported where the region uses it.
    cl::SourceLocation at = info->firstRef;
    std::string cname = var->getName().str();
    switch (info->kind) {
    case VarKind::Array: {
      llvm::SmallVector<int64_t> shape;
      cl::QualType elem;
      if (!arrayShape(var->getType(), at, shape, elem))
        return false;
      mlir::Type et = scalarType(elem, at);
      argTypes.push_back(mlir::MemRefType::get(shape, et));
      callArgs.push_back("(" + cTypeName(et) + " *)(" + cname + ")");
      for (unsigned d = 1; d < shape.size(); ++d)
        if (mlir::ShapedType::isDynamic(shape[d]))
          dimArgs.push_back({(unsigned)argTypes.size() - 1, d,
                             extentExpr(cname, d)});
      break;
    }
    case VarKind::Iterator:
    case VarKind::ScalarRef: {
      mlir::Type t = scalarType(var->getType(), at);
      if (!t)
        return false;
      argTypes.push_back(mlir::MemRefType::get({}, t));
      // The parameter is a pointer to the signless C type: unsigned
      // variables need a cast. A register variable has no address: the
      // call goes through a copy.
      std::string cast = isUnsigned(var->getType()) && !t.isInteger(1)
                             ? "(" + cTypeName(t) + " *)"
                             : "";
      if (var->getStorageClass() == cl::SC_Register) {
        result.copiedScalars.push_back(
            {var->getType().getUnqualifiedType().getAsString(), cname});
        callArgs.push_back(cast + "&weft_copy_" + cname);
        break;
      }
      callArgs.push_back(cast + "&" + cname);
      break;
    }
    case VarKind::ScalarValue: {
      mlir::Type t = scalarType(var->getType(), at);
      if (!t)
        return false;
      argTypes.push_back(t);
      callArgs.push_back(cname);
      break;
    }
    default:
      continue;
    }
    argVars.push_back(var);
  }
  for (DimArg &d : dimArgs) {
    argTypes.push_back(b.getIndexType());
    callArgs.push_back(d.expr);
  }

  b.setInsertionPointToEnd(module.getBody());
  auto func = b.create<mlir::func::FuncOp>(
      loc(region.beginLoc), name, b.getFunctionType(argTypes, {}));
  entry = func.addEntryBlock();
  for (unsigned i = 0; i < argTypes.size(); ++i)
    func.setArgAttr(i, "weft.c_arg", b.getStringAttr(callArgs[i]));
  for (unsigned i = 0; i < argVars.size(); ++i)
    vars[argVars[i]].value = entry->getArgument(i);

  // weft.dim_args: for each array dimension, the argument holding its
  // extent (-1 where the extent is static or never needed).
  llvm::DenseMap<unsigned, llvm::SmallVector<int64_t>> dimMap;
  for (unsigned i = 0; i < dimArgs.size(); ++i) {
    auto rank = llvm::cast<mlir::MemRefType>(argTypes[dimArgs[i].arrayArg])
                    .getRank();
    auto &list = dimMap[dimArgs[i].arrayArg];
    if (list.empty())
      list.assign(rank, -1);
    list[dimArgs[i].dim] = argVars.size() + i;
  }
  for (auto &[arg, list] : dimMap)
    func.setArgAttr(arg, "weft.dim_args", b.getDenseI64ArrayAttr(list));

  for (unsigned i = 0; i < argVars.size(); ++i)
    if (vars[argVars[i]].kind == VarKind::Array)
      result.arrayArgs.push_back({argVars[i]->getName().str(), i});
  result.func = func;
  result.callArgs.assign(callArgs.begin(), callArgs.end());
  for (auto &[var, info] : order)
    if (info->kind == VarKind::Iterator && !info->liveOut &&
        !regionDecls.contains(var))
      result.deadIterators.push_back(var->getName().str());
  b.setInsertionPointToStart(entry);
  return true;
}

bool RegionImporter::run(llvm::StringRef name, ImportedRegion &result) {
  if (!analyze() || !buildFunction(name, result))
    return false;
  imported = &result;
  mlir::func::FuncOp func = result.func;
  // Integer parameters double as affine symbols.
  for (auto &[var, info] : vars) {
    if (info.kind != VarKind::ScalarValue || !info.value ||
        !llvm::isa<mlir::IntegerType>(info.value.getType()) ||
        info.value.getType().isInteger(1))
      continue;
    info.symbol = b.create<mlir::arith::IndexCastOp>(
        info.value.getLoc(), b.getIndexType(), info.value);
  }
  for (const cl::Stmt *s : region.stmts)
    if (!emitStmt(s))
      break;
  if (failed) {
    func.erase();
    return false;
  }
  b.setInsertionPointToEnd(entry);
  b.create<mlir::func::ReturnOp>(loc(region.endLoc));
  return true;
}

bool weft::importScopRegion(cl::ASTContext &ctx, const ScopRegion &region,
                            mlir::ModuleOp module, llvm::StringRef name,
                            ImportedRegion &result) {
  RegionImporter importer(ctx, region, module);
  return importer.run(name, result);
}

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
        l, mlir::MemRefType::get(shape, scalarType(elem, var->getLocation())));
    return true;
  }
  mlir::Type t = scalarType(var->getType(), var->getLocation());
  if (!t)
    return false;
  info.kind = VarKind::Local;
  info.value = b.create<mlir::memref::AllocaOp>(l, mlir::MemRefType::get({}, t));
  if (const cl::Expr *init = var->getInit()) {
    Value v = emitRValue(init);
    if (!v)
      return false;
    b.create<mlir::memref::StoreOp>(l, v, info.value);
  }
  return true;
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
      l, mlir::MemRefType::get({}, b.getIndexType()));
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
    imported->loops.push_back(
        {loop->getBeginLoc(), forOp, h.iv->getName().str()});
    mlir::OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(forOp.getBody());
    llvm::SmallVector<Value> applyOps(ops.dims);
    applyOps.push_back(forOp.getInductionVar());
    applyOps.append(ops.symbols.begin(), ops.symbols.end());
    auto ivMap = mlir::AffineMap::get(
        nd + 1, ns, *start - b.getAffineDimExpr(nd), mctx);
    Value iv = b.create<mlir::affine::AffineApplyOp>(l, ivMap, applyOps);
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
  imported->loops.push_back({loop->getBeginLoc(), forOp, h.iv->getName().str()});
  mlir::OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forOp.getBody());
  Value iv = forOp.getInductionVar();
  if (!h.increasing)
    iv = b.create<mlir::arith::SubIOp>(l, init, iv);
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
  b.create<mlir::memref::StoreOp>(
      l, b.create<mlir::arith::IndexCastOp>(l, t, final), memref);
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
  llvm::SmallVector<const cl::Expr *> terms{stmt->getCond()};
  while (affine && !terms.empty()) {
    const cl::Expr *t = strip(terms.pop_back_val());
    const auto *bin = dyn_cast<cl::BinaryOperator>(t);
    if (bin && bin->getOpcode() == cl::BO_LAnd) {
      terms.push_back(bin->getRHS());
      terms.push_back(bin->getLHS());
      continue;
    }
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

//===----------------------------------------------------------------------===//
// Lvalues
//===----------------------------------------------------------------------===//

std::optional<LValue> RegionImporter::emitLValue(const cl::Expr *e) {
  e = e->IgnoreParens();
  LValue lv;
  lv.type = e->getType();
  if (const auto *ref = dyn_cast<cl::DeclRefExpr>(e)) {
    const auto *var = dyn_cast<cl::VarDecl>(ref->getDecl());
    if (!var) {
      error(e->getBeginLoc(), "unsupported reference");
      return std::nullopt;
    }
    VarInfo &info = vars[var];
    if (info.kind != VarKind::ScalarRef && info.kind != VarKind::Local) {
      error(e->getBeginLoc(), "'" + var->getName() +
                                  "' cannot be used as an lvalue here");
      return std::nullopt;
    }
    if (!info.value) {
      error(e->getBeginLoc(), "'" + var->getName() + "' is used before its "
                                                     "declaration");
      return std::nullopt;
    }
    lv.memref = info.value;
    return lv;
  }
  if (!isa<cl::ArraySubscriptExpr>(e)) {
    error(e->getBeginLoc(), describe(e) + " is not supported as an "
                                           "assignment target in a scop "
                                           "region; use array subscripts");
    return std::nullopt;
  }
  llvm::SmallVector<const cl::Expr *> indices;
  const cl::Expr *base = e;
  while (const auto *sub = dyn_cast<cl::ArraySubscriptExpr>(base)) {
    const cl::Expr *arr = sub->getBase(), *idx = sub->getIdx();
    if (!arr->getType()->isPointerType()) // `i[A]`
      std::swap(arr, idx);
    indices.push_back(idx);
    base = arr->IgnoreParenImpCasts();
  }
  std::reverse(indices.begin(), indices.end());
  const auto *ref = dyn_cast<cl::DeclRefExpr>(base);
  const auto *var = ref ? dyn_cast<cl::VarDecl>(ref->getDecl()) : nullptr;
  if (!var || vars.lookup(var).kind != VarKind::Array || !vars[var].value) {
    error(base->getBeginLoc(),
          "subscripted value must be an array variable in a scop region");
    return std::nullopt;
  }
  lv.memref = vars[var].value;
  auto mt = llvm::cast<mlir::MemRefType>(lv.memref.getType());
  if ((int64_t)indices.size() != mt.getRank()) {
    error(e->getBeginLoc(), "array '" + var->getName() + "' has " +
                                llvm::Twine(mt.getRank()) +
                                " dimensions but is subscripted with " +
                                llvm::Twine(indices.size()));
    return std::nullopt;
  }
  AffineOperands ops;
  llvm::SmallVector<mlir::AffineExpr> exprs;
  for (const cl::Expr *idx : indices) {
    auto a = affineOf(idx, ops);
    if (!a)
      break;
    exprs.push_back(*a);
  }
  if (exprs.size() == indices.size()) {
    lv.affine = true;
    lv.map = mlir::AffineMap::get(ops.dims.size(), ops.symbols.size(), exprs,
                                  mctx);
    lv.operands = ops.all();
    mlir::affine::canonicalizeMapAndOperands(&lv.map, &lv.operands);
    return lv;
  }
  for (const cl::Expr *idx : indices) {
    Value v = emitIndex(idx);
    if (!v)
      return std::nullopt;
    lv.operands.push_back(v);
  }
  return lv;
}

Value RegionImporter::load(const LValue &lv, mlir::Location l) {
  if (lv.affine)
    return b.create<mlir::affine::AffineLoadOp>(l, lv.memref, lv.map,
                                                lv.operands);
  return b.create<mlir::memref::LoadOp>(l, lv.memref, lv.operands);
}

void RegionImporter::store(const LValue &lv, Value v, mlir::Location l) {
  if (lv.affine)
    b.create<mlir::affine::AffineStoreOp>(l, v, lv.memref, lv.map, lv.operands);
  else
    b.create<mlir::memref::StoreOp>(l, v, lv.memref, lv.operands);
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Value RegionImporter::constantFor(cl::QualType type, double fp,
                                  int64_t integer, mlir::Location l) {
  mlir::Type t = scalarType(type, {});
  if (!t)
    return nullptr;
  if (auto ft = llvm::dyn_cast<mlir::FloatType>(t))
    return b.create<mlir::arith::ConstantOp>(l, ft, b.getFloatAttr(ft, fp));
  return b.create<mlir::arith::ConstantOp>(l, t, b.getIntegerAttr(t, integer));
}

Value RegionImporter::boolToInt(Value cond, cl::QualType type,
                                mlir::Location l) {
  mlir::Type t = scalarType(type, {});
  if (!t)
    return nullptr;
  if (t.isInteger(1))
    return cond;
  return b.create<mlir::arith::ExtUIOp>(l, t, cond);
}

/// Converts `v` from C type `from` to C type `to` as C does.
Value RegionImporter::convert(Value v, cl::QualType from, cl::QualType to,
                              mlir::Location l) {
  mlir::Type src = v.getType();
  mlir::Type dst = scalarType(to, {});
  if (!dst)
    return nullptr;
  if (src == dst)
    return v;
  bool srcFloat = llvm::isa<mlir::FloatType>(src);
  bool dstFloat = llvm::isa<mlir::FloatType>(dst);
  if (dst.isInteger(1)) {
    if (srcFloat)
      return b.create<mlir::arith::CmpFOp>(
          l, mlir::arith::CmpFPredicate::UNE, v,
          b.create<mlir::arith::ConstantOp>(l, src, b.getFloatAttr(src, 0)));
    return b.create<mlir::arith::CmpIOp>(
        l, mlir::arith::CmpIPredicate::ne, v,
        b.create<mlir::arith::ConstantOp>(l, src, b.getIntegerAttr(src, 0)));
  }
  if (srcFloat && dstFloat) {
    if (src.getIntOrFloatBitWidth() < dst.getIntOrFloatBitWidth())
      return b.create<mlir::arith::ExtFOp>(l, dst, v);
    return b.create<mlir::arith::TruncFOp>(l, dst, v);
  }
  if (srcFloat) {
    if (isUnsigned(to))
      return b.create<mlir::arith::FPToUIOp>(l, dst, v);
    return b.create<mlir::arith::FPToSIOp>(l, dst, v);
  }
  if (dstFloat) {
    if (src.isInteger(1) || isUnsigned(from))
      return b.create<mlir::arith::UIToFPOp>(l, dst, v);
    return b.create<mlir::arith::SIToFPOp>(l, dst, v);
  }
  unsigned sw = src.getIntOrFloatBitWidth(), dw = dst.getIntOrFloatBitWidth();
  if (sw < dw) {
    if (src.isInteger(1) || isUnsigned(from))
      return b.create<mlir::arith::ExtUIOp>(l, dst, v);
    return b.create<mlir::arith::ExtSIOp>(l, dst, v);
  }
  return b.create<mlir::arith::TruncIOp>(l, dst, v);
}

Value RegionImporter::emitIndex(const cl::Expr *e) {
  Value v = emitRValue(e);
  if (!v)
    return nullptr;
  if (!llvm::isa<mlir::IntegerType>(v.getType())) {
    error(e->getBeginLoc(), "expected an integer expression");
    return nullptr;
  }
  if (isUnsigned(e->getType()))
    return b.create<mlir::arith::IndexCastUIOp>(loc(e), b.getIndexType(), v);
  return b.create<mlir::arith::IndexCastOp>(loc(e), b.getIndexType(), v);
}

Value RegionImporter::emitRValue(const cl::Expr *e) {
  if (failed)
    return nullptr;
  mlir::Location l = loc(e);
  e = e->IgnoreParens();
  // Integer constant expressions (literals, enumerators, sizeof, macros).
  if (e->getType()->isIntegerType() && !e->HasSideEffects(ctx))
    if (std::optional<llvm::APSInt> c = e->getIntegerConstantExpr(ctx))
      return constantFor(e->getType(), 0, c->getExtValue(), l);
  if (const auto *fl = dyn_cast<cl::FloatingLiteral>(e)) {
    mlir::Type t = scalarType(e->getType(), e->getBeginLoc());
    if (!t)
      return nullptr;
    return b.create<mlir::arith::ConstantOp>(
        l, t, b.getFloatAttr(t, fl->getValue()));
  }
  if (const auto *cast = dyn_cast<cl::CastExpr>(e))
    return emitCast(cast);
  if (const auto *ref = dyn_cast<cl::DeclRefExpr>(e)) {
    const auto *var = dyn_cast<cl::VarDecl>(ref->getDecl());
    if (!var) {
      error(e->getBeginLoc(), "unsupported reference to '" +
                                  ref->getDecl()->getName() + "'");
      return nullptr;
    }
    if (const IterBinding *it = iterator(var))
      return b.create<mlir::arith::IndexCastOp>(
          l, scalarType(var->getType(), ref->getLocation()), it->index);
    VarInfo &info = vars[var];
    if (info.kind == VarKind::ScalarValue)
      return info.value;
    if (info.kind == VarKind::Iterator) {
      error(e->getBeginLoc(), "loop iterator '" + var->getName() +
                                  "' is used outside its loop");
      return nullptr;
    }
    std::optional<LValue> lv = emitLValue(e);
    return lv ? load(*lv, l) : nullptr;
  }
  if (const auto *bin = dyn_cast<cl::BinaryOperator>(e))
    return emitBinary(bin);
  if (const auto *un = dyn_cast<cl::UnaryOperator>(e))
    return emitUnary(un);
  if (const auto *c = dyn_cast<cl::ConditionalOperator>(e))
    return emitConditional(c);
  if (const auto *call = dyn_cast<cl::CallExpr>(e))
    return emitCall(call);
  if (isa<cl::ArraySubscriptExpr>(e)) {
    std::optional<LValue> lv = emitLValue(e);
    return lv ? load(*lv, l) : nullptr;
  }
  error(e->getBeginLoc(), describe(e) + " is not supported in a scop region");
  return nullptr;
}

Value RegionImporter::emitCast(const cl::CastExpr *e) {
  mlir::Location l = loc(e);
  const cl::Expr *sub = e->getSubExpr();
  switch (e->getCastKind()) {
  case cl::CK_LValueToRValue:
  case cl::CK_NoOp:
    return emitRValue(sub);
  case cl::CK_ToVoid:
    if (!emitRValue(sub))
      return nullptr;
    return b.create<mlir::arith::ConstantIntOp>(l, 0, 32); // discarded
  case cl::CK_IntegralCast:
  case cl::CK_IntegralToFloating:
  case cl::CK_FloatingToIntegral:
  case cl::CK_FloatingCast:
  case cl::CK_IntegralToBoolean:
  case cl::CK_FloatingToBoolean: {
    Value v = emitRValue(sub);
    if (!v)
      return nullptr;
    return convert(v, sub->getType(), e->getType(), l);
  }
  default:
    error(e->getBeginLoc(), llvm::Twine("cast '") + e->getCastKindName() +
                                "' is not supported in a scop region");
    return nullptr;
  }
}

Value RegionImporter::emitCompare(cl::BinaryOperatorKind op, Value lhs,
                                  Value rhs, bool isUnsigned,
                                  mlir::Location l) {
  if (llvm::isa<mlir::FloatType>(lhs.getType())) {
    using P = mlir::arith::CmpFPredicate;
    P p = op == cl::BO_LT   ? P::OLT
          : op == cl::BO_GT ? P::OGT
          : op == cl::BO_LE ? P::OLE
          : op == cl::BO_GE ? P::OGE
          : op == cl::BO_EQ ? P::OEQ
                            : P::UNE;
    return b.create<mlir::arith::CmpFOp>(l, p, lhs, rhs);
  }
  using P = mlir::arith::CmpIPredicate;
  P p = op == cl::BO_LT   ? (isUnsigned ? P::ult : P::slt)
        : op == cl::BO_GT ? (isUnsigned ? P::ugt : P::sgt)
        : op == cl::BO_LE ? (isUnsigned ? P::ule : P::sle)
        : op == cl::BO_GE ? (isUnsigned ? P::uge : P::sge)
        : op == cl::BO_EQ ? P::eq
                          : P::ne;
  return b.create<mlir::arith::CmpIOp>(l, p, lhs, rhs);
}

Value RegionImporter::emitArith(cl::BinaryOperatorKind op, Value x, Value y,
                                cl::QualType type, mlir::Location l) {
  if (cl::BinaryOperator::isCompoundAssignmentOp(op))
    op = cl::BinaryOperator::getOpForCompoundAssignment(op);
  if (llvm::isa<mlir::FloatType>(x.getType())) {
    switch (op) {
    case cl::BO_Add:
      return b.create<mlir::arith::AddFOp>(l, x, y);
    case cl::BO_Sub:
      return b.create<mlir::arith::SubFOp>(l, x, y);
    case cl::BO_Mul:
      return b.create<mlir::arith::MulFOp>(l, x, y);
    case cl::BO_Div:
      return b.create<mlir::arith::DivFOp>(l, x, y);
    default:
      break;
    }
  } else {
    // Signed overflow is undefined in C, unsigned arithmetic wraps: `nsw`
    // says which, and the C back end keeps wrapping operations unsigned.
    auto wrap = isUnsigned(type) ? mlir::arith::IntegerOverflowFlags::none
                                 : mlir::arith::IntegerOverflowFlags::nsw;
    switch (op) {
    case cl::BO_Add:
      return b.create<mlir::arith::AddIOp>(l, x, y, wrap);
    case cl::BO_Sub:
      return b.create<mlir::arith::SubIOp>(l, x, y, wrap);
    case cl::BO_Mul:
      return b.create<mlir::arith::MulIOp>(l, x, y, wrap);
    case cl::BO_Div:
      if (isUnsigned(type))
        return b.create<mlir::arith::DivUIOp>(l, x, y);
      return b.create<mlir::arith::DivSIOp>(l, x, y);
    case cl::BO_Rem:
      if (isUnsigned(type))
        return b.create<mlir::arith::RemUIOp>(l, x, y);
      return b.create<mlir::arith::RemSIOp>(l, x, y);
    case cl::BO_And:
      return b.create<mlir::arith::AndIOp>(l, x, y);
    case cl::BO_Or:
      return b.create<mlir::arith::OrIOp>(l, x, y);
    case cl::BO_Xor:
      return b.create<mlir::arith::XOrIOp>(l, x, y);
    case cl::BO_Shl:
      return b.create<mlir::arith::ShLIOp>(l, x, y, wrap);
    case cl::BO_Shr:
      if (isUnsigned(type))
        return b.create<mlir::arith::ShRUIOp>(l, x, y);
      return b.create<mlir::arith::ShRSIOp>(l, x, y);
    default:
      break;
    }
  }
  return nullptr;
}

Value RegionImporter::emitBinary(const cl::BinaryOperator *e) {
  mlir::Location l = loc(e);
  cl::BinaryOperatorKind op = e->getOpcode();
  if (e->isAssignmentOp())
    return emitAssign(e);
  if (op == cl::BO_Comma) {
    if (!emitRValue(e->getLHS()))
      return nullptr;
    return emitRValue(e->getRHS());
  }
  if (op == cl::BO_LAnd || op == cl::BO_LOr || e->isComparisonOp()) {
    Value c = emitCond(e);
    return c ? boolToInt(c, e->getType(), l) : nullptr;
  }
  if (!e->getLHS()->getType()->isArithmeticType() ||
      !e->getRHS()->getType()->isArithmeticType()) {
    error(e->getOperatorLoc(),
          "pointer arithmetic is not supported in a scop region");
    return nullptr;
  }
  Value x = emitRValue(e->getLHS());
  if (!x)
    return nullptr;
  Value y = emitRValue(e->getRHS());
  if (!y)
    return nullptr;
  // Shifts keep the left operand's type; C does not convert the right one.
  if ((op == cl::BO_Shl || op == cl::BO_Shr) && x.getType() != y.getType())
    y = convert(y, e->getRHS()->getType(), e->getLHS()->getType(), l);
  Value r = emitArith(op, x, y, e->getType(), l);
  if (!r)
    error(e->getOperatorLoc(), "operator '" + e->getOpcodeStr() +
                                   "' is not supported on these operands");
  return r;
}

Value RegionImporter::emitAssign(const cl::BinaryOperator *e) {
  mlir::Location l = loc(e);
  std::optional<LValue> lv = emitLValue(e->getLHS());
  if (!lv)
    return nullptr;
  cl::QualType lhsType = e->getLHS()->getType();
  if (e->getOpcode() == cl::BO_Assign) {
    Value v = emitRValue(e->getRHS());
    if (!v)
      return nullptr;
    store(*lv, v, l);
    return v;
  }
  const auto *cao = llvm::cast<cl::CompoundAssignOperator>(e);
  Value old = load(*lv, l);
  old = convert(old, lhsType, cao->getComputationLHSType(), l);
  Value rhs = emitRValue(e->getRHS());
  if (!rhs || !old)
    return nullptr;
  rhs = convert(rhs, e->getRHS()->getType(), cao->getComputationLHSType(), l);
  if ((e->getOpcode() == cl::BO_ShlAssign ||
       e->getOpcode() == cl::BO_ShrAssign))
    rhs = convert(rhs, e->getRHS()->getType(), cao->getComputationLHSType(),
                  l);
  Value r = emitArith(e->getOpcode(), old, rhs,
                      cao->getComputationResultType(), l);
  if (!r) {
    error(e->getOperatorLoc(), "operator '" + e->getOpcodeStr() +
                                   "' is not supported on these operands");
    return nullptr;
  }
  r = convert(r, cao->getComputationResultType(), lhsType, l);
  store(*lv, r, l);
  return r;
}

Value RegionImporter::emitUnary(const cl::UnaryOperator *e) {
  mlir::Location l = loc(e);
  const cl::Expr *sub = e->getSubExpr();
  switch (e->getOpcode()) {
  case cl::UO_Plus:
    return emitRValue(sub);
  case cl::UO_Minus: {
    Value v = emitRValue(sub);
    if (!v)
      return nullptr;
    if (llvm::isa<mlir::FloatType>(v.getType()))
      return b.create<mlir::arith::NegFOp>(l, v);
    return emitArith(cl::BO_Sub, constantFor(e->getType(), 0, 0, l), v,
                     e->getType(), l);
  }
  case cl::UO_Not: {
    Value v = emitRValue(sub);
    if (!v)
      return nullptr;
    return b.create<mlir::arith::XOrIOp>(
        l, v,
        b.create<mlir::arith::ConstantOp>(l, v.getType(),
                                          b.getIntegerAttr(v.getType(), -1)));
  }
  case cl::UO_LNot: {
    Value c = emitCond(e);
    return c ? boolToInt(c, e->getType(), l) : nullptr;
  }
  case cl::UO_PreInc:
  case cl::UO_PreDec:
  case cl::UO_PostInc:
  case cl::UO_PostDec: {
    std::optional<LValue> lv = emitLValue(sub);
    if (!lv)
      return nullptr;
    Value old = load(*lv, l);
    Value one = constantFor(sub->getType(), 1.0, 1, l);
    Value updated = e->isIncrementOp()
                        ? emitArith(cl::BO_Add, old, one, sub->getType(), l)
                        : emitArith(cl::BO_Sub, old, one, sub->getType(), l);
    store(*lv, updated, l);
    return e->isPrefix() ? updated : old;
  }
  default:
    error(e->getOperatorLoc(),
          "operator '" + cl::UnaryOperator::getOpcodeStr(e->getOpcode()) +
              "' is not supported in a scop region");
    return nullptr;
  }
}

Value RegionImporter::emitCond(const cl::Expr *e) {
  mlir::Location l = loc(e);
  e = strip(e);
  if (const auto *bin = dyn_cast<cl::BinaryOperator>(e)) {
    cl::BinaryOperatorKind op = bin->getOpcode();
    if (bin->isComparisonOp()) {
      Value x = emitRValue(bin->getLHS());
      Value y = x ? emitRValue(bin->getRHS()) : nullptr;
      if (!y)
        return nullptr;
      if (!bin->getLHS()->getType()->isArithmeticType()) {
        error(bin->getOperatorLoc(),
              "pointer comparisons are not supported in a scop region");
        return nullptr;
      }
      return emitCompare(op, x, y, isUnsigned(bin->getLHS()->getType()), l);
    }
    if (op == cl::BO_LAnd || op == cl::BO_LOr) {
      // Short-circuit: the right operand runs only when it decides.
      Value x = emitCond(bin->getLHS());
      if (!x)
        return nullptr;
      auto ifOp = b.create<mlir::scf::IfOp>(l, b.getI1Type(), x,
                                            /*withElseRegion=*/true);
      mlir::OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      Value thenV = op == cl::BO_LAnd
                        ? emitCond(bin->getRHS())
                        : b.create<mlir::arith::ConstantIntOp>(l, 1, 1);
      if (!thenV)
        return nullptr;
      b.create<mlir::scf::YieldOp>(l, thenV);
      b.setInsertionPointToStart(ifOp.elseBlock());
      Value elseV = op == cl::BO_LOr
                        ? emitCond(bin->getRHS())
                        : b.create<mlir::arith::ConstantIntOp>(l, 0, 1);
      if (!elseV)
        return nullptr;
      b.create<mlir::scf::YieldOp>(l, elseV);
      return ifOp.getResult(0);
    }
  }
  if (const auto *un = dyn_cast<cl::UnaryOperator>(e);
      un && un->getOpcode() == cl::UO_LNot) {
    Value c = emitCond(un->getSubExpr());
    if (!c)
      return nullptr;
    return b.create<mlir::arith::XOrIOp>(
        l, c, b.create<mlir::arith::ConstantIntOp>(l, 1, 1));
  }
  Value v = emitRValue(e);
  if (!v)
    return nullptr;
  if (v.getType().isInteger(1))
    return v;
  return convert(v, e->getType(), ctx.BoolTy, l);
}

Value RegionImporter::emitConditional(const cl::ConditionalOperator *e) {
  mlir::Location l = loc(e);
  Value c = emitCond(e->getCond());
  if (!c)
    return nullptr;
  mlir::Type t = scalarType(e->getType(), e->getBeginLoc());
  if (!t)
    return nullptr;
  auto ifOp = b.create<mlir::scf::IfOp>(l, t, c, /*withElseRegion=*/true);
  mlir::OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  Value x = emitRValue(e->getTrueExpr());
  if (!x)
    return nullptr;
  b.create<mlir::scf::YieldOp>(l, x);
  b.setInsertionPointToStart(ifOp.elseBlock());
  Value y = emitRValue(e->getFalseExpr());
  if (!y)
    return nullptr;
  b.create<mlir::scf::YieldOp>(l, y);
  return ifOp.getResult(0);
}

namespace {
/// A libm function with an MLIR op of the same semantics.
struct MathFunction {
  llvm::StringLiteral name;
  unsigned arity;
  Value (*build)(mlir::OpBuilder &, mlir::Location, llvm::ArrayRef<Value>);
};
} // end anonymous namespace

template <typename OpTy>
static Value buildMathOp(mlir::OpBuilder &b, mlir::Location l,
                         llvm::ArrayRef<Value> args) {
  return b.create<OpTy>(l, mlir::TypeRange{args[0].getType()},
                        mlir::ValueRange(args));
}

static const MathFunction mathFunctions[] = {
    {"sqrt", 1, buildMathOp<mlir::math::SqrtOp>},
    {"cbrt", 1, buildMathOp<mlir::math::CbrtOp>},
    {"exp", 1, buildMathOp<mlir::math::ExpOp>},
    {"exp2", 1, buildMathOp<mlir::math::Exp2Op>},
    {"expm1", 1, buildMathOp<mlir::math::ExpM1Op>},
    {"log", 1, buildMathOp<mlir::math::LogOp>},
    {"log2", 1, buildMathOp<mlir::math::Log2Op>},
    {"log10", 1, buildMathOp<mlir::math::Log10Op>},
    {"log1p", 1, buildMathOp<mlir::math::Log1pOp>},
    {"fabs", 1, buildMathOp<mlir::math::AbsFOp>},
    {"sin", 1, buildMathOp<mlir::math::SinOp>},
    {"cos", 1, buildMathOp<mlir::math::CosOp>},
    {"tan", 1, buildMathOp<mlir::math::TanOp>},
    {"asin", 1, buildMathOp<mlir::math::AsinOp>},
    {"acos", 1, buildMathOp<mlir::math::AcosOp>},
    {"atan", 1, buildMathOp<mlir::math::AtanOp>},
    {"sinh", 1, buildMathOp<mlir::math::SinhOp>},
    {"cosh", 1, buildMathOp<mlir::math::CoshOp>},
    {"tanh", 1, buildMathOp<mlir::math::TanhOp>},
    {"asinh", 1, buildMathOp<mlir::math::AsinhOp>},
    {"acosh", 1, buildMathOp<mlir::math::AcoshOp>},
    {"atanh", 1, buildMathOp<mlir::math::AtanhOp>},
    {"floor", 1, buildMathOp<mlir::math::FloorOp>},
    {"ceil", 1, buildMathOp<mlir::math::CeilOp>},
    {"round", 1, buildMathOp<mlir::math::RoundOp>},
    {"trunc", 1, buildMathOp<mlir::math::TruncOp>},
    {"erf", 1, buildMathOp<mlir::math::ErfOp>},
    {"pow", 2, buildMathOp<mlir::math::PowFOp>},
    {"atan2", 2, buildMathOp<mlir::math::Atan2Op>},
    {"copysign", 2, buildMathOp<mlir::math::CopySignOp>},
    {"fmod", 2, buildMathOp<mlir::arith::RemFOp>},
    {"fmax", 2, buildMathOp<mlir::arith::MaxNumFOp>},
    {"fmin", 2, buildMathOp<mlir::arith::MinNumFOp>},
    {"fma", 3, buildMathOp<mlir::math::FmaOp>},
    {"abs", 1, buildMathOp<mlir::math::AbsIOp>},
    {"labs", 1, buildMathOp<mlir::math::AbsIOp>},
};

static const MathFunction *lookupMathFunction(llvm::StringRef name) {
  for (const MathFunction &f : mathFunctions)
    if (f.name == name)
      return &f;
  return nullptr;
}

static std::string mathFunctionList() {
  std::string list;
  for (const MathFunction &f : mathFunctions)
    list += (list.empty() ? "" : ", ") + f.name.str();
  return list + " (and their 'f' forms)";
}

Value RegionImporter::emitCall(const cl::CallExpr *e) {
  mlir::Location l = loc(e);
  const cl::FunctionDecl *fn = e->getDirectCallee();
  if (!fn) {
    error(e->getBeginLoc(), "indirect calls are not supported in a scop "
                            "region");
    return nullptr;
  }
  llvm::StringRef name = fn->getName();
  if (name.starts_with("__builtin_"))
    name = name.drop_front(strlen("__builtin_"));
  // Float and double spellings share one op; the type picks the libm name
  // again when the C is printed.
  llvm::StringRef base = name;
  if (base.size() > 1 && base.ends_with("f") &&
      fn->getReturnType()->isSpecificBuiltinType(cl::BuiltinType::Float))
    base = base.drop_back();
  const MathFunction *math = lookupMathFunction(base);
  Value r;
  if (math && math->arity == e->getNumArgs()) {
    llvm::SmallVector<Value> args;
    for (const cl::Expr *arg : e->arguments()) {
      Value v = emitRValue(arg);
      if (!v)
        return nullptr;
      args.push_back(v);
    }
    r = math->build(b, l, args);
  }
  if (!r)
    error(e->getBeginLoc(),
          "call to '" + fn->getName() +
              "' is not supported in a scop region; supported calls are the "
              "math functions " + mathFunctionList());
  return r;
}
