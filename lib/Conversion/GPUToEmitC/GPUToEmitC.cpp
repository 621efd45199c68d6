//===- GPUToEmitC.cpp - Outlined GPU kernels to CUDA C++ --------*- C++ -*-===//
//
// Implements convert-gpu-to-emitc. Kernels become ordinary region-style
// functions marked __global__, whose bodies convert-loops-to-emitc lowers
// like any other; the host side's GPU ops become calls of the launch and
// memory helpers of runtime/cuda/hpc/weft_cuda.h. Memref operands of those
// calls go through unrealized casts to EmitC pointers, which
// convert-loops-to-emitc resolves when it gives memrefs their C type.
//
//===----------------------------------------------------------------------===//
#include "weft/Conversion/Passes.h"

#include "dialects/Weft/IR/WeftDialect.h"
#include "weft/Support/SourceNames.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

namespace weft {
#define GEN_PASS_DEF_CONVERTGPUTOEMITC
#include "weft/Conversion/Passes.h.inc"
} // namespace weft

using namespace mlir;

/// The C++ builtin variable of a GPU index op as the index it is:
/// `(int64_t)threadIdx.x`, ... The variables are `unsigned int`: arithmetic
/// on them as written (`threadIdx.x - 3`) would wrap around.
static std::string builtinName(StringRef variable, gpu::Dimension dim) {
  return "(int64_t)" + variable.str() + "." +
         gpu::stringifyDimension(dim).str();
}

/// Bytes of one element of a memref of `t` in C.
static int64_t elementBytes(Type t) {
  if (t.isIndex())
    return 8;
  return std::max<int64_t>(t.getIntOrFloatBitWidth() / 8, 1);
}

static Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return b.create<arith::ConstantIndexOp>(loc, v);
}

/// `memref` as the EmitC pointer the runtime's helpers take.
static Value asPointer(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  return b
      .create<UnrealizedConversionCastOp>(
          loc, emitc::PointerType::get(type.getElementType()), memref)
      .getResult(0);
}

/// The extents of a region argument's dimensions after the first that are
/// dynamic: its `weft.dim_args` arguments (null where there is none).
static SmallVector<Value> argumentExtents(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<Value> extents;
  auto arg = dyn_cast<BlockArgument>(memref);
  auto func = arg ? dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp())
                  : func::FuncOp();
  auto dims =
      func ? func.getArgAttrOfType<DenseI64ArrayAttr>(
                 arg.getArgNumber(), weft::WeftDialect::getDimArgsAttrName())
           : DenseI64ArrayAttr();
  for (int64_t d = 1; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      extents.push_back(dims && d < (int64_t)dims.size() && dims[d] >= 0
                            ? Value(func.getArgument(dims[d]))
                            : Value());
  return extents;
}

/// Erases the operations of `func` whose results nothing uses, chains of
/// them included: the index of a grid dimension whose iterator the loop
/// body does not use (upstream's loops-to-GPU conversion computes each one)
/// would print as an unused variable, which nvcc -Werror rejects. CSE alone
/// erases only the last operation of such a chain.
static void eraseDeadOps(func::FuncOp func) {
  // Users come after their operands, and nested operations before the one
  // holding them: one reverse post-order walk erases whole chains.
  func.walk<WalkOrder::PostOrder, ReverseIterator>([](Operation *op) {
    if (isOpTriviallyDead(op))
      op->erase();
  });
}

