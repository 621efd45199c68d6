//===- Link.h - Alpha-beta model of device-to-device transfers --*- C++ -*-===//
#ifndef WEFT_COSTMODEL_LINK_H
#define WEFT_COSTMODEL_LINK_H

#include <cstdint>

namespace weft::cost {

/// time = alpha + bytes / bandwidth. Intra-node links (NVLink/PCIe) have a
/// smaller start-up cost than inter-node network hops.
struct Link {
  double alphaUs = 0;
  double GBps = 1;
  double timeMs(int64_t bytes) const {
    return alphaUs * 1e-3 + double(bytes) / (GBps * 1e9) * 1e3;
  }
};

constexpr double kIntraNodeAlphaUs = 10;
constexpr double kInterNodeAlphaUs = 40;

/// MPI point-to-point between processes (shared memory or an HPC network):
/// the start-up of one message, used by the loop-nest partitioner.
constexpr double kMpiAlphaUs = 2;

inline Link intraNodeLink(double GBps) { return {kIntraNodeAlphaUs, GBps}; }
inline Link mpiLink(double GBps) { return {kMpiAlphaUs, GBps}; }
inline Link interNodeLink(double GBps) { return {kInterNodeAlphaUs, GBps}; }

} // namespace weft::cost

#endif
