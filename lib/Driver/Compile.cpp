//===- Compile.cpp - The `weft compile` pipeline ----------------*- C++ -*-===//
//
// Runs Clang on the input with weft's pragma handlers installed; once the
// translation unit is parsed, imports every scop region into one MLIR
// module, lowers it to C and splices the C back into the source.
//
//===----------------------------------------------------------------------===//
#include "weft/Driver/Compile.h"
#include "weft/Frontend/C/CImporter.h"
#include "weft/Frontend/C/ScopRegions.h"
#include "weft/Partition/Passes.h"
#include "weft/Pipelines/Pipelines.h"
#include "weft/Support/OutputFile.h"
#include "weft/Support/SourceNames.h"
#include "weft/Target/C/EmitC.h"
#include "weft/Target/C/SpliceRegions.h"
#include "weft/Target/CUDA/CxxCompat.h"
#include "weft/Target/CUDA/EmitCUDA.h"

#include "dialects/Dist/IR/DistDialect.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace weft;

#include "weft_rt_blocks_h.inc"
#include "weft_rt_elements_h.inc"
#include "weft_rt_mpi_h.inc"
#include "weft_rt_overlap_h.inc"

namespace {

/// Prints MLIR diagnostics in the same `file:line:col: error:` form as Clang.
void printMlirDiagnostic(mlir::Diagnostic &diag) {
  llvm::raw_ostream &os = llvm::errs();
  if (mlir::FileLineColLoc loc = weft::sourcePosition(diag.getLocation()))
    os << loc.getFilename().getValue() << ":" << loc.getLine() << ":"
       << loc.getColumn() << ": ";
  else
    os << "weft: ";
  switch (diag.getSeverity()) {
  case mlir::DiagnosticSeverity::Error: os << "error: "; break;
  case mlir::DiagnosticSeverity::Warning: os << "warning: "; break;
  case mlir::DiagnosticSeverity::Note: os << "note: "; break;
  case mlir::DiagnosticSeverity::Remark: os << "remark: "; break;
  }
  os << diag.str() << "\n";
}

/// Where the translation unit's result goes once Clang is done with it.
struct CompileResult {
  bool ok = false;
  std::string text;
};

class WeftConsumer : public clang::ASTConsumer {
public:
  WeftConsumer(const CompileOptions &options, PragmaLog &log,
               CompileResult &result)
      : options(options), log(log), result(result) {}

  void HandleTranslationUnit(clang::ASTContext &ctx) override;

private:
  const CompileOptions &options;
  PragmaLog &log;
  CompileResult &result;
};

class WeftAction : public clang::ASTFrontendAction {
public:
  WeftAction(const CompileOptions &options, CompileResult &result)
      : options(options), result(result) {}

protected:
  bool BeginSourceFileAction(clang::CompilerInstance &ci) override {
    registerScopPragmaHandlers(ci.getPreprocessor(), log);
    return true;
  }
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &, llvm::StringRef) override {
    return std::make_unique<WeftConsumer>(options, log, result);
  }

private:
  const CompileOptions &options;
  CompileResult &result;
  PragmaLog log;
};

} // end anonymous namespace

/// The MPI runtime an MPI output starts with (runtime/mpi, after the
/// overlapping-arguments check it shares with the CUDA outputs).
static std::string mpiRuntime() {
  return std::string(weft_rt_blocks_h) + weft_rt_elements_h +
         weft_rt_overlap_h + weft_rt_mpi_h;
}

/// Fails with an error where an entry of `--size` names no scalar that a
/// region of `module` takes (a typo would otherwise leave the estimates at
/// the nominal size without a word).
static bool checkSizeNames(mlir::ModuleOp module,
                           llvm::ArrayRef<std::string> sizes,
                           llvm::StringRef input) {
  llvm::StringSet<> names;
  module.walk([&](mlir::func::FuncOp func) {
    for (mlir::BlockArgument arg : func.getArguments())
      names.insert(sourceName(arg));
  });
  for (llvm::StringRef entry : sizes) {
    llvm::StringRef name = entry.split('=').first;
    if (!names.contains(name)) {
      llvm::errs() << "weft compile: error: --size=" << entry << ": no "
                   << "#pragma scop region of " << input
                   << " uses a size named '" << name << "'\n";
      return false;
    }
  }
  return true;
}