namespace {
struct ConvertGPUToEmitC
    : weft::impl::ConvertGPUToEmitCBase<ConvertGPUToEmitC> {
  using Base::Base;
  void runOnOperation() override;

private:
  LogicalResult hoistKernel(gpu::GPUModuleOp module, func::FuncOp before);
  LogicalResult lowerLaunch(gpu::LaunchFuncOp launch);
  LogicalResult lowerCopy(gpu::MemcpyOp copy);
  /// The extents of `memref`'s dimensions after the first that are
  /// dynamic, as the host knows them (null where it does not).
  SmallVector<Value> trailingExtents(Value memref) {
    auto it = bufferExtents.find(memref);
    return it != bufferExtents.end() ? it->second : argumentExtents(memref);
  }
  /// The extent of dimension `d` (> 0) of `memref`, or null.
  Value extentOf(OpBuilder &b, Location loc, Value memref, int64_t d);

  /// The host arrays' device buffers, as the casts that replaced gpu.alloc,
  /// with the alloc's trailing dynamic extents.
  DenseSet<Value> deviceBuffers;
  DenseMap<Value, SmallVector<Value>> bufferExtents;
  /// The buffers that stay resident (weft_cuda_resident).
  DenseSet<Value> residentBuffers;
};

/// The host array a resident buffer (`alloc`'s) is copied from or to: the
/// other side of one of its copies, or null when it has none.
static Value residentHost(gpu::AllocOp alloc) {
  auto otherSide = [](gpu::MemcpyOp copy, Value view) {
    Value other = copy.getDst() == view ? copy.getSrc() : copy.getDst();
    auto sub = other.getDefiningOp<memref::SubViewOp>();
    return sub ? sub.getSource() : other;
  };
  for (Operation *user : alloc.getMemref().getUsers()) {
    if (auto copy = dyn_cast<gpu::MemcpyOp>(user))
      return otherSide(copy, alloc.getMemref());
    if (isa<memref::SubViewOp>(user))
      for (Operation *viewUser : user->getUsers())
        if (auto copy = dyn_cast<gpu::MemcpyOp>(viewUser))
          return otherSide(copy, user->getResult(0));
  }
  return {};
}

Value ConvertGPUToEmitC::extentOf(OpBuilder &b, Location loc, Value memref,
                                  int64_t d) {
  auto type = cast<MemRefType>(memref.getType());
  if (!type.isDynamicDim(d))
    return indexConstant(b, loc, type.getDimSize(d));
  unsigned dynamicBefore = 0;
  for (int64_t k = 1; k < d; ++k)
    dynamicBefore += type.isDynamicDim(k);
  SmallVector<Value> extents = trailingExtents(memref);
  return dynamicBefore < extents.size() ? extents[dynamicBefore] : Value();
}
} // end anonymous namespace

/// The iterator computed from a loop's position (`1 + pos * 1`): the name
/// of the position, or of a sum or product of it at most `steps` on.
static StringRef iteratorOf(Value position, int steps) {
  if (StringRef name = weft::sourceName(position); !name.empty())
    return name;
  if (steps == 0)
    return "";
  for (Operation *user : position.getUsers())
    if (isa<arith::AddIOp, arith::MulIOp>(user))
      if (StringRef name = iteratorOf(user->getResult(0), steps - 1);
          !name.empty())
        return name;
  return "";
}

