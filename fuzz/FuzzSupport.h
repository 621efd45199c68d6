//===- FuzzSupport.h - Shared helpers of weft's fuzz targets -----*- C++ -*-===//
//
// Readers that take a path get the fuzz input through a file in a private
// temporary directory (made once per process), so that the whole path a
// user's file takes is exercised, open and size checks included.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_FUZZ_FUZZSUPPORT_H
#define WEFT_FUZZ_FUZZSUPPORT_H

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/stat.h>

namespace weft::fuzz {

/// The per-process scratch directory (removed by nobody: it is in $TMPDIR).
inline const std::string &scratchDir() {
  static const std::string dir = [] {
    const char *tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") +
                          "/weft-fuzz-XXXXXX";
    if (!mkdtemp(pattern.data())) {
      std::perror("weft fuzz: mkdtemp");
      std::abort();
    }
    return pattern;
  }();
  return dir;
}

/// scratchDir()/name, made on first use.
inline std::string scratchSubdir(const std::string &name) {
  std::string dir = scratchDir() + "/" + name;
  if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    std::perror("weft fuzz: mkdir");
    std::abort();
  }
  return dir;
}

/// Writes `size` bytes to scratchDir()/name and returns its path.
inline std::string writeScratch(const std::string &name, const uint8_t *data,
                                size_t size) {
  std::string path = scratchDir() + "/" + name;
  std::FILE *f = std::fopen(path.c_str(), "wb");
  if (!f || (size && std::fwrite(data, 1, size, f) != size) ||
      std::fclose(f) != 0) {
    std::perror("weft fuzz: writing the input");
    std::abort();
  }
  return path;
}

} // namespace weft::fuzz

#endif
