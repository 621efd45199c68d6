//===- CxxCompat.h - The C outside regions as C++ ---------------*- C++ -*-===//
//
// `--target=cuda` writes one CUDA C++ file, so the user's C outside the
// regions must also be C++. The usual differences are rewritten in place
// (the rest of the program is kept as written):
//
// * a variable-length array parameter `double A[n][m]` becomes
//   `void *weft_vla_A`, and the function body starts with
//   `double (*A)[m] = (double (*)[m])weft_vla_A;` (a GNU C++ extension that
//   nvcc and g++ accept), so the body is unchanged; a parameter whose only
//   variable extent is the first, `double x[n]`, becomes `double x[]`;
// * an implicit conversion C allows and C++ does not (from `void *` or
//   between pointer types, from integers to pointers or enumerations, a
//   string literal to `char *`) gets the explicit cast;
// * `restrict` and `_Bool` are macros in the preamble (not here).
//
// What it cannot rewrite is a located error: a C++ keyword used as a name,
// a call of an implicitly declared function, a conversion inside a macro.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_TARGET_CUDA_CXXCOMPAT_H
#define WEFT_TARGET_CUDA_CXXCOMPAT_H

#include "weft/Frontend/C/ScopRegions.h"
#include "weft/Target/C/SpliceRegions.h"

#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace weft {

/// Appends to `edits` what makes the main file's code outside `regions`
/// C++. Returns false after reporting an error through Clang's diagnostics.
bool collectCxxEdits(clang::ASTContext &ctx,
                     const std::vector<ScopRegion> &regions,
                     std::vector<SourceEdit> &edits);

} // namespace weft

#endif // WEFT_TARGET_CUDA_CXXCOMPAT_H
