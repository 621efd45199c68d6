// RUN: weft-opt %s --convert-gpu-to-emitc | FileCheck %s
// RUN: weft-opt %s --convert-gpu-to-emitc --linearize-memref-accesses=flat-arguments=1 --convert-loops-to-emitc=flat-arguments=1 --prepare-c-emission | weft-translate --emit-c | FileCheck %s --check-prefix=CPP

// gpu-reduce-blocks' warp shuffles: `gpu.shuffle down` becomes
// __shfl_down_sync with every lane of the warp in the mask, its offset and
// width as they are; the value keeps its type (a double here, an int32_t
// below). A result without a source name is named after the function, not
// as a reserved identifier (`shfl_down_sync_1`).

// CHECK-LABEL: func.func @sum_kernel
// CHECK: %[[S:.*]] = emitc.call_opaque "__shfl_down_sync"(%{{.*}}, %c16_i32, %c32_i32) {args = [#emitc.opaque<"0xffffffffu">, 0 : index, 1 : index, 2 : index]} : (f64, i32, i32) -> f64
// CHECK: arith.addf %{{.*}}, %[[S]] : f64
// CHECK: emitc.call_opaque "__shfl_down_sync"(%{{.*}}, %c1_i32, %c32_i32) {{.*}} : (i32, i32, i32) -> i32
// CHECK-NOT: gpu.

// CPP: static __global__ void sum_kernel(double *restrict [[A:[a-z0-9_]+]], int32_t *restrict [[B:[a-z0-9_]+]]) {
// CPP: double [[V:[a-z0-9_]+]] = [[A]][(int64_t)threadIdx.x];
// CPP-NEXT: double [[S:shfl_down_sync[a-z0-9_]*]] = __shfl_down_sync(0xffffffffu, [[V]], 16, 32);
// CPP-NEXT: [[A]][(int64_t)threadIdx.x] = [[V]] + [[S]];
// CPP: int32_t shfl_down_sync{{.*}} = __shfl_down_sync(0xffffffffu, [[B]][(int64_t)threadIdx.x], 1, 32);
module attributes {gpu.container_module} {
  func.func @region(%a: memref<64xf64>, %b: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @sum_kernel::@sum_kernel blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<64xf64>, %b : memref<64xi32>)
    return
  }
  gpu.module @sum_kernel {
    gpu.func @sum_kernel(%a: memref<64xf64>, %b: memref<64xi32>) kernel {
      %tx = gpu.thread_id x
      %c1 = arith.constant 1 : i32
      %c16 = arith.constant 16 : i32
      %c32 = arith.constant 32 : i32
      %v = memref.load %a[%tx] : memref<64xf64>
      %s, %ok = gpu.shuffle down %v, %c16, %c32 : f64
      %w = arith.addf %v, %s : f64
      memref.store %w, %a[%tx] : memref<64xf64>
      %i = memref.load %b[%tx] : memref<64xi32>
      %t, %ok2 = gpu.shuffle down %i, %c1, %c32 : i32
      memref.store %t, %b[%tx] : memref<64xi32>
      gpu.return
    }
  }
}