/// Names each argument of a kernel as the value its launches pass (the
/// array `A` for the device copy `d_A`), where they all pass values of one
/// name; the dimension arguments after the kernel's own keep theirs.
static void nameKernelArguments(gpu::GPUModuleOp module, Block &entry) {
  SmallVector<std::string> names(entry.getNumArguments());
  SmallVector<bool> agree(entry.getNumArguments(), true);
  bool launched = false;
  module->getParentOp()->walk([&](gpu::LaunchFuncOp launch) {
    if (launch.getKernelModuleName() != module.getNameAttr())
      return;
    launched = true;
    for (unsigned i = 0; i < launch.getNumKernelOperands() &&
                         i < entry.getNumArguments();
         ++i) {
      // A size the host widened to 64 bits (`(int64_t)n`) keeps its name.
      Value passed = launch.getKernelOperand(i);
      if (weft::sourceName(passed).empty())
        if (Operation *cast = passed.getDefiningOp();
            isa_and_nonnull<arith::IndexCastOp, arith::ExtSIOp>(cast))
          passed = cast->getOperand(0);
      StringRef name = weft::hostArrayName(weft::sourceName(passed));
      if (name.empty() || (!names[i].empty() && names[i] != name))
        agree[i] = false;
      names[i] = name.str();
    }
  });
  if (!launched)
    return;
  for (auto [i, arg] : llvm::enumerate(entry.getArguments()))
    if (agree[i] && !names[i].empty())
      arg.setLoc(weft::withSourceName(arg.getLoc(), names[i]));
  // A loop's trip count the host computed (`i < arg`, or `pos < arg` where
  // `i = 1 + pos`): `i_count`, where every comparison names one iterator.
  for (BlockArgument arg : entry.getArguments()) {
    if (!weft::sourceName(arg).empty() || !arg.getType().isIntOrIndex())
      continue;
    std::string count;
    bool agreed = true;
    for (Operation *user : arg.getUsers()) {
      // `pos < arg`, or a loop from `pos` to `arg` (a grid-stride loop).
      Value position;
      if (auto compare = dyn_cast<arith::CmpIOp>(user);
          compare && compare.getRhs() == arg &&
          (compare.getPredicate() == arith::CmpIPredicate::slt ||
           compare.getPredicate() == arith::CmpIPredicate::ult))
        position = compare.getLhs();
      else if (auto loop = dyn_cast<scf::ForOp>(user);
               loop && loop.getUpperBound() == arg)
        position = loop.getInductionVar();
      if (!position)
        continue;
      StringRef iterator = iteratorOf(position, 2);
      if (iterator.empty() ||
          (!count.empty() && count != iterator.str() + "_count"))
        agreed = false;
      else
        count = iterator.str() + "_count";
    }
    if (agreed && weft::isCIdentifier(count))
      arg.setLoc(weft::withSourceName(arg.getLoc(), count));
  }
}

