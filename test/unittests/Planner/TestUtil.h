//===- TestUtil.h - Helpers shared by the planner unit tests ----*- C++ -*-===//
#ifndef WEFT_TEST_PLANNER_TESTUTIL_H
#define WEFT_TEST_PLANNER_TESTUTIL_H

#include "weft/Planner/Cluster.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace weft::test {

/// Writes `bytes` to a fresh temporary file with the given suffix.
inline std::string writeTemp(llvm::StringRef suffix, llvm::StringRef bytes) {
  llvm::SmallString<128> path;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("weft-test", suffix, fd, path))
    return "";
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << bytes;
  return std::string(path);
}

/// A cluster of built-in devices on one node, with optional memory override.
inline plan::Cluster
makeCluster(std::initializer_list<std::pair<const char *, double>> devices,
            double intraGBps = 16) {
  plan::Cluster c;
  c.nodeNames = {"n0"};
  c.intraGBps = {intraGBps};
  int i = 0;
  for (auto [name, memGiB] : devices) {
    cost::DeviceSpec d = llvm::cantFail(cost::lookupDevice(name));
    if (memGiB > 0)
      d.memGiB = memGiB;
    c.devices.push_back({"n0/" + std::to_string(i++), 0, d});
  }
  return c;
}

} // namespace weft::test

#endif
