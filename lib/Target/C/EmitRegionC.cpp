//===- EmitRegionC.cpp - Print imported regions as C ------------*- C++ -*-===//
#include "weft/Target/C/EmitC.h"
#include "dialects/Weft/IR/WeftDialect.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace mlir;

/// The C spelling of a scalar type in a library prototype.
static std::string prototypeType(Type t) {
  if (t.isF64())
    return "double";
  if (t.isF32())
    return "float";
  if (t.isInteger(64))
    return "long";
  return "int";
}

std::vector<std::string> weft::regionCallArgs(emitc::FuncOp func) {
  std::vector<std::string> args;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto arg = func.getArgAttrOfType<StringAttr>(
        i, weft::WeftDialect::getCArgAttrName());
    args.push_back(arg ? arg.getValue().str() : "");
  }
  return args;
}

LogicalResult
weft::emitRegionFunctions(ModuleOp module,
                          llvm::StringMap<RegionFunctionC> &functions,
                          std::string &preamble, const CPrintOptions &options) {
  // Library functions are declared rather than pulled in with <math.h>, so
  // that no header adds names the user's program may define itself.
  std::map<std::string, std::string> prototypes;
  bool usesBool = false;
  llvm::StringSet<> defined;
  for (auto func : module.getOps<emitc::FuncOp>())
    defined.insert(func.getName());
  for (auto func : module.getOps<emitc::FuncOp>()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    if (failed(translateToC(func, os, options)))
      return failure();
    auto isBool = [](Type t) {
      if (auto opaque = dyn_cast<emitc::OpaqueType>(t)) // `bool *restrict`
        return opaque.getValue().starts_with("bool ");
      if (auto ptr = dyn_cast<emitc::PointerType>(t))
        t = ptr.getPointee();
      if (auto array = dyn_cast<emitc::ArrayType>(t))
        t = array.getElementType();
      return t.isInteger(1);
    };
    usesBool |= llvm::any_of(func.getArgumentTypes(), isBool);
    func.walk([&](Operation *op) {
      usesBool |= llvm::any_of(op->getResultTypes(), isBool);
      auto call = dyn_cast<emitc::CallOpaqueOp>(op);
      // weft's runtime header declares its own functions, and a region
      // function calls only those defined before it.
      if (!call || call.getCallee().starts_with("weft_rt_") ||
          defined.contains(call.getCallee()))
        return;
      std::string proto = prototypeType(call.getResult(0).getType()) + " " +
                          call.getCallee().str() + "(";
      for (auto [i, arg] : llvm::enumerate(call.getOperands()))
        proto += (i ? ", " : "") + prototypeType(arg.getType());
      prototypes[call.getCallee().str()] = proto + ");\n";
    });
    RegionFunctionC &c = functions[func.getName()];
    c.definition = std::move(text);
    c.callArgs = regionCallArgs(func);
  }
  preamble = "#include <stdint.h>\n";
  if (usesBool)
    preamble += "#include <stdbool.h>\n";
  for (auto &[name, proto] : prototypes)
    preamble += "extern " + proto;
  return success();
}
