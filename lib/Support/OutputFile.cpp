//===- OutputFile.cpp - Write a tool's output file safely -----------------===//
#include "weft/Support/OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static Error fail(StringRef path, const Twine &why) {
  return createStringError(inconvertibleErrorCode(),
                           "cannot write '" + path + "': " + why);
}

/// Writes through an existing file that is not a regular one (a terminal,
/// /dev/null, a FIFO): replacing it would break the system or the reader.
static Error writeThrough(StringRef path, StringRef text) {
  std::error_code ec;
  raw_fd_ostream os(path, ec, sys::fs::OF_None);
  if (ec)
    return fail(path, ec.message());
  os << text;
  os.close();
  if (os.has_error()) {
    std::error_code error = os.error();
    os.clear_error();
    return fail(path, error.message());
  }
  return Error::success();
}

/// Replaces `path` by a complete file: readers never see a partial one.
static Error replace(StringRef path, StringRef text) {
  SmallString<256> model(path);
  model += ".tmp-%%%%%%";
  int fd;
  SmallString<256> tmp;
  if (std::error_code ec = sys::fs::createUniqueFile(model, fd, tmp))
    return fail(path, ec.message());
  {
    raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << text;
    os.close();
    if (os.has_error()) {
      std::error_code error = os.error();
      os.clear_error();
      sys::fs::remove(tmp);
      return fail(path, error.message());
    }
  }
  if (std::error_code ec = sys::fs::rename(tmp, path)) {
    sys::fs::remove(tmp);
    return fail(path, ec.message());
  }
  return Error::success();
}

Error weft::writeOutputFile(StringRef path, StringRef text,
                            ArrayRef<StringRef> inputs) {
  if (path == "-") {
    outs() << text;
    outs().flush();
    if (outs().has_error())
      return fail(path, "standard output is not writable");
    return Error::success();
  }
  for (StringRef input : inputs)
    if (sys::fs::equivalent(input, path))
      return createStringError(inconvertibleErrorCode(),
                               "output file '" + path +
                                   "' is the input file '" + input + "'");
  // A symbolic link stays: its target is what gets written. A dangling one
  // is written through, which creates its target.
  SmallString<256> target(path);
  if (sys::fs::is_symlink_file(path) &&
      sys::fs::real_path(path, target, /*expand_tilde=*/false))
    return writeThrough(path, text);
  sys::fs::file_status status;
  if (!sys::fs::status(target, status) && sys::fs::exists(status) &&
      status.type() != sys::fs::file_type::regular_file) {
    if (status.type() == sys::fs::file_type::directory_file)
      return fail(path, "it is a directory");
    return writeThrough(target, text);
  }
  return replace(target, text);
}
