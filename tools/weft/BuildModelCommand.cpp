//===- BuildModelCommand.cpp - `weft build-model` -------------------------===//
//
// Compiles a serving plan and a checkpoint into a directory that
// `make -C DIR` turns into DIR/serve: the checkpoint's llm IR is planned
// (a plan.json by llm-plan; a plan in llm IR, from `weft plan --emit=mlir`,
// is that IR, checked against the checkpoint's), weft-serve-pipeline and
// weft-serve-to-emitc-pipeline lower it and weft's C printer prints the SPMD
// C++ program (test/LLM/passes-to-serve-program.test: the same, one pass at
// a time in weft-opt and weft-translate), the weights are
// quantized per the plan into one file per stage, tensor by tensor, and a
// Makefile that links the serving runtime built with weft is written next
// to them. The directory appears whole or not at all.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "ServeDirectory.h"

#include "dialects/LLM/IR/LLMOps.h"
#include "weft/CostModel/Device.h"
#include "weft/CostModel/Memory.h"
#include "weft/LLM/AnnotatePlan.h"
#include "weft/LLM/ModelIR.h"
#include "weft/LLM/RuntimeKernels.h"
#include "weft/Pipelines/Pipelines.h"
#include "weft/Planner/ModelImport.h"
#include "weft/Support/JSONFile.h"
#include "weft/Target/C/TranslateToC.h"

#include "weft_rt_checkpoint.h"
#include "weft_rt_stage_file.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace weft;
using namespace weft::plan;

namespace {

int fail(const Twine &msg) { return commandError(msg); }

/// What a failed pass run said: its errors, one per line, each with the
/// model part it is about ("layers.3: ...") when the op knows it. Remarks
/// are the passes' report for tests and weft-opt; the command drops them.
class PassDiagnostics {
public:
  explicit PassDiagnostics(mlir::MLIRContext &ctx)
      : handler(&ctx, [this](mlir::Diagnostic &d) {
          if (d.getSeverity() == mlir::DiagnosticSeverity::Error) {
            raw_string_ostream os(text);
            if (auto name = dyn_cast<mlir::NameLoc>(d.getLocation()))
              os << name.getName().getValue() << ": ";
            else if (auto pos = dyn_cast<mlir::FileLineColLoc>(d.getLocation()))
              os << pos.getFilename().getValue() << ":" << pos.getLine() << ":"
                 << pos.getColumn() << ": ";
            os << d << "\n";
          }
          return mlir::success();
        }) {}
  /// The errors, without the last newline.
  StringRef errors() const { return StringRef(text).rtrim(); }

private:
  std::string text;
  mlir::ScopedDiagnosticHandler handler;
};

/// The C++ text of the serving program of `module` (scheduled llm IR).
FailureOr<std::string> lowerToCpp(mlir::ModuleOp module) {
  mlir::PassManager pm(module.getContext());
  buildServeToEmitCPipeline(pm);
  if (mlir::failed(pm.run(module)))
    return mlir::failure();
  std::string text;
  raw_string_ostream os(text);
  if (mlir::failed(translateToC(module, os)))
    return mlir::failure();
  return text;
}

/// Whether the plan file holds llm IR (`weft plan --emit=mlir`) rather than
/// plan.json, which starts with '{'.
Expected<bool> isIRPlan(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> file = MemoryBuffer::getFile(path);
  if (!file)
    return createStringError(file.getError(),
                             path + ": " + file.getError().message());
  return !(*file)->getBuffer().ltrim().starts_with("{");
}

/// The planned llm IR of `planPath`, checked to be the model of the
/// weights (`imported`) with a plan.
FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
readIRPlan(mlir::MLIRContext &ctx, StringRef planPath,
           mlir::ModuleOp imported) {
  mlir::OwningOpRef<mlir::ModuleOp> planned =
      mlir::parseSourceFile<mlir::ModuleOp>(planPath, &ctx);
  if (!planned)
    return mlir::failure();
  mlir::FailureOr<llm::ModelOp> model = llm::getOnlyModel(*planned);
  if (mlir::failed(model) || mlir::failed(llm::checkPlannedModel(
                                 *model, *llm::getOnlyModel(imported))))
    return mlir::failure();
  return planned;
}

/// The stage-file writer's spec of one stage.
rt::StageFileSpec stageFileSpec(const llm::StageStorage &s) {
  rt::StageFileSpec spec;
  spec.model = s.model;
  spec.stage = s.stage;
  spec.numStages = s.numStages;
  spec.firstLayer = s.firstLayer;
  spec.endLayer = s.endLayer;
  spec.hasEmbedding = s.hasEmbedding;
  spec.hasHead = s.hasHead;
  spec.attnBits = s.attnBits;
  spec.ffnBits = s.ffnBits;
  spec.headBits = s.headBits;
  if (s.groupSize > 0)
    spec.groupSize = s.groupSize;
  return spec;
}

} // namespace

