// RUN: weft-opt %s | weft-opt | FileCheck %s

// Every weft attribute where the C front end puts it (a region function
// imported from C; the dim_args entry names the `index` argument holding
// the extent of the array's second dimension).

// CHECK-LABEL: func.func @region(
// CHECK-SAME: {weft.c_arg = "A", weft.dim_args = array<i64: -1, 3>, weft.may_alias, weft.region_only}
// CHECK-SAME: {weft.c_arg = "B", weft.local, weft.noalias}
// CHECK-SAME: {weft.c_arg = "n"}
// CHECK-SAME: {weft.c_arg = "m"}
// CHECK-SAME: attributes {weft.nodist}
// CHECK: affine.for
// CHECK: } {weft.parallel}
func.func @region(%a: memref<?x?xf64> {weft.c_arg = "A", weft.dim_args = array<i64: -1, 3>, weft.may_alias, weft.region_only},
                  %b: memref<8xf64> {weft.c_arg = "B", weft.noalias, weft.local},
                  %n: index {weft.c_arg = "n"}, %m: index {weft.c_arg = "m"})
    attributes {weft.nodist} {
  affine.for %i = 0 to 8 {
    %x = affine.load %b[%i] : memref<8xf64>
    affine.store %x, %b[%i] : memref<8xf64>
  } {weft.parallel}
  return
}

// What the GPU passes add: a device nest's band and coalesced loop
// (gpu-select-nests), a kernel's C specifiers (convert-gpu-to-emitc).
// CHECK-LABEL: func.func @gpu(
// CHECK-SAME: attributes {weft.c_specifiers = ["static", "__global__"]}
// CHECK: } {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64}
func.func @gpu(%b: memref<8xf64>)
    attributes {weft.c_specifiers = ["static", "__global__"]} {
  affine.for %i = 0 to 8 {
    %x = affine.load %b[%i] : memref<8xf64>
    affine.store %x, %b[%i] : memref<8xf64>
  } {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64}
  return
}

// A 2-D device nest's block shape, and its sequential loop's tile width and
// register tiles (gpu-select-nests, for gpu-stage-tiles).
// CHECK-LABEL: func.func @gpu_shape(
// CHECK: } {weft.gpu.coarsen = array<i64: 2, 4>, weft.gpu.tile = 32 : i64}
// CHECK: } {weft.gpu.band = 2 : i64, weft.gpu.block = array<i64: 32, 8>, weft.gpu.coalesced = 1 : i64}
func.func @gpu_shape(%n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      affine.for %k = 0 to %n {
      } {weft.gpu.tile = 32 : i64, weft.gpu.coarsen = array<i64: 2, 4>}
    }
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64, weft.gpu.block = array<i64: 32, 8>}
  return
}

// `#pragma weft device` / `host` on a loop (gpu-select-nests reads it).
// CHECK-LABEL: func.func @gpu_place(
// CHECK: } {weft.gpu.place = "device"}
// CHECK: } {weft.gpu.place = "host"}
func.func @gpu_place(%b: memref<8xf64>) {
  affine.for %i = 0 to 8 {
    %x = affine.load %b[%i] : memref<8xf64>
    affine.store %x, %b[%i] : memref<8xf64>
  } {weft.gpu.place = "device"}
  affine.for %i = 0 to 8 {
    %x = affine.load %b[%i] : memref<8xf64>
    affine.store %x, %b[%i] : memref<8xf64>
  } {weft.gpu.place = "host"}
  return
}

// A device buffer that stays resident, and its copies (gpu-offload-nests).
// CHECK-LABEL: func.func @gpu_resident(
// CHECK: gpu.alloc {{.*}}{weft.gpu.resident}
// CHECK: gpu.memcpy {{.*}}{weft.gpu.resident}
// CHECK: gpu.dealloc {{.*}}{weft.gpu.resident}
func.func @gpu_resident(%b: memref<8xf64>) {
  %d = gpu.alloc () {weft.gpu.resident} : memref<8xf64>
  gpu.memcpy %d, %b : memref<8xf64>, memref<8xf64> {weft.gpu.resident}
  gpu.dealloc %d {weft.gpu.resident} : memref<8xf64>
  return
}

// The C form of the same arguments (convert-loops-to-emitc): the array is a
// pointer to its rows, each `[*]` sized by the `i64` argument dim_args
// names, which comes first.
// CHECK-LABEL: emitc.func @region_in_c(
// CHECK-SAME: {weft.c_arg = "(void *)(A)", weft.dim_args = array<i64: -1, 0>}
emitc.func @region_in_c(%n: i64 {weft.c_arg = "n"},
                        %a: !emitc.opaque<"double (*)[*]"> {weft.c_arg = "(void *)(A)", weft.dim_args = array<i64: -1, 0>}) {
  emitc.return
}

// A reduction update whose element a device nest's threads combine, and
// the atomic update of a thread's (or a block's) partial result.
// CHECK-LABEL: func.func @gpu_reduce(
// CHECK: affine.store %{{.*}}, %{{.*}}[] {weft.gpu.reduce = "add"}
// CHECK: memref.atomic_rmw mins %{{.*}}, %{{.*}}[] {weft.gpu.reduce = "min"}
func.func @gpu_reduce(%s: memref<f64>, %c: memref<i32>, %v: f64, %k: i32) {
  affine.store %v, %s[] {weft.gpu.reduce = "add"} : memref<f64>
  %0 = memref.atomic_rmw mins %k, %c[] {weft.gpu.reduce = "min"} : (i32, memref<i32>) -> i32
  return
}

// The C element type of an argument whose fixed-width type is another C
// type (the importer's, for `long long`).
// CHECK-LABEL: func.func @c_type(
// CHECK-SAME: memref<?xi64> {weft.c_type = "long long"}
func.func @c_type(%a: memref<?xi64> {weft.c_type = "long long"}) {
  return
}
