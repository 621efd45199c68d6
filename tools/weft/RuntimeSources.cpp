//===- RuntimeSources.cpp - The runtime sources generated programs build --===//
#include "RuntimeSources.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace weft {
namespace {

struct RuntimeFile {
  const char *path; ///< relative to runtime/: cpu/…, serve/…, cuda/…
  const char *text;
};

const RuntimeFile kRuntimeFiles[] = {
#include "weft_serving_runtime.inc"
};

Error fileError(const Twine &path, std::error_code ec) {
  return createStringError(ec, path + ": " + ec.message());
}

} // namespace

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

Error writeRuntimeFiles(StringRef dir, function_ref<bool(StringRef)> wanted,
                        ProgramSources &out) {
  for (const RuntimeFile &f : kRuntimeFiles) {
    StringRef path(f.path);
    if (!wanted(path))
      continue;
    std::string file = (dir + "/runtime/" + path).str();
    if (std::error_code ec =
            sys::fs::create_directories(sys::path::parent_path(file)))
      return fileError(sys::path::parent_path(file), ec);
    if (Error e = writeTextFile(file, f.text))
      return e;
    if (path.ends_with(".cpp"))
      out.cpp.push_back("runtime/" + path.str());
    else if (path.ends_with(".cu"))
      out.cuda.push_back("runtime/" + path.str());
  }
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
  const std::string cxx = "$(" + m.compiler + ")";
  const bool cuda = m.target == "cuda";
  os << "\n"
     << m.compiler << " ?= " << m.compilerDefault << "\n"
     << "CXXFLAGS ?= -O3 -march=native\n"
     << "override CXXFLAGS += -std=c++17 -pthread -Iruntime/cpu "
        "-Iruntime/format -Iruntime/serve\n";
  if (cuda)
    os << "CUDA_HOME ?= /usr/local/cuda\n"
       << "NVCC ?= $(CUDA_HOME)/bin/nvcc\n"
       << "CUDA_ARCHS ?= -gencode arch=compute_75,code=sm_75 "
          "-gencode arch=compute_80,code=sm_80 "
          "-gencode arch=compute_90,code=sm_90\n"
       << "NVCCFLAGS ?= -O3\n"
       << "override NVCCFLAGS += -std=c++17 $(CUDA_ARCHS) -Iruntime/cpu "
          "-Iruntime/format -Iruntime/serve -Iruntime/cuda\n"
       << "LDLIBS += -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 "
          "-lcublas -lcudart\n";
  os << "\nSOURCES :=";
  for (const std::string &s : m.sources.cpp)
    os << " \\\n  " << s;
  os << "\n";
  if (cuda) {
    os << "CUDA_SOURCES :=";
    for (const std::string &s : m.sources.cuda)
      os << " \\\n  " << s;
    os << "\n";
  }
  os << "OBJECTS := $(SOURCES:.cpp=.o)"
     << (cuda ? " $(CUDA_SOURCES:.cu=.o)" : "") << "\n"
     << "HEADERS := $(wildcard runtime/*/*.h runtime/*/*.cuh)\n\n"
     << m.program << ": $(OBJECTS)\n"
     << "\t" << cxx << " $(CXXFLAGS) -o $@ $(OBJECTS) $(LDLIBS)\n\n"
     << "%.o: %.cpp $(HEADERS)\n"
     << "\t" << cxx << " $(CXXFLAGS) -c -o $@ $<\n\n";
  if (cuda)
    os << "%.o: %.cu $(HEADERS)\n"
       << "\t$(NVCC) $(NVCCFLAGS) -c -o $@ $<\n\n";
  os << "clean:\n\trm -f " << m.program << " $(OBJECTS)\n\n.PHONY: clean\n";
  return text;
}

} // namespace weft