LogicalResult ConvertGPUToEmitC::hoistKernel(gpu::GPUModuleOp module,
                                             func::FuncOp before) {
  SmallVector<gpu::GPUFuncOp> kernels(module.getOps<gpu::GPUFuncOp>());
  if (kernels.size() != 1 || !kernels.front().isKernel())
    return module.emitOpError("must hold exactly one kernel function");
  gpu::GPUFuncOp kernel = kernels.front();
  if (!kernel.getPrivateAttributions().empty())
    return kernel.emitOpError(
        "has private memory attributions, which cannot be lowered to CUDA "
        "C++ yet");
  // Workgroup memory becomes `__shared__` arrays declared in the body.
  OpBuilder atEntry = OpBuilder::atBlockBegin(&kernel.front());
  for (BlockArgument buffer : kernel.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(buffer.getType());
    if (!type.hasStaticShape())
      return kernel.emitOpError("has workgroup memory of a dynamic shape");
    auto array = atEntry.create<memref::AllocaOp>(
        buffer.getLoc(),
        MemRefType::get(type.getShape(), type.getElementType()));
    array->setAttr(weft::WeftDialect::getCSpecifiersAttrName(),
                   atEntry.getStrArrayAttr({"__shared__"}));
    buffer.replaceAllUsesWith(array.getResult());
  }
  unsigned attributions = kernel.getNumWorkgroupAttributions();
  kernel.front().eraseArguments(kernel.getNumArguments(), attributions);
  OpBuilder b(before);
  Location loc = kernel.getLoc();
  // Extents after the first that are dynamic come as trailing arguments.
  SmallVector<Type> argTypes(kernel.getArgumentTypes());
  SmallVector<SmallVector<int64_t>> dimArgs;
  for (Type t : kernel.getArgumentTypes()) {
    SmallVector<int64_t> dims;
    if (auto m = dyn_cast<MemRefType>(t)) {
      dims.assign(m.getRank(), -1);
      for (int64_t d = 1; d < m.getRank(); ++d)
        if (m.isDynamicDim(d)) {
          dims[d] = argTypes.size();
          argTypes.push_back(b.getIndexType());
        }
    }
    dimArgs.push_back(dims);
  }
  auto func = b.create<func::FuncOp>(loc, module.getName(),
                                     b.getFunctionType(argTypes, {}));
  func->setAttr(weft::WeftDialect::getCSpecifiersAttrName(),
                b.getStrArrayAttr({"static", "__global__"}));
  func.getBody().takeBody(kernel.getBody());
  Block &entry = func.getBody().front();
  for (unsigned i = kernel.getNumArguments(); i < argTypes.size(); ++i)
    entry.addArgument(argTypes[i], loc);
  nameKernelArguments(module, entry);
  // An array's extent arguments: `A_dim1`, as in the host function.
  for (auto [k, dims] : llvm::enumerate(dimArgs))
    for (auto [d, at] : llvm::enumerate(dims)) {
      StringRef array = weft::sourceName(entry.getArgument(k));
      if (at >= 0 && !array.empty())
        entry.getArgument(at).setLoc(weft::withSourceName(
            loc, (array + "_dim" + std::to_string(d)).str()));
    }
  for (auto [i, dims] : llvm::enumerate(dimArgs))
    if (!dims.empty())
      func.setArgAttr(i, weft::WeftDialect::getDimArgsAttrName(),
                      b.getDenseI64ArrayAttr(dims));

  SmallVector<Operation *> gpuOps;
  func.walk([&](Operation *op) {
    if (isa<gpu::GPUDialect>(op->getDialect()))
      gpuOps.push_back(op);
  });
  for (Operation *op : gpuOps) {
    b.setInsertionPoint(op);
    auto literal = [&](StringRef variable, gpu::Dimension dim) {
      op->getResult(0).replaceAllUsesWith(b.create<emitc::LiteralOp>(
          op->getLoc(), b.getIndexType(), builtinName(variable, dim)));
      op->erase();
      return success();
    };
    LogicalResult lowered =
        TypeSwitch<Operation *, LogicalResult>(op)
            .Case<gpu::ThreadIdOp>([&](auto id) {
              return literal("threadIdx", id.getDimension());
            })
            .Case<gpu::BlockIdOp>(
                [&](auto id) { return literal("blockIdx", id.getDimension()); })
            .Case<gpu::BlockDimOp>(
                [&](auto id) { return literal("blockDim", id.getDimension()); })
            .Case<gpu::GridDimOp>(
                [&](auto id) { return literal("gridDim", id.getDimension()); })
            .Case<gpu::BarrierOp>([&](auto barrier) {
              b.create<emitc::CallOpaqueOp>(barrier.getLoc(), TypeRange{},
                                            "__syncthreads", ValueRange{});
              barrier.erase();
              return success();
            })
            .Case<gpu::AllReduceOp>(
                [&](gpu::AllReduceOp reduce) -> LogicalResult {
                  // A vote of the block (gpu-stage-tiles: whether any thread is
                  // inside a triangle): __syncthreads_or, a barrier too.
                  if (reduce.getOp() != gpu::AllReduceOperation::OR ||
                      !reduce.getUniform() || !reduce.getBody().empty() ||
                      !reduce.getType().isInteger(1))
                    return reduce.emitOpError(
                        "cannot be lowered to CUDA C++: only a uniform `or` of "
                        "an i1");
                  auto call = b.create<emitc::CallOpaqueOp>(
                      reduce.getLoc(), reduce.getType(), "__syncthreads_or",
                      reduce.getValue());
                  reduce.getResult().replaceAllUsesWith(call.getResult(0));
                  reduce.erase();
                  return success();
                })
            .Case<gpu::ShuffleOp>([&](gpu::ShuffleOp shuffle) -> LogicalResult {
              // __shfl_down_sync(mask, value, offset, width): every lane of
              // the warp takes part (gpu-reduce-blocks shuffles in whole
              // warps only); CUDA's shuffle has no `valid` result.
              if (shuffle.getMode() != gpu::ShuffleMode::DOWN ||
                  !shuffle.getValid().use_empty())
                return shuffle.emitOpError(
                    "cannot be lowered to CUDA C++: only `down` shuffles "
                    "whose valid flag is unused");
              auto call = b.create<emitc::CallOpaqueOp>(
                  shuffle.getLoc(), shuffle.getShuffleResult().getType(),
                  "__shfl_down_sync", shuffle->getOperands(),
                  b.getArrayAttr(
                      {emitc::OpaqueAttr::get(b.getContext(), "0xffffffffu"),
                       b.getIndexAttr(0), b.getIndexAttr(1),
                       b.getIndexAttr(2)}));
              shuffle.getShuffleResult().replaceAllUsesWith(call.getResult(0));
              shuffle.erase();
              return success();
            })
            .Case<gpu::ReturnOp>([&](auto ret) {
              b.create<func::ReturnOp>(ret.getLoc());
              ret.erase();
              return success();
            })
            .Default([](Operation *other) {
              return other->emitOpError("cannot be lowered to CUDA C++");
            });
    if (failed(lowered))
      return failure();
  }
  eraseDeadOps(func);
  return success();
}

