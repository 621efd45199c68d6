// RUN: weft-opt %s --convert-gpu-to-emitc | FileCheck %s
// RUN: weft-opt %s --convert-gpu-to-emitc --linearize-memref-accesses=flat-arguments=1 --cse --convert-loops-to-emitc=flat-arguments=1 --prepare-c-emission | weft-translate --emit-c | FileCheck %s --check-prefix=CPP

// A 2-D grid whose body uses only the first iterator (the j loop of
// `for (i...) for (j = 0; j < m; j++) c[i] = -1.0`): upstream's
// loops-to-GPU conversion still computes j = 0 + (by * 8 + ty) * 1, which
// used to print as an unused variable (nvcc -Werror and g++ -Wall -Werror
// reject it). The kernel keeps j's bound check and nothing else of it.

// CHECK-LABEL: func.func @region_kernel
// CHECK-NOT: blockIdx.z
// CHECK: %[[BY:.*]] = emitc.literal "(int64_t)blockIdx.y"
// CHECK: %[[TY:.*]] = emitc.literal "(int64_t)threadIdx.y"
// CHECK: %[[J0:.*]] = arith.muli %[[BY]], %{{.*}} : index
// CHECK-NEXT: %[[J:.*]] = arith.addi %[[J0]], %[[TY]] : index
// CHECK-NEXT: arith.cmpi slt, %[[J]], %{{.*}} : index
// CHECK-NOT: arith.muli %[[J]]
// CHECK: return

// CPP-LABEL: static __global__ void region_kernel(
// CPP-NOT: blockIdx.z
// CPP-NEXT: if (((int64_t)blockIdx.x * 32 + (int64_t)threadIdx.x < arg) & ((int64_t)blockIdx.y * 8 + (int64_t)threadIdx.y < arg_1)) {
// CPP-NEXT: arg_2[(int64_t)blockIdx.x * 32 + (int64_t)threadIdx.x] = -1.0;
// CPP-NEXT: }
// CPP-NEXT: }
module attributes {gpu.container_module} {
  func.func @region(%c: memref<?xf64>, %n: index, %m: index) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c8 = arith.constant 8 : index
    %d = gpu.alloc (%n) : memref<?xf64>
    gpu.launch_func @region_kernel::@region_kernel blocks in (%n, %m, %c1) threads in (%c32, %c8, %c1) args(%n : index, %m : index, %d : memref<?xf64>)
    gpu.dealloc %d : memref<?xf64>
    return
  }
  gpu.module @region_kernel {
    gpu.func @region_kernel(%n: index, %m: index, %d: memref<?xf64>) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %i0 = arith.muli %bx, %c32 : index
      %i1 = arith.addi %i0, %tx : index
      %i = arith.addi %c0, %i1 : index
      %in_i = arith.cmpi slt, %i1, %n : index
      %j0 = arith.muli %by, %c8 : index
      %j1 = arith.addi %j0, %ty : index
      %j2 = arith.muli %j1, %c1 : index
      %j = arith.addi %c0, %j2 : index
      %in_j = arith.cmpi slt, %j1, %m : index
      %in = arith.andi %in_i, %in_j : i1
      scf.if %in {
        %v = arith.constant -1.0 : f64
        memref.store %v, %d[%i] : memref<?xf64>
      }
      gpu.return
    }
  }
}
