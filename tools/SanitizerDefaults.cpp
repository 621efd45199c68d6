//===- SanitizerDefaults.cpp - ASan defaults of sanitized weft binaries ---===//
//
// Linked into every executable of a WEFT_SANITIZE build. Debian's libMLIR
// and libclang-cpp are not instrumented, but they share LLVM's inline
// BumpPtrAllocator with weft's code: instrumented copies poison a slab's
// free tail, uninstrumented ones then allocate from it without unpoisoning,
// and ASan reports a use-after-poison that is not one. Manual poisoning is
// therefore ignored; ASan's own checks (heap, stack, globals) all stay.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}