LogicalResult ConvertGPUToEmitC::lowerLaunch(gpu::LaunchFuncOp launch) {
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty() ||
      launch.getDynamicSharedMemorySize() || launch.hasClusterSize())
    return launch.emitOpError("must be a synchronous launch without dynamic "
                              "shared memory or clusters");
  OpBuilder b(launch);
  Location loc = launch.getLoc();
  SmallVector<Value> operands{launch.getGridSizeX(),  launch.getGridSizeY(),
                              launch.getGridSizeZ(),  launch.getBlockSizeX(),
                              launch.getBlockSizeY(), launch.getBlockSizeZ()};
  SmallVector<Value> extents;
  for (Value arg : launch.getKernelOperands()) {
    if (!isa<MemRefType>(arg.getType())) {
      operands.push_back(arg);
      continue;
    }
    for (Value extent : trailingExtents(arg)) {
      if (!extent)
        return launch.emitOpError("passes an array whose extents are unknown");
      extents.push_back(extent);
    }
    // The buffer is already a pointer when its gpu.alloc was lowered.
    auto cast = arg.getDefiningOp<UnrealizedConversionCastOp>();
    operands.push_back(cast && deviceBuffers.contains(arg)
                           ? cast.getOperand(0)
                           : asPointer(b, loc, arg));
  }
  operands.append(extents);
  SmallVector<Attribute> args{
      emitc::OpaqueAttr::get(b.getContext(), launch.getKernelModuleName())};
  for (unsigned i = 0; i < operands.size(); ++i)
    args.push_back(b.getIndexAttr(i));
  b.create<emitc::CallOpaqueOp>(loc, TypeRange{}, "WEFT_CUDA_LAUNCH", operands,
                                b.getArrayAttr(args), ArrayAttr());
  launch.erase();
  return success();
}

