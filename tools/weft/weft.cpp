//===- weft.cpp - The weft driver -------------------------------*- C++ -*-===//
//
// `weft <command> [options]`. Commands live in lib/Driver; this file only
// parses the command line.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "weft/CostModel/CpuDescription.h"
#include "weft/CostModel/Device.h"
#include "weft/CostModel/NominalSizes.h"
#include "weft/Driver/Compile.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace llvm;

static int compileMain(int argc, char **argv) {
  cl::OptionCategory category("weft compile options");
  cl::opt<std::string> input(cl::Positional, cl::desc("<input.c>"),
                             cl::Required, cl::cat(category));
  cl::opt<std::string> output("o", cl::desc("Output file"),
                              cl::value_desc("file"), cl::Required,
                              cl::cat(category));
  cl::opt<weft::CompileTarget> target(
      "target", cl::desc("What to generate"),
      cl::values(
          clEnumValN(weft::CompileTarget::Mpi, "mpi",
                     "C + MPI program (default)"),
          clEnumValN(weft::CompileTarget::Seq, "seq", "sequential C program"),
          clEnumValN(weft::CompileTarget::Cuda, "cuda",
                     "CUDA C++ program (nvcc OUT.cu)"),
          clEnumValN(weft::CompileTarget::MpiCuda, "mpi-cuda",
                     "MPI + CUDA C++ program, one GPU per rank")),
      cl::init(weft::CompileTarget::Mpi), cl::cat(category));
  cl::opt<weft::EmitKind> emit(
      "emit", cl::desc("Output format"),
      cl::values(clEnumValN(weft::EmitKind::C, "c", "C source (default)"),
                 clEnumValN(weft::EmitKind::MLIR, "mlir",
                            "the imported MLIR")),
      cl::init(weft::EmitKind::C), cl::cat(category));
  cl::opt<bool> debugInfo(
      "mlir-print-debuginfo",
      cl::desc("With --emit=mlir, print each op's location: its source "
               "position and the names the C printer gives values"),
      cl::cat(category));
  cl::list<std::string> includes("I", cl::Prefix, cl::desc("Include directory"),
                                 cl::value_desc("dir"), cl::cat(category));
  cl::list<std::string> defines("D", cl::Prefix,
                                cl::desc("Define a macro (NAME or NAME=VALUE)"),
                                cl::value_desc("macro"), cl::cat(category));
  cl::opt<bool> report(
      "report",
      cl::desc("Explain how each region is distributed (--target=mpi) or "
               "where each loop nest runs (--target=cuda)"),
      cl::cat(category));
  cl::opt<std::string> liveOut(
      "live-out",
      cl::desc("Where values live after a region go (--target=mpi): 'root' "
               "(rank 0, which prints; default) or 'all' (every rank)"),
      cl::value_desc("root|all"), cl::init("root"), cl::cat(category));
  cl::opt<std::string> fpReductions(
      "fp-reductions",
      cl::desc("Floating-point reductions (--target=mpi, cuda, mpi-cuda): "
               "'split' across ranks and combined with MPI_Allreduce, and "
               "across GPU threads in blocks and atomics (default; rounding "
               "may differ from the sequential program) or 'ordered' (kept "
               "in program order: the loop runs on every rank, on the host)"),
      cl::value_desc("split|ordered"), cl::init("split"), cl::cat(category));
  cl::opt<unsigned> ranks(
      "ranks",
      cl::desc("Number of ranks the partitioner's cost estimate plans for "
               "(--target=mpi; the program runs on any number; default 4)"),
      cl::value_desc("P"), cl::init(4), cl::cat(category));
  cl::opt<unsigned> ranksPerNode(
      "ranks-per-node",
      cl::desc("Ranks the partitioner's cost estimate places on one node, "
               "sharing its memory bandwidth (--target=mpi, mpi-cuda; "
               "default 0: a node's cores, filled before the next as mpirun "
               "places ranks)"),
      cl::value_desc("R"), cl::init(0), cl::cat(category));
  cl::opt<int64_t> nominalSize(
      "nominal-size",
      cl::desc("Value the cost estimates assume for sizes unknown at "
               "compile time (--target=mpi, cuda, mpi-cuda; default 4096)"),
      cl::value_desc("n"), cl::init(4096), cl::cat(category));
  cl::list<std::string> sizes(
      "size",
      cl::desc("Value the cost estimates take for a size unknown at compile "
               "time, by the name of its scalar in the C source (--target=mpi, "
               "cuda, mpi-cuda; several: repeat, or separate with commas; "
               "the others take --nominal-size)"),
      cl::value_desc("NAME=VALUE"), cl::CommaSeparated, cl::cat(category));
  cl::opt<unsigned> gridDims(
      "grid-dims",
      cl::desc("Most process grid axes a loop nest is split over "
               "(--target=mpi): 2 (default) lets the partitioner split a "
               "nest's two outer loops over a 2-D grid, 1 leaves that choice "
               "out (a directive may still pin a grid)"),
      cl::value_desc("1|2"), cl::init(2), cl::cat(category));
  cl::opt<std::string> cpu(
      "cpu",
      cl::desc("CPU the cost model predicts a rank's loops (--target=mpi) "
               "and the host's (cuda, mpi-cuda) on: 'cpu', the built-in "
               "one, or a CPU description FILE.json (bench/cpu-core.c "
               "--json prints one for the machine it runs on)"),
      cl::value_desc("cpu|FILE.json"), cl::init("cpu"), cl::cat(category));
  cl::opt<std::string> gpu(
      "gpu",
      cl::desc("GPU the cost model predicts kernel times on (--target=cuda, "
               "mpi-cuda; a name of the device database; default "
               "A100-40GB)"),
      cl::value_desc("TYPE"), cl::init("A100-40GB"), cl::cat(category));
  cl::opt<std::string> gpuChoice(
      "gpu-choice",
      cl::desc("Which loop nests that may run on the GPU do (--target=cuda, "
               "mpi-cuda): 'cost' (default: those the cost model predicts "
               "faster there) or 'always' (every one; for tests, and for "
               "users who know better)"),
      cl::value_desc("cost|always"), cl::init("cost"), cl::cat(category));
  cl::opt<int64_t> gpuRegisterTile(
      "gpu-register-tile",
      cl::desc("Most elements a thread of a tiled kernel computes along each "
               "grid dimension (--target=cuda, mpi-cuda; 1, 2, 4 or 8; "
               "default 4: 8 is for experiments, its kernels need many "
               "registers)"),
      cl::value_desc("N"), cl::init(4), cl::cat(category));
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(argc, argv, "weft compile\n", &errs()))
    return 1;

  weft::CompileOptions options;
  options.input = input;
  options.output = output;
  options.target = target;
  options.emit = emit;
  options.mlirDebugInfo = debugInfo;
  options.includeDirs.assign(includes.begin(), includes.end());
  options.defines.assign(defines.begin(), defines.end());
  options.report = report;
  if (liveOut != "root" && liveOut != "all") {
    errs() << "weft compile: error: --live-out must be 'root' or 'all', got '"
           << liveOut << "'\n";
    return 1;
  }
  options.liveOutEverywhere = liveOut == "all";
  if (fpReductions != "split" && fpReductions != "ordered") {
    errs() << "weft compile: error: --fp-reductions must be 'split' or "
              "'ordered', got '"
           << fpReductions << "'\n";
    return 1;
  }
  options.splitFpReductions = fpReductions == "split";
  if (ranks < 1) {
    errs() << "weft compile: error: --ranks must be at least 1\n";
    return 1;
  }
  if (nominalSize < 1) {
    errs() << "weft compile: error: --nominal-size must be at least 1, got "
           << nominalSize << "\n";
    return 1;
  }
  if (llvm::Error error = weft::cost::NominalSizes().add(sizes)) {
    errs() << "weft compile: error: --size: " << toString(std::move(error))
           << "\n";
    return 1;
  }
  options.sizes.assign(sizes.begin(), sizes.end());
  if (gridDims != 1 && gridDims != 2) {
    errs() << "weft compile: error: --grid-dims must be 1 or 2, got "
           << gridDims << "\n";
    return 1;
  }
  options.gridDims = gridDims;
  if (gpuChoice != "cost" && gpuChoice != "always") {
    errs() << "weft compile: error: --gpu-choice must be 'cost' or 'always', "
              "got '"
           << gpuChoice << "'\n";
    return 1;
  }
  if (gpuRegisterTile != 1 && gpuRegisterTile != 2 && gpuRegisterTile != 4 &&
      gpuRegisterTile != 8) {
    errs() << "weft compile: error: --gpu-register-tile must be 1, 2, 4 or "
              "8, got "
           << gpuRegisterTile << "\n";
    return 1;
  }
  if (llvm::Expected<weft::cost::DeviceSpec> spec =
          weft::cost::lookupDevice(gpu);
      !spec) {
    errs() << "weft compile: error: --gpu: " << toString(spec.takeError())
           << "\n";
    return 1;
  }
  {
    llvm::Expected<weft::cost::DeviceSpec> spec = weft::cost::lookupCpu(cpu);
    if (!spec && StringRef(cpu).ends_with(".json")) {
      errs() << "weft compile: error: --cpu: " << toString(spec.takeError())
             << "\n";
      return 1;
    }
    if (!spec || !spec->isCpu) {
      if (!spec)
        consumeError(spec.takeError());
      errs() << "weft compile: error: --cpu must be 'cpu' or a CPU "
                "description FILE.json, got '"
             << cpu << "'\n";
      return 1;
    }
  }
  options.cpu = cpu;
  options.gpu = gpu;
  options.gpuChoice = gpuChoice;
  options.gpuRegisterTile = gpuRegisterTile;
  options.plannedRanks = ranks;
  options.ranksPerNode = ranksPerNode;
  options.nominalSize = nominalSize;
  return weft::runCompile(options);
}

