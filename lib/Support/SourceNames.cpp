//===- SourceNames.cpp - The names of the user's variables in the IR ------===//
#include "weft/Support/SourceNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

Location weft::withSourceName(Location loc, llvm::StringRef name) {
  if (auto named = dyn_cast<NameLoc>(loc))
    loc = named.getChildLoc();
  if (name.empty())
    return loc;
  return NameLoc::get(StringAttr::get(loc.getContext(), name), loc);
}

llvm::StringRef weft::sourceName(Location loc) {
  if (auto named = dyn_cast<NameLoc>(loc))
    return named.getName().getValue();
  return "";
}

llvm::StringRef weft::scalarName(Value value) {
  while (Operation *def = value.getDefiningOp())
    if (isa<arith::IndexCastOp, arith::ExtSIOp>(def))
      value = def->getOperand(0);
    else
      break;
  return sourceName(value);
}

llvm::StringRef weft::sourceName(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return sourceName(arg.getLoc());
  return sourceName(value.getDefiningOp()->getLoc());
}

bool weft::isCIdentifier(llvm::StringRef name) {
  return !name.empty() && !llvm::isDigit(name.front()) &&
         llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// The prefix of a device copy's name.
static constexpr llvm::StringLiteral kDevicePrefix = "d_";

std::string weft::deviceCopyName(llvm::StringRef host) {
  return (kDevicePrefix + host).str();
}

llvm::StringRef weft::hostArrayName(llvm::StringRef name) {
  name.consume_front(kDevicePrefix);
  return name;
}

Location weft::withSourceType(Location loc, Type type) {
  if (auto named = dyn_cast<NameLoc>(loc))
    return NameLoc::get(named.getName(),
                        withSourceType(named.getChildLoc(), type));
  return FusedLoc::get(loc.getContext(), {loc}, TypeAttr::get(type));
}

Type weft::sourceType(Location loc) {
  if (auto named = dyn_cast<NameLoc>(loc))
    return sourceType(named.getChildLoc());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    if (auto type = dyn_cast_or_null<TypeAttr>(fused.getMetadata()))
      return type.getValue();
  return {};
}

FileLineColLoc weft::sourcePosition(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return file;
  if (auto named = dyn_cast<NameLoc>(loc))
    return sourcePosition(named.getChildLoc());
  if (auto site = dyn_cast<CallSiteLoc>(loc))
    return sourcePosition(site.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (FileLineColLoc file = sourcePosition(inner))
        return file;
  return {};
}

std::string weft::lineOf(Operation *op) {
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    return "line " + std::to_string(loc.getLine());
  return "an unknown line";
}
