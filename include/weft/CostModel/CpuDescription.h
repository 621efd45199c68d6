//===- CpuDescription.h - A CPU measured by its user -------------*- C++
//-*-===//
//
// The CPU side of the cost model (one core's caches, bandwidths, peak and
// latencies; a node's memory bandwidth) for a machine of the user's own:
// the JSON that `bench/cpu-core.c --json` prints there, read into a
// DeviceSpec like the built-in `cpu` device (docs/cost-model.md, "A CPU of
// your own").
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_COSTMODEL_CPUDESCRIPTION_H
#define WEFT_COSTMODEL_CPUDESCRIPTION_H

#include "weft/CostModel/Device.h"

#include "llvm/Support/JSON.h"

namespace weft::cost {

/// The device a CPU description describes; errors name `file` and the
/// field (`cpu.json: memory_read_GBps: expected a positive number`).
llvm::Expected<DeviceSpec> cpuFromJSON(const llvm::json::Value &v,
                                       llvm::StringRef file);

/// The CPU `spec` names: a path ending in ".json" is a CPU description
/// file, anything else a device of the database (`cpu`).
llvm::Expected<DeviceSpec> lookupCpu(llvm::StringRef spec);

} // namespace weft::cost

#endif // WEFT_COSTMODEL_CPUDESCRIPTION_H
