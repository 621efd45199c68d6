// RUN: weft-opt %s --split-input-file --pass-pipeline='builtin.module(dist-partition{report=1 ranks=16})' 2>&1 >/dev/null | FileCheck %s --check-prefix=NODE
// RUN: weft-opt %s --split-input-file --pass-pipeline='builtin.module(dist-partition{report=1 ranks=16 ranks-per-node=1})' 2>&1 >/dev/null | FileCheck %s --check-prefix=APART
// RUN: weft-opt %s --split-input-file --pass-pipeline='builtin.module(dist-partition{report=1 ranks=16 live-out-everywhere=1})' 2>&1 >/dev/null | FileCheck %s --check-prefix=EVERY

// The ranks of one node share its memory bandwidth (docs/cost-model.md,
// "Ranks that share a node"). By default 16 ranks fill one node of the
// `cpu` device (16 cores): each reads from memory at the node's 122.88
// GB/s over 16, 7.68 GB/s, not the 30 GB/s of one core alone;
// `ranks-per-node=1` puts each rank on a node of its own.

// A stream over 2 x 32 MiB in 16 blocks: each rank reads and writes 4.19
// MB, 0.546 ms at 7.68 GB/s (0.140 ms at 30 alone), plus the gather of
// `b` to rank 0 (0.159 ms either way). Replicated, the region would run
// on rank 0 alone: 67.1 MB at 30 GB/s, 2.24 ms; on every rank (no
// dist-run-on-root) the 16 copies share the node: 8.74 ms.
// NODE: remark: distributed: {{.*}} (predicted region time at 16 ranks 7.05e-04 s; 2.24e-03 s if replicated)
// APART: remark: distributed: {{.*}} (predicted region time at 16 ranks 2.99e-04 s; 2.24e-03 s if replicated)
// EVERY: remark: distributed: {{.*}} (predicted region time at 16 ranks 7.05e-04 s; 8.74e-03 s if replicated)
func.func @stream(%a: memref<4194304xf64>, %b: memref<4194304xf64>) {
  %c2 = arith.constant 2.0 : f64
  affine.for %i = 0 to 4194304 {
    %x = affine.load %a[%i] : memref<4194304xf64>
    %y = arith.mulf %x, %c2 : f64
    affine.store %y, %b[%i] : memref<4194304xf64>
  }
  return
}

// -----

// A recurrence that reads a new cache line of `b` at each iteration (2^20
// lines, 67.1 MB, and `a`'s 8.4 MB: 2.52 ms from memory at 30 GB/s, more
// than its chain of adds, 0.50 ms). Nothing can be distributed, so the
// region runs on rank 0 alone (dist-run-on-root), wherever the ranks are,
// and its unit's remark does not say "every rank". Where every rank runs
// it (`live-out-everywhere`), the 16 copies share the node: 9.83 ms.
// NODE: remark: no unit can be distributed: predicted region time at 16 ranks 2.52e-03 s
// NODE: remark: not distributed: the loop carries a flow dependence
// APART: remark: no unit can be distributed: predicted region time at 16 ranks 2.52e-03 s
// EVERY: remark: no unit can be distributed: predicted region time at 16 ranks 9.83e-03 s
// EVERY: remark: runs on every rank: the loop carries a flow dependence
func.func @lines(%a: memref<1048576xf64>, %b: memref<8388608xf64>) {
  affine.for %i = 1 to 1048576 {
    %x = affine.load %a[%i - 1] : memref<1048576xf64>
    %y = affine.load %b[%i * 8] : memref<8388608xf64>
    %z = arith.addf %x, %y : f64
    affine.store %z, %a[%i] : memref<1048576xf64>
  }
  return
}
