//===- Dispatcher.cpp - The function a region's call site calls -----------===//
#include "Dispatcher.h"

#include "dialects/Dist/IR/DistOps.h"

using namespace mlir;

func::FuncOp weft::createDispatcher(func::FuncOp form, StringRef name) {
  OpBuilder b(form);
  b.setInsertionPointAfter(form);
  auto dispatcher =
      b.create<func::FuncOp>(form.getLoc(), name, form.getFunctionType());
  dispatcher.setAllArgAttrs(form.getAllArgAttrs());
  dispatcher->setAttr(dist::DistDialect::getAliasCheckAttrName(),
                      b.getUnitAttr());
  Block *entry = dispatcher.addEntryBlock();
  for (auto [arg, original] :
       llvm::zip(entry->getArguments(), form.getArguments()))
    arg.setLoc(original.getLoc()); // its source name
  return dispatcher;
}
