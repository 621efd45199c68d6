// RUN: weft-opt %s --convert-gpu-to-emitc | FileCheck %s
// RUN: weft-opt %s --convert-gpu-to-emitc --linearize-memref-accesses=flat-arguments=1 --convert-loops-to-emitc=flat-arguments=1 --prepare-c-emission | weft-translate --emit-c | FileCheck %s --check-prefix=CPP

// A kernel with workgroup memory (gpu-stage-tiles' tiles): each buffer
// becomes a statically shaped array declared `__shared__` in the body,
// named after its location (a fallback name where it has none), and
// gpu.barrier becomes __syncthreads(). The tiles keep their two subscripts
// (local arrays are not linearised); the argument is accessed at its
// linear index.

// CHECK-LABEL: func.func @tiled_kernel
// CHECK: %[[T:.*]] = memref.alloca() {weft.c_specifiers = ["__shared__"]} : memref<4x8xf64>
// CHECK: %[[U:.*]] = memref.alloca() {weft.c_specifiers = ["__shared__"]} : memref<8xi32>
// CHECK: memref.store %{{.*}}, %[[T]]
// CHECK: emitc.call_opaque "__syncthreads"()
// CHECK: memref.load %[[T]]
// CHECK: emitc.call_opaque "__syncthreads_or"(%{{.*}}) : (i1) -> i1
// CHECK-NOT: gpu.

// CPP: static __global__ void tiled_kernel(double *restrict [[A:[a-z0-9_]+]], int64_t [[E:[a-z0-9_]+]]) {
// CPP-NEXT: __shared__ double A_tile[4][8];
// CPP-NEXT: __shared__ int32_t weft_array0[8];
// CPP: A_tile[[[R:[a-z0-9_]+]]][[[C:[a-z0-9_]+]]] = [[A]][[[R]] * [[E]] + [[C]]];
// CPP-NEXT: weft_array0[[[C]]] = (int32_t)(int64_t)threadIdx.x;
// CPP-NEXT: __syncthreads();
// CPP-NEXT: [[A]][[[R]] * [[E]] + [[C]]] = A_tile[[[C]]][[[R]]];
// A loop gpu-stage-tiles marks for unrolling (a full tile's): the runtime's
// macro, `#pragma unroll` under nvcc, on the line before it.
// CPP-NEXT: WEFT_CUDA_UNROLL
// CPP-NEXT: for (int64_t [[K:[a-z0-9_]+]] = 0; [[K]] < 8; [[K]]++) {
// A block's vote (gpu-stage-tiles', where a triangle leaves blocks without
// a thread inside): a barrier that reduces a predicate.
// CPP: bool [[ANY:[a-z0-9_]+]] = __syncthreads_or((uint64_t)[[C]] < 3u);
// CPP-NEXT: if ([[ANY]]) {
module attributes {gpu.container_module} {
  func.func @region(%a: memref<?x?xf64> {weft.dim_args = array<i64: -1, 1>}, %e: index) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @tiled_kernel::@tiled_kernel blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<?x?xf64>)
    return
  }
  gpu.module @tiled_kernel {
    gpu.func @tiled_kernel(%a: memref<?x?xf64>)
        workgroup(%t : memref<4x8xf64, #gpu.address_space<workgroup>> loc("A_tile"),
                  %u : memref<8xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %c7 = arith.constant 7 : index
      %i = arith.remui %tx, %c3 : index
      %j = arith.remui %tx, %c7 : index
      %v = memref.load %a[%i, %j] : memref<?x?xf64>
      memref.store %v, %t[%i, %j] : memref<4x8xf64, #gpu.address_space<workgroup>>
      %n = arith.index_cast %tx : index to i32
      memref.store %n, %u[%j] : memref<8xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %t[%j, %i] : memref<4x8xf64, #gpu.address_space<workgroup>>
      memref.store %w, %a[%i, %j] : memref<?x?xf64>
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      scf.for %k = %c0 to %c8 step %c1 {
        %x = memref.load %t[%i, %k] : memref<4x8xf64, #gpu.address_space<workgroup>>
        memref.store %x, %a[%k, %j] : memref<?x?xf64>
      } {weft.unroll}
      %near = arith.cmpi ult, %j, %c3 : index
      %any = gpu.all_reduce or %near uniform {} : (i1) -> (i1)
      scf.if %any {
        %y = memref.load %t[%i, %j] : memref<4x8xf64, #gpu.address_space<workgroup>>
        memref.store %y, %a[%j, %i] : memref<?x?xf64>
      }
      gpu.return
    }
  }
}
