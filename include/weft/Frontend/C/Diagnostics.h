//===- Diagnostics.h - Front-end diagnostics through Clang ------*- C++ -*-===//
//
// weft's own front-end errors go through Clang's DiagnosticsEngine, so they
// print like Clang's (`file:line:col: error: ...` with a caret) and count
// towards hasErrorOccurred().
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_FRONTEND_C_DIAGNOSTICS_H
#define WEFT_FRONTEND_C_DIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/Twine.h"

namespace weft {

/// Reports `message` at `loc` with the given severity.
void reportDiagnostic(clang::DiagnosticsEngine &diags,
                      clang::DiagnosticsEngine::Level level,
                      clang::SourceLocation loc, const llvm::Twine &message);

inline void reportError(clang::DiagnosticsEngine &diags,
                        clang::SourceLocation loc, const llvm::Twine &message) {
  reportDiagnostic(diags, clang::DiagnosticsEngine::Error, loc, message);
}

inline void reportNote(clang::DiagnosticsEngine &diags,
                       clang::SourceLocation loc, const llvm::Twine &message) {
  reportDiagnostic(diags, clang::DiagnosticsEngine::Note, loc, message);
}

} // namespace weft

#endif // WEFT_FRONTEND_C_DIAGNOSTICS_H
