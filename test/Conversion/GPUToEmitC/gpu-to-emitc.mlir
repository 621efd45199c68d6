// RUN: weft-opt %s --convert-gpu-to-emitc | FileCheck %s
// RUN: weft-opt %s --convert-gpu-to-emitc --linearize-memref-accesses=flat-arguments=1 --convert-loops-to-emitc=flat-arguments=1 --prepare-c-emission | weft-translate --emit-c | FileCheck %s --check-prefix=CPP

// A region whose one nest became a kernel: a device buffer for the host
// array a (extent of the second dimension: argument 2), a box of it copied
// in and back, the launch, the free.

// The kernel comes first, as a __global__ function named after its module,
// with the extent its memref argument needs as a trailing argument.
// CHECK-LABEL: func.func @region_kernel
// CHECK-SAME: (%{{.*}}: index, %[[M:.*]]: memref<?x?xf64> {weft.dim_args = array<i64: -1, 2>}, %{{.*}}: index)
// CHECK-SAME: weft.c_specifiers = ["static", "__global__"]
// CHECK: emitc.literal "(int64_t)blockIdx.x" : index
// CHECK: emitc.literal "(int64_t)threadIdx.x" : index
// CHECK: emitc.literal "(int64_t)blockDim.x" : index
// CHECK: emitc.call_opaque "__syncthreads"()
// CHECK: return
// CHECK-LABEL: func.func @region
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf64> {weft.dim_args = array<i64: -1, 2>}, %[[N:.*]]: index, %[[E:.*]]: index)
// CHECK: %[[P:.*]] = emitc.call_opaque "weft_cuda_alloc"(%{{.*}}) {template_args = [f64]} : (index) -> !emitc.ptr<f64>
// CHECK: %[[HA:.*]] = builtin.unrealized_conversion_cast %[[A]] : memref<?x?xf64> to !emitc.ptr<f64>
// CHECK: emitc.call_opaque "weft_cuda_copy_box"(%[[P]], %[[HA]], %{{.*}}, %{{.*}}, %[[E]],
// CHECK: emitc.call_opaque "WEFT_CUDA_LAUNCH"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[N]], %[[P]], %[[E]]) {args = [#emitc.opaque<"region_kernel">, 0 : index, 1 : index, 2 : index, 3 : index, 4 : index, 5 : index, 6 : index, 7 : index, 8 : index]}
// CHECK: emitc.call_opaque "weft_cuda_copy_box"(%{{.*}}, %[[P]],
// CHECK: emitc.call_opaque "weft_cuda_free"(%[[P]])
// CHECK-NOT: gpu.
// CHECK-NOT: memref.subview

// CPP: static __global__ void region_kernel(int64_t [[N:[a-z0-9_]+]], double *restrict [[M:[a-z0-9_]+]], int64_t [[E:[a-z0-9_]+]]) {
// CPP-NEXT: if ((int64_t)blockIdx.x * (int64_t)blockDim.x + (int64_t)threadIdx.x < [[N]]) {
// CPP: __syncthreads();
// CPP: static void region(double *restrict [[H:[a-z0-9_]+]], int64_t {{[a-z0-9_]+}}, int64_t {{[a-z0-9_]+}}) {
// CPP: double *[[P:[a-z0-9_]+]] = weft_cuda_alloc<double>(
// CPP: weft_cuda_copy_box([[P]], [[H]],
// CPP: WEFT_CUDA_LAUNCH(region_kernel,
// CPP: weft_cuda_free([[P]]);
module attributes {gpu.container_module} {
  func.func @region(%a: memref<?x?xf64> {weft.dim_args = array<i64: -1, 2>}, %n: index, %e: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %d = gpu.alloc (%n, %e) : memref<?x?xf64>
    %h = memref.subview %a[%c0, %c0] [%n, %e] [1, 1] : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
    %b = memref.subview %d[%c0, %c0] [%n, %e] [1, 1] : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
    gpu.memcpy %b, %h : memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>
    gpu.launch_func @region_kernel::@region_kernel blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%n : index, %d : memref<?x?xf64>)
    %h2 = memref.subview %a[%c0, %c0] [%n, %e] [1, 1] : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
    %b2 = memref.subview %d[%c0, %c0] [%n, %e] [1, 1] : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
    gpu.memcpy %h2, %b2 : memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>
    gpu.dealloc %d : memref<?x?xf64>
    return
  }
  gpu.module @region_kernel {
    gpu.func @region_kernel(%n: index, %d: memref<?x?xf64>) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %w = gpu.block_dim x
      %k = arith.muli %b, %w : index
      %i = arith.addi %k, %t : index
      %c0 = arith.constant 0 : index
      %in = arith.cmpi slt, %i, %n : index
      scf.if %in {
        %v = memref.load %d[%i, %c0] : memref<?x?xf64>
        %s = arith.addf %v, %v : f64
        memref.store %s, %d[%i, %c0] : memref<?x?xf64>
      }
      gpu.barrier
      gpu.return
    }
  }
}
