//===- RegionImporter.h - Internals of the C region importer ----*- C++ -*-===//
//
// The RegionImporter class and its helpers, shared by the files that
// implement it: CImporter.cpp (types, the region function), ImportAnalysis.cpp
// (classifying variables, loop headers, liveness), ImportStatements.cpp
// (affine expressions, loops, ifs) and ImportExpressions.cpp (lvalues,
// expressions, math calls). Private to lib/Frontend/C.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_FRONTEND_C_REGIONIMPORTER_H
#define WEFT_LIB_FRONTEND_C_REGIONIMPORTER_H

#include "weft/Frontend/C/CImporter.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/Builders.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>
#include <string>

namespace weft::importer {

namespace cl = clang;
using clang::dyn_cast;
using clang::isa;
using mlir::Value;


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
  mlir::Location iteratorLoc(mlir::Location l, const cl::VarDecl *iv);
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
  bool
  overwrittenAfterRegion(const cl::VarDecl *var,
                         llvm::ArrayRef<const cl::DeclRefExpr *> later) const;
  bool isAfterRegion(cl::SourceLocation l) const;
  bool isInRegion(cl::SourceLocation l) const;
  bool usedOnlyInRegion(const cl::VarDecl *var);
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


//===----------------------------------------------------------------------===//
// Helpers shared by the importer's files
//===----------------------------------------------------------------------===//

/// The variable an lvalue expression ultimately designates: `x` for `x`,
/// `A` for `A[i][j]`; `isElement` says whether it is an array element.
const cl::VarDecl *baseVar(const cl::Expr *e, bool &isElement);
/// Variables that `s` assigns, as scalars or through array elements.
llvm::SmallPtrSet<const cl::VarDecl *, 8> writtenVars(const cl::Stmt *s);
/// Whether C gives values of `type` unsigned semantics.
bool isUnsigned(cl::QualType type);
/// What a user calls the construct `s`, for diagnostics.
std::string describe(const cl::Stmt *s);
/// Strips parens and the implicit casts Clang wraps around a variable read.
const cl::Expr *strip(const cl::Expr *e);
/// The terms of a condition `a && b && ...`, left to right, stripped.
llvm::SmallVector<const cl::Expr *> conjuncts(const cl::Expr *cond);

} // namespace weft::importer

#endif // WEFT_LIB_FRONTEND_C_REGIONIMPORTER_H
