//===- KernelLaunches.cpp - What the launches of a kernel say -------------===//
#include "KernelLaunches.h"
#include "DeviceNests.h"

#include "weft/Support/SourceNames.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

DenseMap<Operation *, SmallVector<gpu::LaunchFuncOp>>
weft::launchesByKernel(ModuleOp module) {
  DenseMap<Operation *, SmallVector<gpu::LaunchFuncOp>> launches;
  SymbolTableCollection symbols;
  module.walk([&](gpu::LaunchFuncOp launch) {
    if (Operation *kernel =
            symbols.lookupNearestSymbolFrom(launch, launch.getKernel()))
      launches[kernel].push_back(launch);
  });
  return launches;
}

std::optional<int64_t>
weft::nominalValue(Value v, const cost::NominalSizes &sizes, unsigned depth) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return c;
  if (std::optional<int64_t> given = sizes.given(scalarName(v)))
    return given;
  Operation *op = v.getDefiningOp();
  if (!op || depth == 0 || op->getNumResults() != 1)
    return std::nullopt;
  SmallVector<Attribute> operands;
  Builder b(v.getContext());
  for (Value operand : op->getOperands()) {
    std::optional<int64_t> c = nominalValue(operand, sizes, depth - 1);
    if (!c)
      return std::nullopt;
    operands.push_back(b.getIntegerAttr(operand.getType(), *c));
  }
  SmallVector<OpFoldResult> results;
  if (failed(op->fold(operands, results)) || results.size() != 1)
    return std::nullopt;
  // A fold may forward an operand (affine.apply of `s0`).
  if (auto forwarded = dyn_cast<Value>(results.front()))
    return forwarded == v ? std::nullopt
                          : nominalValue(forwarded, sizes, depth - 1);
  return getConstantIntValue(results.front());
}

std::optional<int64_t> weft::foldToConstant(Value v) {
  static const cost::NominalSizes none;
  return nominalValue(v, none);
}

std::optional<std::array<int64_t, 3>>
weft::constantBlockShape(ArrayRef<gpu::LaunchFuncOp> launches) {
  std::optional<std::array<int64_t, 3>> shape;
  for (gpu::LaunchFuncOp launch : launches) {
    std::array<int64_t, 3> these;
    Value sizes[3] = {launch.getBlockSizeX(), launch.getBlockSizeY(),
                      launch.getBlockSizeZ()};
    for (int d = 0; d < 3; ++d) {
      std::optional<int64_t> c = foldToConstant(sizes[d]);
      if (!c || *c < 1)
        return std::nullopt;
      these[d] = *c;
    }
    if (shape && *shape != these)
      return std::nullopt;
    shape = these;
  }
  return shape;
}

std::string weft::kernelArgumentName(gpu::LaunchFuncOp launch,
                                     BlockArgument arg) {
  Value buffer = launch.getKernelOperand(arg.getArgNumber());
  // The device copy `d_A` (gpu-place-data) of `A`, or `A` itself.
  auto named = [](Value v) -> std::string {
    if (auto sub = v.getDefiningOp<memref::SubViewOp>())
      v = sub.getSource();
    return weft::hostArrayName(weft::sourceName(v)).str();
  };
  if (std::string name = named(buffer); !name.empty())
    return name;
  // A device buffer: the host array of its copies.
  SmallVector<Operation *> users(buffer.getUsers());
  for (unsigned i = 0; i < users.size(); ++i) {
    if (auto sub = dyn_cast<memref::SubViewOp>(users[i]))
      llvm::append_range(users, sub->getUsers());
    if (auto copy = dyn_cast<gpu::MemcpyOp>(users[i]))
      for (Value side : {copy.getSrc(), copy.getDst()})
        if (std::string name = named(side); !name.empty())
          return name;
  }
  return "argument " + std::to_string(arg.getArgNumber());
}

bool weft::combinesInWarps(Type t, int64_t threads, bool columns) {
  constexpr int64_t kWarpSize = 32;
  return !columns && threads % kWarpSize == 0 &&
         (isa<Float32Type, Float64Type>(t) || t.isInteger(32) ||
          t.isInteger(64));
}
