//===- ServingRuntime.cpp - The runtime generated programs link -----------===//
#include "ServingRuntime.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace weft {
namespace {

Error fileError(const Twine &path, std::error_code ec) {
  return createStringError(ec, path + ": " + ec.message());
}

} // namespace

Expected<std::string> findServingRuntime(StringRef target) {
  SmallString<256> dir;
  if (std::optional<std::string> env = sys::Process::GetEnv("WEFT_RUNTIME")) {
    dir = *env;
  } else {
    // Any address in weft finds its executable where argv[0] cannot.
    static int anchor;
    dir = sys::fs::getMainExecutable(nullptr, &anchor);
    sys::path::remove_filename(dir); // bin/
    sys::path::remove_filename(dir);
    sys::path::append(dir, "lib", "weft-runtime");
  }
  sys::fs::make_absolute(dir);
  auto missing = [&](const Twine &file, const Twine &why) {
    return createStringError(inconvertibleErrorCode(),
                             dir + "/" + file + ": missing: " + why);
  };
  if (!sys::fs::exists(dir + "/weft-runtime.mk"))
    return missing("weft-runtime.mk",
                   "the serving runtime is not built (it is built with weft "
                   "where mpicxx exists: ninja weft-runtime; or set "
                   "WEFT_RUNTIME to a build of runtime/Makefile)");
  if (target == "cuda" && !sys::fs::exists(dir + "/lib/libweft_rt_cuda.a"))
    return missing("lib/libweft_rt_cuda.a",
                   "the CUDA runtime is built with weft only where nvcc "
                   "exists (or: make -C runtime OUT=" +
                       dir + " cuda)");
  return std::string(dir);
}

Error writeTextFile(const Twine &path, StringRef text) {
  std::error_code ec;
  raw_fd_ostream os(path.str(), ec);
  if (ec)
    return fileError(path, ec);
  os << text;
  os.close();
  if (os.has_error())
    return fileError(path, os.error());
  return Error::success();
}

std::string programMakefile(const ProgramMakefile &m) {
  std::string text;
  raw_string_ostream os(text);
  StringRef rest = m.comment;
  while (!rest.empty()) {
    auto [line, tail] = rest.split('\n');
    os << "# " << line << "\n";
    rest = tail;
  }
  const bool cuda = m.target == "cuda", serving = !m.source.empty();
  const std::string cxx = "$(" + m.compiler + ")";
  os << "#\n# Compiles only this program's code and links weft's serving "
        "runtime,\n# built once with weft: make WEFT_RUNTIME=DIR uses "
        "another build of it\n# (make -C <weft source>/runtime OUT=DIR).\n\n"
     << "WEFT_RUNTIME ?= " << m.runtimeDir << "\n"
     << "include $(WEFT_RUNTIME)/weft-runtime.mk\n\n"
     << m.compiler << " ?= " << m.compilerDefault << "\n"
     << "CXXFLAGS ?= -O2\n";
  std::string objects = "$(WEFT_RT_BENCH_OBJ)";
  if (serving)
    objects = StringRef(m.source).rsplit('.').first.str() + ".o";
  os << "OBJECTS := " << objects << "\n"
     << "LIBS := $(WEFT_RT_" << (cuda ? "CUDA" : "CPU") << "_"
     << (serving ? "LIBS" : "BACKEND") << ")\n"
     << "LDLIBS += -pthread" << (cuda ? " $(WEFT_RT_CUDA_LDLIBS)" : "")
     << "\n\n"
     << m.program << ": $(OBJECTS) $(LIBS)\n"
     << "\t" << cxx << " $(CXXFLAGS) -o $@ $(OBJECTS) $(LIBS) $(LDLIBS)\n\n";
  if (serving)
    os << "%.o: %.cpp\n"
       << "\t" << cxx
       << " $(CXXFLAGS) -std=c++17 $(WEFT_RT_CPPFLAGS) -c -o $@ $<\n\n";
  os << "clean:\n\trm -f " << m.program << (serving ? " $(OBJECTS)" : "")
     << "\n\n.PHONY: clean\n";
  return text;
}

} // namespace weft
