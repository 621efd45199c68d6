//===- Compile.h - The `weft compile` pipeline ------------------*- C++ -*-===//
#ifndef WEFT_DRIVER_COMPILE_H
#define WEFT_DRIVER_COMPILE_H

#include <cstdint>
#include <string>
#include <vector>

namespace weft {

enum class CompileTarget { Seq, Mpi, Cuda, MpiCuda };
enum class EmitKind { C, MLIR };

struct CompileOptions {
  std::string input;
  std::string output;
  CompileTarget target = CompileTarget::Mpi;
  EmitKind emit = EmitKind::C;
  /// --emit=mlir: print locations (source positions and names).
  bool mlirDebugInfo = false;
  std::vector<std::string> includeDirs;
  std::vector<std::string> defines;
  /// --target=mpi: explain the distribution of each region as remarks;
  /// --target=cuda: where each loop nest runs and what moves.
  bool report = false;
  /// --target=mpi: values live after a region reach every rank, not only
  /// rank 0 (for programs whose other ranks use them outside regions).
  bool liveOutEverywhere = false;
  /// --target=mpi: floating-point reductions may be split across ranks
  /// (rounding then differs from the sequential program).
  bool splitFpReductions = true;
  /// --target=mpi: the rank count and the value of sizes unknown at compile
  /// time that the partitioner's cost estimate assumes.
  unsigned plannedRanks = 4;
  /// Ranks sharing one node's memory bandwidth in those costs (0: a node's
  /// cores).
  unsigned ranksPerNode = 0;
  /// The CPU the cost model predicts a core's loops on: a device of the
  /// database or a CPU description file (cost::lookupCpu).
  std::string cpu = "cpu";
  int64_t nominalSize = 4096;
  /// Values of some of those sizes by their C names, NAME=VALUE
  /// (`--size`); runCompile fails where a name is no scalar of the input.
  std::vector<std::string> sizes;
  /// --target=mpi: the most process grid axes a loop nest is split over.
  unsigned gridDims = 2;
  /// --target=cuda, mpi-cuda: the GPU of the device database the cost model
  /// predicts kernel times on, and whether every nest that may run on the
  /// device does ("always") or those predicted faster there ("cost").
  std::string gpu = "A100-40GB";
  std::string gpuChoice = "cost";
  /// --target=cuda, mpi-cuda: the most elements a thread of a tiled kernel
  /// computes along each grid dimension (register tiles).
  int64_t gpuRegisterTile = 4;
};

/// Parses `options.input` with Clang, imports its scop regions, and writes
/// the result to `options.output` (atomically: nothing is written on error).
/// Diagnostics go to stderr. Returns the process exit code.
int runCompile(const CompileOptions &options);

} // namespace weft

#endif // WEFT_DRIVER_COMPILE_H
