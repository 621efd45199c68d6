//===- Commands.h - Entry points of weft's LLM commands ---------*- C++ -*-===//
#ifndef WEFT_TOOLS_COMMANDS_H
#define WEFT_TOOLS_COMMANDS_H

namespace weft {
/// argv[0] is "weft cost"/"weft plan"/"weft build-model"; the rest are the
/// command's options.
int costMain(int argc, char **argv);
int planMain(int argc, char **argv);
int buildModelMain(int argc, char **argv);
} // namespace weft

#endif
