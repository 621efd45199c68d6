//===- ImportModelCommand.cpp - `weft import-model` -----------------------===//
//
// Writes the llm IR of a model (lib/LLM/ModelIR.cpp): the input of the LLM
// passes when they are run one by one in weft-opt.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "weft/LLM/ModelIR.h"
#include "weft/Support/OutputFile.h"

#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/CommandLine.h"

using namespace llvm;

int weft::importModelMain(int argc, char **argv) {
  cl::OptionCategory cat("weft import-model options");
  cl::opt<std::string> modelPath(
      "model", cl::desc("config.json, directory or llama2.c checkpoint"),
      cl::Required, cl::cat(cat));
  cl::opt<std::string> output("o", cl::desc("MLIR file to write ('-': stdout)"),
                              cl::value_desc("MODEL.mlir"), cl::init("-"),
                              cl::cat(cat));
  cl::HideUnrelatedOptions(cat);
  if (!cl::ParseCommandLineOptions(argc, argv, "weft import-model\n", &errs()))
    return 1;
  mlir::MLIRContext ctx;
  auto module = llm::importModelFile(ctx, modelPath);
  if (!module)
    return commandError(toString(module.takeError()));
  std::string text;
  raw_string_ostream os(text);
  (*module)->print(os);
  if (Error e = writeOutputFile(output, text, {modelPath}))
    return commandError(toString(std::move(e)));
  return 0;
}
