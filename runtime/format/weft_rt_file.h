//===- weft_rt_file.h - Files the model readers open ------------*- C++ -*-===//
//
// What every reader of model and stage files does first: open the file,
// learn its size, and report failures as "<file>: <what is wrong>".
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_FILE_H
#define WEFT_RT_FILE_H

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

namespace weft::rt {

struct FileCloser {
  void operator()(std::FILE *f) const { std::fclose(f); }
};
/// A stdio file, closed when it goes out of scope.
using File = std::unique_ptr<std::FILE, FileCloser>;

/// Sets *error (when given) to "<where>: <what>"; returns false.
inline bool fileError(std::string *error, const std::string &where,
                      const std::string &what) {
  if (error)
    *error = where + ": " + what;
  return false;
}

/// Opens `path` for reading, positioned at its start, with its size in
/// *size; null (and *error set) when it cannot be opened or is not a
/// regular file.
inline File openForReading(const std::string &path, int64_t *size,
                           std::string *error) {
  File file(std::fopen(path.c_str(), "rb"));
  if (!file) {
    fileError(error, path, "cannot open the file");
    return nullptr;
  }
  *size = -1;
  if (std::fseek(file.get(), 0, SEEK_END) == 0)
    *size = std::ftell(file.get());
  if (*size < 0 || std::fseek(file.get(), 0, SEEK_SET) != 0) {
    fileError(error, path, "cannot seek (not a regular file?)");
    return nullptr;
  }
  return file;
}

} // namespace weft::rt

#endif
