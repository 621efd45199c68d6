//===- NestComments.cpp - One C comment per distributed nest ----*- C++ -*-===//
#include "weft/Partition/NestComments.h"
#include "weft/Support/SourceNames.h"
#include "dialects/Weft/IR/WeftDialect.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

std::string weft::argumentSourceName(func::FuncOp func, Value memref) {
  auto arg = dyn_cast<BlockArgument>(memref);
  auto expr =
      arg ? func.getArgAttrOfType<StringAttr>(
                arg.getArgNumber(), weft::WeftDialect::getCArgAttrName())
          : StringAttr();
  if (!expr)
    return arg ? "#" + std::to_string(arg.getArgNumber()) : "a local array";
  StringRef text = expr.getValue();
  auto isIdent = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  size_t end = text.size();
  while (end > 0 && !isIdent(text[end - 1]))
    --end;
  size_t begin = end;
  while (begin > 0 && isIdent(text[begin - 1]))
    --begin;
  return begin == end ? text.str() : text.slice(begin, end).str();
}

std::string weft::sourceArrayName(func::FuncOp func, Value memref) {
  StringRef local = isa<BlockArgument>(memref) ? "" : sourceName(memref);
  return local.empty() ? argumentSourceName(func, memref) : local.str();
}

/// "A, B": the distinct arrays of `memrefs`, in order.
static std::string arrayList(func::FuncOp func, ArrayRef<Value> memrefs) {
  SmallVector<std::string> names;
  for (Value m : memrefs) {
    std::string name = weft::argumentSourceName(func, m);
    if (!llvm::is_contained(names, name))
      names.push_back(name);
  }
  return llvm::join(names, ", ");
}

SmallVector<std::string>
weft::describeDistributedNests(func::FuncOp func, ArrayRef<DistUnit> units,
                               const RegionExchanges &exchanges) {
  SmallVector<std::string> lines;
  for (auto [index, unit] : llvm::enumerate(units)) {
    if (!unit.distributed)
      continue;
    std::string text = "the nest";
    if (auto loc = dyn_cast<FileLineColLoc>(unit.op->getLoc()))
      text += " at line " + std::to_string(loc.getLine());
    text += unit.gridDims == 2 ? " runs blocks of its iterations and of its "
                                 "inner loop's over a 2-D grid of ranks"
                               : " runs a block of its iterations on each rank";
    SmallVector<Value> sent, combined;
    for (const Exchange &e : exchanges.exchanges)
      if (e.target == int(index))
        for (const ArrayMessage &m : e.messages)
          sent.push_back(m.memref);
    SmallVector<std::string> kinds;
    for (const UnitCombine &c : exchanges.combines)
      if (c.target == int(index))
        for (const ReductionCombine &r : c.arrays) {
          combined.push_back(r.memref);
          if (!llvm::is_contained(kinds, r.kind))
            kinds.push_back(r.kind);
        }
    if (!sent.empty())
      text += "; then sends the parts of " + arrayList(func, sent) +
              " that other ranks read later or keep";
    if (!combined.empty())
      text += "; then combines " + arrayList(func, combined) + " (" +
              llvm::join(kinds, ", ") + ") across ranks";
    lines.push_back(text);
  }
  for (const Exchange &e : exchanges.exchanges) {
    if (e.target != Exchange::kBeforeRegion || e.messages.empty())
      continue;
    SmallVector<Value> arrays;
    for (const ArrayMessage &m : e.messages)
      arrays.push_back(m.memref);
    lines.push_back("reads " + arrayList(func, arrays) +
                    " from rank 0 first where other ranks' copies are "
                    "outdated");
  }
  return lines;
}

// The comments open the function: the C++ emitter of MLIR 19 ends a
// verbatim line inside a loop with a `;`.
void weft::insertNestComments(func::FuncOp func, ArrayRef<std::string> lines) {
  OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
  for (const std::string &line : lines)
    b.create<emitc::VerbatimOp>(func.getLoc(),
                                b.getStringAttr("// weft: " + line));
}