LogicalResult ConvertGPUToEmitC::lowerCopy(gpu::MemcpyOp copy) {
  if (copy.getAsyncToken() || !copy.getAsyncDependencies().empty())
    return copy.emitOpError("must be synchronous");
  OpBuilder b(copy);
  Location loc = copy.getLoc();
  // A box is a subview with unit strides of a whole memref, or a whole
  // rank-0 memref.
  struct Box {
    Value base;
    SmallVector<OpFoldResult> offsets, sizes;
  };
  auto boxOf = [&](Value view) -> FailureOr<Box> {
    auto type = cast<MemRefType>(view.getType());
    if (type.getRank() == 0)
      return Box{view, {}, {}};
    auto sub = view.getDefiningOp<memref::SubViewOp>();
    if (!sub || !sub.hasUnitStride())
      return failure();
    return Box{sub.getSource(), sub.getMixedOffsets(), sub.getMixedSizes()};
  };
  FailureOr<Box> dst = boxOf(copy.getDst()), src = boxOf(copy.getSrc());
  if (failed(dst) || failed(src))
    return copy.emitOpError("copies something other than boxes of arrays");
  bool toDevice = deviceBuffers.contains(dst->base);
  Box &host = toDevice ? *src : *dst;
  if (toDevice == deviceBuffers.contains(src->base) ||
      dst->offsets != src->offsets || dst->sizes != src->sizes)
    return copy.emitOpError("must copy one box between a host array and its "
                            "device buffer");
  auto type = cast<MemRefType>(host.base.getType());
  int64_t rank = type.getRank();
  if (rank > 3)
    return copy.emitOpError("copies a box of rank ") << rank << " (at most 3)";
  // The runtime copies boxes of [*][e1][e2] arrays: lower ranks get leading
  // dimensions of extent 1 (e1 is only read when the box spans more than
  // one index of the first dimension, which a lower rank never does).
  Value zero = indexConstant(b, loc, 0), one = indexConstant(b, loc, 1);
  SmallVector<Value, 3> lo(3 - rank, zero), hi(3 - rank, one);
  for (int64_t d = 0; d < rank; ++d) {
    Value offset = getValueOrCreateConstantIndexOp(b, loc, host.offsets[d]);
    Value size = getValueOrCreateConstantIndexOp(b, loc, host.sizes[d]);
    lo.push_back(offset);
    hi.push_back(b.createOrFold<arith::AddIOp>(loc, offset, size));
  }
  Value e1 = rank == 3   ? extentOf(b, loc, host.base, 1)
             : rank == 2 ? zero
                         : one;
  Value e2 = rank >= 2   ? extentOf(b, loc, host.base, rank - 1)
             : rank == 1 ? hi[2]
                         : one;
  if (!e1 || !e2)
    return copy.emitOpError("copies an array whose extents are unknown");
  Value dstPtr = toDevice ? dst->base.getDefiningOp()->getOperand(0)
                          : asPointer(b, loc, dst->base);
  Value srcPtr = toDevice ? asPointer(b, loc, src->base)
                          : src->base.getDefiningOp()->getOperand(0);
  SmallVector<Value> operands{
      dstPtr, srcPtr,
      indexConstant(b, loc, elementBytes(type.getElementType())), e1, e2};
  for (int d = 0; d < 3; ++d) {
    operands.push_back(lo[d]);
    operands.push_back(hi[d]);
  }
  // A resident buffer's copies move only what is newer on the other side.
  StringRef callee = "weft_cuda_copy_box";
  if (copy->hasAttr(weft::WeftDialect::getGpuResidentAttrName()) &&
      residentBuffers.contains(toDevice ? dst->base : src->base))
    callee = toDevice ? "weft_cuda_resident_in" : "weft_cuda_resident_out";
  else
    operands.push_back(b.create<arith::ConstantIntOp>(loc, toDevice, 32));
  b.create<emitc::CallOpaqueOp>(loc, TypeRange{}, callee, operands);
  copy.erase();
  return success();
}

