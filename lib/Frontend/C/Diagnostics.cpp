//===- Diagnostics.cpp - Front-end diagnostics through Clang ----*- C++ -*-===//
#include "weft/Frontend/C/Diagnostics.h"

void weft::reportDiagnostic(clang::DiagnosticsEngine &diags,
                            clang::DiagnosticsEngine::Level level,
                            clang::SourceLocation loc,
                            const llvm::Twine &message) {
  diags.Report(loc, diags.getCustomDiagID(level, "%0")) << message.str();
}