int weft::buildModelMain(int argc, char **argv) {
  cl::OptionCategory cat("weft build-model options");
  cl::opt<std::string> planPath(
      "plan",
      cl::desc("Plan file (weft plan: plan.json, or the planned llm IR of "
               "--emit=mlir)"),
      cl::value_desc("PLAN"), cl::Required, cl::cat(cat));
  cl::opt<std::string> weightsPath(
      "weights",
      cl::desc("llama2.c checkpoint, or a directory with config.json and "
               "*.safetensors"),
      cl::value_desc("W"), cl::Required, cl::cat(cat));
  cl::opt<std::string> output("o", cl::desc("Directory to write"),
                              cl::value_desc("DIR"), cl::Required,
                              cl::cat(cat));
  cl::opt<std::string> target("target",
                              cl::desc("cpu (default) or cuda"),
                              cl::init("cpu"), cl::cat(cat));
  cl::opt<int> groupSize(
      "group-size",
      cl::desc("Inputs per quantization group (a multiple of 8; default: the "
               "cost model's)"),
      cl::init(int(cost::kGroupSize)), cl::cat(cat));
  cl::HideUnrelatedOptions(cat);
  if (!cl::ParseCommandLineOptions(argc, argv, "weft build-model\n", &errs()))
    return 1;
  if (target != "cpu" && target != "cuda")
    return fail("--target: expected cpu or cuda, got '" + target + "'");
  if (groupSize < 8 || groupSize % 8)
    return fail("--group-size: expected a positive multiple of 8, got " +
                Twine(groupSize));

  // The model's shapes for the plan.
  Expected<ImportedModel> model = importModel(weightsPath);
  if (!model)
    return fail(toString(model.takeError()));
  const cost::ModelDesc &desc = model->desc;
  bool llamaLike = (desc.arch == "llama2c" || desc.arch == "llama" ||
                    desc.arch == "mistral") &&
                   desc.gatedFFN;
  if (!llamaLike && desc.arch != "opt")
    return fail(weightsPath + ": architecture '" + desc.arch +
                "' has no serving runtime yet (supported: LLaMA-style "
                "llama2.c checkpoints, llama/mistral and opt safetensors)");

  // The model as llm IR, planned (plan.json: by llm-plan; llm IR: as it
  // says), quantised, split and scheduled.
  Expected<bool> irPlan = isIRPlan(planPath);
  if (!irPlan)
    return fail(toString(irPlan.takeError()));
  mlir::MLIRContext ctx;
  ctx.loadDialect<llm::LLMDialect, mlir::emitc::EmitCDialect>();
  PassDiagnostics diagnostics(ctx);
  Expected<mlir::OwningOpRef<mlir::ModuleOp>> imported =
      llm::importModel(ctx, desc);
  if (!imported)
    return fail(weightsPath + ": " + toString(imported.takeError()));
  mlir::OwningOpRef<mlir::ModuleOp> module = std::move(*imported);
  ServeOptions serveOptions;
  serveOptions.groupSize = groupSize;
  if (*irPlan) {
    FailureOr<mlir::OwningOpRef<mlir::ModuleOp>> planned =
        readIRPlan(ctx, planPath, *module);
    if (mlir::failed(planned))
      return fail(diagnostics.errors());
    module = std::move(*planned);
  } else {
    // The plan names its model; other weights of the same shape are fine.
    Expected<json::Value> planJSON = readJSONFile(planPath);
    if (!planJSON)
      return fail(toString(planJSON.takeError()));
    if (const json::Object *top = planJSON->getAsObject())
      if (std::optional<StringRef> name = top->getString("model"))
        if (*name != desc.name)
          errs() << "weft: warning: " << planPath
                 << ": model: the plan is for '" << *name
                 << "' but the weights are '" << desc.name
                 << "' (its layer ranges fit these weights)\n";
    serveOptions.plan = std::string(planPath);
  }
  mlir::PassManager pm(&ctx);
  buildServePipeline(pm, serveOptions);
  if (mlir::failed(pm.run(*module)))
    return fail(diagnostics.errors());
  mlir::FailureOr<std::vector<llm::StageStorage>> stages =
      llm::stageStorage(*llm::getOnlyModel(*module));
  if (mlir::failed(stages))
    return fail(diagnostics.errors());

  // Opening checks every tensor's presence and shape; the stage files then
  // read them one at a time.
  rt::Checkpoint checkpoint;
  std::string error;
  if (!checkpoint.open(weightsPath, &error))
    return fail(error);
  FailureOr<std::string> program = lowerToCpp(*module);
  if (mlir::failed(program))
    return fail("internal error: lowering the plan failed:\n" +
                diagnostics.errors());

  ServeDirectory dir(output, target);
  if (Error e = dir.create())
    return fail(toString(std::move(e)));
  if (Error e = dir.writeProgram(*program, desc.name, stages->size()))
    return fail(toString(std::move(e)));
  for (const llm::StageStorage &stage : *stages)
    if (!rt::writeStageFile(dir.stageFilePath(stage.stage), checkpoint,
                            stageFileSpec(stage), &error))
      return fail(error);
  if (Error e = dir.commit())
    return fail(toString(std::move(e)));
  return 0;
}
