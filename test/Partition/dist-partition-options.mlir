// RUN: weft-opt %s --pass-pipeline='builtin.module(dist-partition{report=1 nominal-size=8})' 2>&1 >/dev/null | FileCheck %s --check-prefix=SMALL
// RUN: weft-opt %s --pass-pipeline='builtin.module(dist-partition{report=1 ranks=2 nominal-size=1000000})' 2>&1 >/dev/null | FileCheck %s --check-prefix=TWO
// RUN: weft-opt %s --pass-pipeline='builtin.module(dist-partition{report=1 max-isl-ops=10})' 2>&1 >/dev/null | FileCheck %s --check-prefix=QUOTA
// RUN: weft-opt %s --pass-pipeline='builtin.module(dist-partition{report=1 device=H100-80GB nominal-size=1000000})' 2>&1 >/dev/null | FileCheck %s --check-prefix=FAST
// RUN: not weft-opt %s --pass-pipeline='builtin.module(dist-partition{device=nosuch})' 2>&1 >/dev/null | FileCheck %s --check-prefix=UNKNOWN
// RUN: weft-opt %s --pass-pipeline='builtin.module(dist-partition{report=1 size=n=8})' 2>&1 >/dev/null | FileCheck %s --check-prefix=NAMED
// RUN: not weft-opt %s --pass-pipeline='builtin.module(dist-partition{size=n=0})' 2>&1 >/dev/null | FileCheck %s --check-prefix=BADSIZE

// The cost model's inputs are options. With sizes of 8 (the bound %n is
// unknown at compile time), messages cost more than the work they save:
// the sweep runs on every rank. At sizes of 10^6 (arrays no cache holds)
// it is split, and the report names the rank count the prediction is for. A quota too
// small for the analysis leaves the region replicated, with the reason.
// SMALL: remark: not distributed: distributing it is predicted to be slower
// TWO: remark: distributed: blocks of its iterations on each rank (predicted region time at 2 ranks
// QUOTA: remark: not distributed: polyhedral analysis exceeded its quota of 10 ISL operations
// The machine numbers come from the cost model's device database: on a
// device with no cache figures (a GPU, taken to reuse all it reads, as the
// kernel model does) and 70 times the default CPU's memory bandwidth, the
// work saved no longer pays for the messages.
// FAST: remark: not distributed: distributing it is predicted to be slower
// UNKNOWN: error: dist-partition: unknown GPU type 'nosuch' (known: T4, {{.*}}, cpu)
// A size the source names takes the value `size` gives it, the others the
// nominal size; the report says which is which.
// NAMED: remark: not distributed: distributing it is predicted to be slower
// NAMED: predicted times with tsteps, unknown at compile time, taken as 4096; n=8 from --size{{$}}
// BADSIZE: error: dist-partition: size: 'n=0': the value of n must be an integer of at least 1
func.func @sweeps(%a: memref<?xf64>, %b: memref<?xf64>, %t: index loc("tsteps"),
                  %n: index loc("n")) {
  affine.for %s = 0 to %t {
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %x = affine.load %a[%i - 1] : memref<?xf64>
      %y = affine.load %a[%i + 1] : memref<?xf64>
      %z = arith.addf %x, %y : f64
      affine.store %z, %b[%i] : memref<?xf64>
    }
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %x = affine.load %b[%i] : memref<?xf64>
      affine.store %x, %a[%i] : memref<?xf64>
    }
  }
  return
}
