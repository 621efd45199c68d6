// RUN: weft-opt %s --convert-gpu-to-emitc -split-input-file | FileCheck %s
// RUN: weft-opt %s --convert-gpu-to-emitc -split-input-file --linearize-memref-accesses=flat-arguments=1 --convert-loops-to-emitc=flat-arguments=1 --prepare-c-emission | weft-translate --emit-c -split-input-file | FileCheck %s --check-prefix=CPP

// A resident buffer (weft.gpu.resident, from gpu-offload-nests): the
// runtime's buffer of the host array it is copied from, copies that move
// only what is newer on the other side, no free (weft_cuda_release_all
// frees it). The host code's calls of the runtime pass through.
// CHECK-LABEL: func.func @region(
// CHECK-SAME: %[[A:.*]]: memref<?x?xf64> {weft.dim_args = array<i64: -1, 2>}, %[[N:.*]]: index, %[[E:.*]]: index)
// CHECK: %[[HA:.*]] = builtin.unrealized_conversion_cast %[[A]] : memref<?x?xf64> to !emitc.ptr<f64>
// CHECK: %[[P:.*]] = emitc.call_opaque "weft_cuda_resident"(%[[HA]], %{{.*}}) {template_args = [f64]} : (!emitc.ptr<f64>, index) -> !emitc.ptr<f64>
// CHECK: emitc.call_opaque "weft_cuda_resident_in"(%[[P]], %{{.*}}, %{{.*}}, %{{.*}}, %[[E]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) :
// CHECK: WEFT_CUDA_LAUNCH
// CHECK: emitc.call_opaque "weft_cuda_resident_out"(%{{.*}}, %[[P]], %{{.*}}, %{{.*}}, %[[E]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) :
// CHECK-NOT: weft_cuda_free
// CHECK: emitc.call_opaque "weft_cuda_host_access"
// CHECK: emitc.call_opaque "weft_cuda_release_all"()
// CHECK-NOT: gpu.

// CPP: static void region(double *restrict [[A:[a-z0-9_]+]], int64_t {{[a-z0-9_]+}}, int64_t {{[a-z0-9_]+}}) {
// CPP: double *[[P:[a-z0-9_]+]] = weft_cuda_resident<double>([[A]],
// CPP: weft_cuda_resident_in([[P]], [[A]],
// CPP: WEFT_CUDA_LAUNCH(region_kernel,
// CPP: weft_cuda_resident_out([[A]], [[P]],
// CPP: weft_cuda_host_access([[A]], 1);
// CPP: weft_cuda_release_all();
module attributes {gpu.container_module} {
  func.func @region(%a: memref<?x?xf64> {weft.dim_args = array<i64: -1, 2>}, %n: index, %e: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %d = gpu.alloc (%n, %e) {weft.gpu.resident} : memref<?x?xf64>
    %h = memref.subview %a[%c0, %c0] [%n, %e] [1, 1] : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
    %b = memref.subview %d[%c0, %c0] [%n, %e] [1, 1] : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
    gpu.memcpy %b, %h : memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>> {weft.gpu.resident}
    gpu.launch_func @region_kernel::@region_kernel blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%n : index, %d : memref<?x?xf64>)
    %h2 = memref.subview %a[%c0, %c0] [%n, %e] [1, 1] : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
    %b2 = memref.subview %d[%c0, %c0] [%n, %e] [1, 1] : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
    gpu.memcpy %h2, %b2 : memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>> {weft.gpu.resident}
    gpu.dealloc %d {weft.gpu.resident} : memref<?x?xf64>
    %p = builtin.unrealized_conversion_cast %a : memref<?x?xf64> to !emitc.ptr<f64>
    emitc.call_opaque "weft_cuda_host_access"(%p) {args = [0 : index, 1 : i32]} : (!emitc.ptr<f64>) -> ()
    %z = arith.constant 0.0 : f64
    memref.store %z, %a[%c0, %c0] : memref<?x?xf64>
    emitc.call_opaque "weft_cuda_release_all"() : () -> ()
    return
  }
  gpu.module @region_kernel {
    gpu.func @region_kernel(%n: index, %d: memref<?x?xf64>) kernel {
      gpu.return
    }
  }
}

// -----

// A resident buffer never copied (a scratch array) has no host array to
// belong to: a plain buffer, freed.
// CHECK-LABEL: func.func @scratch
// CHECK: %[[P:.*]] = emitc.call_opaque "weft_cuda_alloc"
// CHECK: emitc.call_opaque "weft_cuda_free"(%[[P]])
module attributes {gpu.container_module} {
  func.func @scratch(%n: index) {
    %c1 = arith.constant 1 : index
    %d = gpu.alloc (%n) {weft.gpu.resident} : memref<?xf64>
    gpu.launch_func @scratch_kernel::@scratch_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<?xf64>)
    gpu.dealloc %d {weft.gpu.resident} : memref<?xf64>
    return
  }
  gpu.module @scratch_kernel {
    gpu.func @scratch_kernel(%d: memref<?xf64>) kernel {
      gpu.return
    }
  }
}