static void usage(raw_ostream &os) {
  os << "usage: weft <command> [options]\n\n"
        "commands:\n"
        "  compile      distribute the #pragma scop regions of a C file "
        "(--target=mpi|seq|cuda|mpi-cuda)\n"
        "  plan         plan LLM serving on a heterogeneous GPU cluster\n"
        "  build-model  compile a plan and its weights into a pipelined "
        "MPI serving program\n"
        "  import-model write the llm IR of a model (input of weft-opt's LLM "
        "passes)\n"
        "  cost         per-layer latency model (cost layer, calibrate, "
        "check)\n\n"
        "Run 'weft <command> --help' for the options of a command.\n";
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  if (argc < 2) {
    usage(errs());
    return 1;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    usage(outs());
    return 0;
  }
  // The command name becomes the program name of its own option parser.
  std::string command = argv[1];
  std::string program = std::string("weft ") + command;
  argv[1] = program.data();
  if (command == "compile")
    return compileMain(argc - 1, argv + 1);
  if (command == "plan")
    return weft::planMain(argc - 1, argv + 1);
  if (command == "build-model")
    return weft::buildModelMain(argc - 1, argv + 1);
  if (command == "import-model")
    return weft::importModelMain(argc - 1, argv + 1);
  if (command == "cost")
    return weft::costMain(argc - 1, argv + 1);
  errs() << "weft: error: unknown command '" << command << "'\n";
  usage(errs());
  return 1;
}