void ConvertGPUToEmitC::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTable symbols(module);
  // Kernels go before the first function that launches them.
  for (gpu::GPUModuleOp gpuModule :
       llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>())) {
    func::FuncOp user;
    for (func::FuncOp func : module.getOps<func::FuncOp>()) {
      bool launches =
          func.walk([&](gpu::LaunchFuncOp launch) {
                return launch.getKernelModuleName() == gpuModule.getName()
                           ? WalkResult::interrupt()
                           : WalkResult::advance();
              })
              .wasInterrupted();
      if (launches) {
        user = func;
        break;
      }
    }
    if (!user) {
      gpuModule.erase(); // launched nowhere
      continue;
    }
    if (failed(hoistKernel(gpuModule, user)))
      return signalPassFailure();
    gpuModule.erase();
  }
  module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());

  // Allocations first: copies and launches then see the buffers as
  // pointers.
  WalkResult walked = module.walk([&](gpu::AllocOp alloc) {
    if (alloc.getAsyncToken() || !alloc.getAsyncDependencies().empty() ||
        !alloc.getSymbolOperands().empty() || alloc.getHostShared()) {
      alloc.emitOpError("must be a plain synchronous allocation");
      return WalkResult::interrupt();
    }
    OpBuilder b(alloc);
    Location loc = alloc.getLoc();
    MemRefType type = alloc.getType();
    // Not the buffer's own name (`d_A`): a count several buffers of one
    // shape share reads `elements`.
    Location countLoc = weft::withSourceName(loc, "elements");
    Value count = indexConstant(b, loc, 1);
    SmallVector<Value> trailing;
    unsigned dynamic = 0;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      Value extent = type.isDynamicDim(d)
                         ? alloc.getDynamicSizes()[dynamic++]
                         : indexConstant(b, loc, type.getDimSize(d));
      if (d > 0 && type.isDynamicDim(d))
        trailing.push_back(extent);
      count = b.create<arith::MulIOp>(countLoc, count, extent);
    }
    Type element = type.getElementType();
    Value host = alloc->hasAttr(weft::WeftDialect::getGpuResidentAttrName())
                     ? residentHost(alloc)
                     : Value();
    auto call = host
                    ? b.create<emitc::CallOpaqueOp>(
                          loc, TypeRange{emitc::PointerType::get(element)},
                          "weft_cuda_resident",
                          ValueRange{asPointer(b, loc, host), count},
                          ArrayAttr(), b.getArrayAttr({TypeAttr::get(element)}))
                    : b.create<emitc::CallOpaqueOp>(
                          loc, TypeRange{emitc::PointerType::get(element)},
                          "weft_cuda_alloc", ValueRange{count}, ArrayAttr(),
                          b.getArrayAttr({TypeAttr::get(element)}));
    auto buffer =
        b.create<UnrealizedConversionCastOp>(loc, type, call.getResult(0));
    if (host)
      residentBuffers.insert(buffer.getResult(0));
    deviceBuffers.insert(buffer.getResult(0));
    bufferExtents[buffer.getResult(0)] = trailing;
    alloc.getMemref().replaceAllUsesWith(buffer.getResult(0));
    alloc.erase();
    return WalkResult::advance();
  });
  if (walked.wasInterrupted())
    return signalPassFailure();

  SmallVector<Operation *> hostOps;
  module.walk([&](Operation *op) {
    if (isa<gpu::GPUDialect>(op->getDialect()))
      hostOps.push_back(op);
  });
  for (Operation *op : hostOps) {
    LogicalResult lowered =
        TypeSwitch<Operation *, LogicalResult>(op)
            .Case<gpu::LaunchFuncOp>(
                [&](auto launch) { return lowerLaunch(launch); })
            .Case<gpu::MemcpyOp>([&](auto copy) { return lowerCopy(copy); })
            .Case<gpu::DeallocOp>([&](auto dealloc) -> LogicalResult {
              if (dealloc.getAsyncToken() ||
                  !dealloc.getAsyncDependencies().empty())
                return dealloc.emitOpError("must be synchronous");
              auto cast =
                  dealloc.getMemref()
                      .template getDefiningOp<UnrealizedConversionCastOp>();
              if (!cast || !deviceBuffers.contains(dealloc.getMemref()))
                return dealloc.emitOpError("frees no device buffer");
              // A resident buffer lives until weft_cuda_release_all.
              if (!residentBuffers.contains(dealloc.getMemref())) {
                OpBuilder b(dealloc);
                b.create<emitc::CallOpaqueOp>(dealloc.getLoc(), TypeRange{},
                                              "weft_cuda_free",
                                              cast.getOperand(0));
              }
              dealloc.erase();
              return success();
            })
            .Default([](Operation *other) {
              return other->emitOpError("cannot be lowered to CUDA C++");
            });
    if (failed(lowered))
      return signalPassFailure();
  }
  // The boxes' views and the buffers' memref forms are used no more
  // (users first).
  SmallVector<Operation *> views;
  module.walk([&](Operation *op) {
    if (isa<memref::SubViewOp, UnrealizedConversionCastOp>(op))
      views.push_back(op);
  });
  for (Operation *op : llvm::reverse(views))
    if (op->use_empty())
      op->erase();
}