/// The region function's name: weft_<function>_scop<n>.
static std::string regionFunctionName(const ScopRegion &region,
                                      unsigned index) {
  return "weft_" + region.function->getName().str() + "_scop" +
         std::to_string(index);
}

void WeftConsumer::HandleTranslationUnit(clang::ASTContext &ctx) {
  if (ctx.getDiagnostics().hasErrorOccurred())
    return;
  std::vector<ScopRegion> regions;
  if (!collectScopRegions(ctx, log, regions))
    return;

  mlir::DialectRegistry registry;
  registerImportedDialects(registry);
  registry.insert<mlir::emitc::EmitCDialect, weft::dist::DistDialect>();
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  mlir::ScopedDiagnosticHandler handler(&context, [](mlir::Diagnostic &d) {
    printMlirDiagnostic(d);
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::ModuleOp::create(mlir::UnknownLoc::get(&context));

  std::vector<RegionReplacement> replacements;
  std::map<const clang::FunctionDecl *, unsigned> perFunction;
  bool ok = true;
  for (const ScopRegion &region : regions) {
    std::string name =
        regionFunctionName(region, perFunction[region.function]++);
    ImportedRegion imported;
    if (!importScopRegion(ctx, region, *module, name, imported) ||
        !recordDirectives(ctx, region, imported)) {
      ok = false;
      continue;
    }
    replacements.push_back({&region, name, "", imported.callArgs,
                            imported.deadIterators, imported.copiedScalars,
                            imported.droppedRegisterKeywords});
  }
  if (!ok || mlir::failed(mlir::verify(*module)) ||
      !checkSizeNames(*module, options.sizes, options.input))
    return;
  if (!replacements.empty()) {
    mlir::PassManager pm(&context);
    DistributeOptions distribute;
    distribute.report = options.report;
    distribute.liveOutEverywhere = options.liveOutEverywhere;
    distribute.splitFpReductions = options.splitFpReductions;
    distribute.ranks = options.plannedRanks;
    distribute.ranksPerNode = options.ranksPerNode;
    distribute.nominalSize = options.nominalSize;
    distribute.sizes = options.sizes;
    distribute.gridDims = options.gridDims;
    distribute.gpu = options.gpu;
    distribute.cpu = options.cpu;
    distribute.gpuChoice = options.gpuChoice;
    distribute.registerTile = options.gpuRegisterTile;
    CudaOptions cuda;
    cuda.report = options.report;
    cuda.gpu = options.gpu;
    cuda.cpu = options.cpu;
    cuda.gpuChoice = options.gpuChoice;
    cuda.registerTile = options.gpuRegisterTile;
    cuda.nominalSize = options.nominalSize;
    cuda.sizes = options.sizes;
    cuda.splitFpReductions = options.splitFpReductions;
    bool mpi = options.target == CompileTarget::Mpi;
    bool gpu = options.target == CompileTarget::Cuda;
    bool mpiGpu = options.target == CompileTarget::MpiCuda;
    if (options.emit == EmitKind::MLIR) {
      if (mpi)
        buildDistributePipeline(pm, distribute);
      else if (gpu)
        buildKernelsPipeline(pm, cuda);
      else if (mpiGpu)
        buildMpiKernelsPipeline(pm, distribute);
    } else if (mpi) {
      buildMpiPipeline(pm, distribute);
    } else if (gpu) {
      buildCudaPipeline(pm, cuda);
    } else if (mpiGpu) {
      buildMpiCudaPipeline(pm, distribute);
    } else {
      buildSeqPipeline(pm);
    }
    if (mlir::failed(pm.run(*module)))
      return;
  }

  if (options.emit == EmitKind::MLIR) {
    llvm::raw_string_ostream os(result.text);
    mlir::OpPrintingFlags flags;
    if (options.mlirDebugInfo)
      flags.enableDebugInfo();
    module->print(os, flags);
    result.ok = true;
    return;
  }

  llvm::StringMap<RegionFunctionC> functions;
  std::string preamble;
  std::vector<SourceEdit> edits;
  bool cudaOutput = options.target == CompileTarget::Cuda ||
                    options.target == CompileTarget::MpiCuda;
  if (cudaOutput) {
    if (!replacements.empty() &&
        mlir::failed(emitCUDARegionFunctions(*module, functions)))
      return;
    preamble = options.target == CompileTarget::MpiCuda
                   ? mpiRuntime() + cudaMpiPreamble()
                   : weft_rt_overlap_h + cudaPreamble();
    if (!collectCxxEdits(ctx, regions, edits))
      return;
  } else {
    // Declarations in the region functions avoid the file's macro names.
    llvm::StringSet<> macros;
    for (const auto &macro : ctx.Idents)
      if (macro.getValue()->hasMacroDefinition())
        macros.insert(macro.getKey());
    CPrintOptions printOptions;
    printOptions.reservedNames = &macros;
    if (!replacements.empty() &&
        mlir::failed(
            emitRegionFunctions(*module, functions, preamble, printOptions)))
      return;
  }
  // A region checked for overlapping arguments is three or four functions
  // (dist-alias-check): its forms for overlapping arguments, sequential and
  // distributed, then the dispatcher the call site calls; a region nothing
  // distributed is the function rank 0 runs (dist-run-on-root, after its
  // forms) and the dispatcher.
  for (RegionReplacement &rep : replacements) {
    for (llvm::StringRef suffix :
         {llvm::StringRef(weft::kOverlappingSuffix),
          llvm::StringRef(weft::kSequentialSuffix),
          llvm::StringRef(weft::kDistributedSuffix),
          llvm::StringRef(weft::kRank0Suffix), llvm::StringRef()})
      rep.definition +=
          functions.lookup(rep.functionName + suffix.str()).definition;
    rep.callArgs = functions.lookup(rep.functionName).callArgs;
  }
  if (options.target == CompileTarget::Mpi)
    preamble = mpiRuntime() + preamble;
  result.text =
      spliceRegions(ctx, replacements, preamble, edits,
                    options.output == "-" ? "<stdout>" : options.output);
  result.ok = true;
}

int weft::runCompile(const CompileOptions &options) {
  if (!llvm::sys::fs::exists(options.input)) {
    llvm::errs() << "weft: error: no such file: '" << options.input << "'\n";
    return 1;
  }
  // Accept what gcc accepts: C that Clang 19 rejects by default only for
  // legacy reasons (implicit declarations, implicit int) parses with the
  // warnings silenced, as the user's own compiler will report them.
  std::vector<std::string> args = {
      "clang",
      "-fsyntax-only",
      "-x",
      "c",
      "-resource-dir",
      WEFT_CLANG_RESOURCE_DIR,
      "-w",
      "-Wno-error=implicit-function-declaration",
      "-Wno-error=implicit-int",
      "-Wno-error=int-conversion",
      "-Wno-error=incompatible-pointer-types",
      "-Wno-error=return-type"};
  for (const std::string &dir : options.includeDirs)
    args.push_back("-I" + dir);
  for (const std::string &def : options.defines)
    args.push_back("-D" + def);
  args.push_back(options.input);

  CompileResult result;
  auto files = llvm::makeIntrusiveRefCnt<clang::FileManager>(
      clang::FileSystemOptions());
  clang::tooling::ToolInvocation invocation(
      args, std::make_unique<WeftAction>(options, result), files.get());
  bool parsed = invocation.run();
  if (!parsed || !result.ok)
    return 1;

  if (llvm::Error e = writeOutputFile(options.output, result.text,
                                      {llvm::StringRef(options.input)})) {
    llvm::errs() << "weft: error: " << llvm::toString(std::move(e)) << "\n";
    return 1;
  }
  return 0;
}
