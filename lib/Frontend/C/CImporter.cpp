//===- CImporter.cpp - Import scop regions into MLIR ------------*- C++ -*-===//
//
// This file implements importScopRegion(): the translation of a scop region
// of a C function into affine/scf/arith/math/memref. This part holds the C
// type mapping and builds the region function and its calling convention;
// the analysis, statements and expressions are in the Import*.cpp files.
//
//===----------------------------------------------------------------------===//
#include "RegionImporter.h"
#include "dialects/Weft/IR/WeftDialect.h"
#include "weft/Frontend/C/Diagnostics.h"
#include "weft/Support/SourceNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace weft;
using namespace weft::importer;

void weft::registerImportedDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::math::MathDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
                  weft::WeftDialect>();
}

//===----------------------------------------------------------------------===//
// Diagnostics, locations and types
//===----------------------------------------------------------------------===//

bool RegionImporter::error(cl::SourceLocation l, const llvm::Twine &message) {
  reportError(ctx.getDiagnostics(), l, message);
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

/// The C type the region function reaches an integer `type` through when
/// that is not the fixed-width type of its size (`long long` where int64_t
/// is `long`): C forbids accessing an object through a pointer to another
/// integer type of the same size, so the parameter keeps the source's type
/// (its signed variant, which may alias it). Empty where the fixed-width
/// type is that type.
static std::string distinctIntegerSpelling(cl::ASTContext &ctx,
                                           cl::QualType type) {
  type = type.getCanonicalType().getUnqualifiedType();
  const auto *bt = type->getAs<cl::BuiltinType>();
  if (!bt || !bt->isInteger() || bt->getKind() == cl::BuiltinType::Bool)
    return "";
  cl::QualType signedType = type->isUnsignedIntegerType()
                                ? ctx.getCorrespondingSignedType(type)
                                : type;
  cl::QualType fixed =
      ctx.getIntTypeForBitwidth(ctx.getTypeSize(type), /*Signed=*/true);
  if (fixed.isNull() || ctx.hasSameType(fixed, signedType))
    return "";
  return signedType.getAsString(ctx.getPrintingPolicy());
}

/// The `register` keyword of `var`'s declaration when it is spelled in the
/// main file outside macros (so the output can drop it); invalid otherwise.
static cl::SourceLocation registerKeyword(const cl::ASTContext &ctx,
                                          const cl::VarDecl *var) {
  const cl::SourceManager &sm = ctx.getSourceManager();
  cl::SourceLocation at = var->getBeginLoc(), end = var->getLocation();
  if (at.isInvalid() || end.isInvalid() || at.isMacroID() || end.isMacroID() ||
      !sm.isWrittenInMainFile(at) || !sm.isWrittenInMainFile(end))
    return {};
  while (sm.isBeforeInTranslationUnit(at, end)) {
    cl::Token tok;
    if (cl::Lexer::getRawToken(at, tok, sm, ctx.getLangOpts(),
                               /*IgnoreWhiteSpace=*/true))
      return {};
    if (tok.is(cl::tok::raw_identifier) && tok.getRawIdentifier() == "register")
      return tok.getLocation();
    if (tok.getEndLoc() == at)
      return {};
    at = tok.getEndLoc();
  }
  return {};
}

bool RegionImporter::buildFunction(llvm::StringRef name,
                                   ImportedRegion &result) {
  llvm::SmallVector<mlir::Type> argTypes;
  llvm::SmallVector<std::string> callArgs;
  llvm::SmallVector<const cl::VarDecl *> argVars;
  // Array dims passed as extra arguments: (array arg, dim, C expression).
  struct DimArg {
    unsigned arrayArg, dim;
    std::string expr, name;
  };
  llvm::SmallVector<DimArg> dimArgs;

  // Per argument: the C element type it is reached through where that is
  // not the fixed-width type of the memref's (distinctIntegerSpelling).
  llvm::SmallVector<std::string> cTypes;
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
      std::string spelling = distinctIntegerSpelling(ctx, elem);
      cTypes.push_back(spelling);
      callArgs.push_back("(" + (spelling.empty() ? cTypeName(et) : spelling) +
                         " *)(" + cname + ")");
      for (unsigned d = 1; d < shape.size(); ++d)
        if (mlir::ShapedType::isDynamic(shape[d]))
          dimArgs.push_back({(unsigned)argTypes.size() - 1, d,
                             extentExpr(cname, d),
                             cname + "_dim" + std::to_string(d)});
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
      std::string spelling = distinctIntegerSpelling(ctx, var->getType());
      cTypes.push_back(spelling);
      std::string cast =
          isUnsigned(var->getType()) && !t.isInteger(1)
              ? "(" + (spelling.empty() ? cTypeName(t) : spelling) + " *)"
              : "";
      if (var->getStorageClass() == cl::SC_Register) {
        if (cl::SourceLocation kw = registerKeyword(ctx, var); kw.isValid()) {
          result.droppedRegisterKeywords.push_back(kw);
          callArgs.push_back(cast + "&" + cname);
          break;
        }
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
      cTypes.push_back("");
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
    func.setArgAttr(i, weft::WeftDialect::getCArgAttrName(),
                    b.getStringAttr(callArgs[i]));
  for (auto [i, spelling] : llvm::enumerate(cTypes))
    if (!spelling.empty())
      func.setArgAttr(i, weft::WeftDialect::getCTypeAttrName(),
                      b.getStringAttr(spelling));
  // The C names of the arguments (weft/Support/SourceNames.h).
  for (unsigned i = 0; i < argVars.size(); ++i)
    entry->getArgument(i).setLoc(
        withSourceName(loc(argVars[i]->getLocation()), argVars[i]->getName()));
  for (unsigned i = 0; i < dimArgs.size(); ++i)
    entry->getArgument(argVars.size() + i)
        .setLoc(withSourceName(func.getLoc(), dimArgs[i].name));
  for (unsigned i = 0; i < argVars.size(); ++i) {
    vars[argVars[i]].value = entry->getArgument(i);
    // weft.region_only: no code outside the region reads the array (or
    // the scalar the region writes).
    VarKind kind = vars[argVars[i]].kind;
    if ((kind == VarKind::Array || kind == VarKind::ScalarRef) &&
        usedOnlyInRegion(argVars[i]))
      func.setArgAttr(i, weft::WeftDialect::getRegionOnlyAttrName(),
                      b.getUnitAttr());
    // weft.may_alias: the array is reached through a pointer (an array
    // parameter is one too), which may point into any other array or
    // scalar of the region; distinct objects and `restrict` pointers do
    // not overlap (dist-alias-check checks the others at run time).
    cl::QualType type = argVars[i]->getType();
    if (vars[argVars[i]].kind == VarKind::Array && type->isPointerType() &&
        !type.isRestrictQualified())
      func.setArgAttr(i, weft::WeftDialect::getMayAliasAttrName(),
                      b.getUnitAttr());
  }

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
    func.setArgAttr(arg, weft::WeftDialect::getDimArgsAttrName(),
                    b.getDenseI64ArrayAttr(list));

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

