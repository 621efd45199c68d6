// RUN: weft-opt %s --split-input-file --pass-pipeline='builtin.module(dist-partition{report=1 ranks=1})' 2>&1 >/dev/null | FileCheck %s

// One core's time, the partitioner's work term and the CUDA targets' host
// side (docs/cost-model.md, "One CPU core"), on the `cpu` device: the
// slowest of its loads and stores in L1, each cache level's fills, its
// flops (scalar where the compiler cannot vectorise) and the chains its
// loops carry. Each figure below is worked out by hand from the device's
// numbers (include/weft/CostModel/Device.h).

// A stream over 2 x 32 MiB: nothing is reused; each element comes from
// memory once: 67.1 MB at the cpu device's 50 GB/s x 0.6 = 2.24 ms (its
// loads and stores at 590 GB/s take 0.11 ms, its flops 0.13 ms).
// CHECK: remark: partition chosen by {{.*}}: predicted region time at 1 ranks 2.24e-03 s
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

// A row sum into s[i]: each iteration of k waits for the add before it
// (compilers may not reorder floating-point adds): 2^20 adds x 0.48 ns =
// 0.503 ms, more than the 8 MiB of `a` from memory (0.28 ms).
// CHECK: remark: partition chosen by {{.*}}: predicted region time at 1 ranks 5.03e-04 s
func.func @accumulate(%a: memref<1024x1024xf64>, %s: memref<1024xf64>) {
  affine.for %i = 0 to 1024 {
    affine.for %k = 0 to 1024 {
      %x = affine.load %s[%i] : memref<1024xf64>
      %y = affine.load %a[%i, %k] : memref<1024x1024xf64>
      %z = arith.addf %x, %y : f64
      affine.store %z, %s[%i] : memref<1024xf64>
    }
  }
  return
}

// -----

// A recurrence through a division: each iteration waits for an add and a
// division, 0.48 + 3.37 ns, 2^20 - 1 times: 4.04 ms.
// CHECK: remark: no unit can be distributed: predicted region time at 1 ranks 4.04e-03 s
func.func @recurrence(%a: memref<1048576xf64>) {
  %one = arith.constant 1.0 : f64
  affine.for %i = 1 to 1048576 {
    %x = affine.load %a[%i - 1] : memref<1048576xf64>
    %y = arith.addf %x, %one : f64
    %z = arith.divf %one, %y : f64
    affine.store %z, %a[%i] : memref<1048576xf64>
  }
  return
}

// -----

// Columns: each access of the inner loop touches a cache line of its own;
// a column of both arrays (2 x 1024 lines, 128 KiB) outgrows half of L1
// but not of L2, so L1 fetches every line of a column for each j (2^20 x 2
// lines, 134 MB at 133 GB/s: 1.01 ms) and L2 and memory the arrays once.
// CHECK: remark: partition chosen by {{.*}}: predicted region time at 1 ranks 1.01e-03 s
func.func @columns(%a: memref<1024x1024xf64>, %b: memref<1024x1024xf64>) {
  affine.for %j = 0 to 1024 {
    affine.for %i = 0 to 1024 {
      %x = affine.load %a[%i, %j] : memref<1024x1024xf64>
      affine.store %x, %b[%i, %j] : memref<1024x1024xf64>
    }
  }
  return
}

// -----

// floyd-warshall's update: p[i][k] may be what the loop over j writes, so
// the compiler keeps it scalar: its 2 integer operations x 2^30 at the
// core's 31.25 G operations/s over 8 lanes: 0.55 s.
// CHECK: remark: no unit can be distributed: predicted region time at 1 ranks 5.50e-01 s
func.func @paths(%p: memref<1024x1024xi32>) {
  affine.for %k = 0 to 1024 {
    affine.for %i = 0 to 1024 {
      affine.for %j = 0 to 1024 {
        %d = affine.load %p[%i, %j] : memref<1024x1024xi32>
        %l = affine.load %p[%i, %k] : memref<1024x1024xi32>
        %r = affine.load %p[%k, %j] : memref<1024x1024xi32>
        %s = arith.addi %l, %r : i32
        %m = arith.minsi %d, %s : i32
        affine.store %m, %p[%i, %j] : memref<1024x1024xi32>
      }
    }
  }
  return
}

// -----

// 1000 sweeps of 16 KiB: all of it stays in L1; the loads and stores
// (3 x 8 bytes x 1022 x 1000 at 590 GB/s) bound it: 41.6 us.
// CHECK: remark: partition chosen by {{.*}}: predicted region time at 1 ranks 4.16e-05 s
func.func @resident(%a: memref<1024xf64>, %b: memref<1024xf64>) {
  affine.for %t = 0 to 1000 {
    affine.for %i = 1 to 1023 {
      %x = affine.load %a[%i - 1] : memref<1024xf64>
      %y = affine.load %a[%i + 1] : memref<1024xf64>
      %z = arith.addf %x, %y : f64
      affine.store %z, %b[%i] : memref<1024xf64>
    }
  }
  return
}

// -----

// The same recurrence over every other element: the iterations are
// counted exactly (2^19 of them, not the 2^20 of their range): 2.02 ms.
// CHECK: remark: no unit can be distributed: predicted region time at 1 ranks 2.02e-03 s
func.func @strided(%a: memref<1048576xf64>) {
  %one = arith.constant 1.0 : f64
  affine.for %i = 2 to 1048576 step 2 {
    %x = affine.load %a[%i - 2] : memref<1048576xf64>
    %y = arith.addf %x, %one : f64
    %z = arith.divf %one, %y : f64
    affine.store %z, %a[%i] : memref<1048576xf64>
  }
  return
}
