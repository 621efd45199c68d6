// RUN: weft-opt %s --gpu-offload-nests='report=1 gpu-choice=always' -split-input-file -verify-diagnostics | FileCheck %s

// A distributed region: each rank updates its block of y from x in a time
// loop and sends its last element to the next rank. The update is a static
// nest of its own (its bounds, the rank's block, are symbols): it runs on
// the device, inside the time loop, with buffers that stay resident
// (weft.gpu.resident): the box it reads of x (the block and its halo) goes
// in before it, where newer on the host, and the box it writes of y is
// newer on the device after it. The message is sent from the host array
// (the MPI runtime asks the CUDA runtime for the device's newer values);
// before the region returns, the device's newer values come back and the
// buffers are freed.
// CHECK-LABEL: func.func @halo
// CHECK-SAME: (%[[X:.*]]: memref<?xf64>, %[[Y:.*]]: memref<?xf64>, %[[T:.*]]: index, %[[N:.*]]: index)
// CHECK: dist.local_bounds
// CHECK: affine.for
// CHECK: %[[DX:.*]] = gpu.alloc {{.*}} {weft.gpu.resident}
// CHECK: %[[DY:.*]] = gpu.alloc {{.*}} {weft.gpu.resident}
// CHECK: memref.subview %[[X]]
// CHECK: gpu.memcpy {{.*}} {weft.gpu.resident}
// CHECK: affine.for
// CHECK: affine.load %[[DX]]
// CHECK: affine.store %{{.*}}, %[[DY]]
// CHECK: weft.gpu.band = 1
// CHECK: memref.subview %[[Y]]
// CHECK: gpu.memcpy {{.*}} {weft.gpu.resident}
// CHECK: gpu.dealloc %[[DX]] {weft.gpu.resident}
// CHECK: gpu.dealloc %[[DY]] {weft.gpu.resident}
// CHECK-NOT: weft_cuda_host_access
// CHECK: dist.isend %[[Y]] elements
// CHECK: dist.wait_all
// CHECK: }
// CHECK-NEXT: emitc.call_opaque "weft_cuda_release_all"()
// CHECK-NEXT: return
#lo = affine_map<()[s0] -> (s0 + 1)>
#hi = affine_map<()[s0, s1] -> (s0 - 1, s1)>
func.func @halo(%x: memref<?xf64>, %y: memref<?xf64>, %t: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = dist.rank
  %p = dist.num_ranks
  %lb, %ub, %st = dist.local_bounds %c0 to %n at %r of %p by #dist.dim<block on 0>
  // expected-remark @below {{stays on the host: it holds dist.isend, which the polyhedral model does not describe; the loops in it are candidates}}
  affine.for %s = 0 to %t {
    // expected-remark @below {{runs on the device: its iterations are the threads of a 1-D grid}}
    // expected-remark @below {{device copies: #0 stays on the device across nests, goes in where newer on the host (the box of its flow-in elements); #1 stays on the device across nests, is not copied in, is newer there after the nest (its written elements)}}
    affine.for %i = max #lo()[%lb] to min #hi()[%n, %ub] {
      %a = affine.load %x[%i - 1] : memref<?xf64>
      %b = affine.load %x[%i + 1] : memref<?xf64>
      %v = arith.addf %a, %b : f64
      affine.store %v, %y[%i] : memref<?xf64>
    }
    dist.isend %y elements "[hi] -> { Y[i] : i = hi - 1 }" (%ub) to %r tag 0 : memref<?xf64>
    dist.wait_all
  }
  return
}

// -----

// Unsupported nests of a distributed region stay on the host as written,
// each with its reason: a loop that carries a dependence (and whose body
// has no parallel loop), and one that calls a function.
// CHECK-LABEL: func.func @host_nests
// CHECK-NOT: gpu.
// CHECK-NOT: weft.gpu
// CHECK: return
func.func private @f(f64) -> f64
func.func @host_nests(%x: memref<?xf64>, %n: index) {
  %r = dist.rank
  // expected-remark @below {{stays on the host: it carries a dependence through #0}}
  affine.for %i = 1 to %n {
    %a = affine.load %x[%i - 1] : memref<?xf64>
    affine.store %a, %x[%i] : memref<?xf64>
  }
  // expected-remark @below {{stays on the host: it holds func.call, which the polyhedral model does not describe; the loops in it are candidates}}
  affine.for %i = 0 to %n {
    %a = affine.load %x[%i] : memref<?xf64>
    %b = func.call @f(%a) : (f64) -> f64
    affine.store %b, %x[%i] : memref<?xf64>
  }
  dist.wait_all
  return
}

// -----

// The sequential form of a region checked for overlapping arguments runs
// where they overlap (separate device buffers would change its results):
// it stays on the host, unexamined.
// CHECK-LABEL: func.func @checked_sequential
// CHECK-NOT: gpu.
// CHECK: return
func.func @checked_sequential(%x: memref<?xf64>, %y: memref<?xf64>, %n: index) attributes {dist.sequential} {
  affine.for %i = 0 to %n {
    %a = affine.load %x[%i] : memref<?xf64>
    affine.store %a, %y[%i] : memref<?xf64>
  }
  return
}

// -----

// A region the partitioner left whole (no message, no rank query) is a
// static control part: its data moves once around all its nests, as with
// --target=cuda.
// CHECK-LABEL: func.func @whole
// CHECK: gpu.alloc
// CHECK: gpu.memcpy
// CHECK: affine.for
// CHECK: affine.for
// CHECK: gpu.memcpy
// CHECK: gpu.dealloc
// CHECK: return
// expected-remark @below {{device copies:}}
func.func @whole(%x: memref<?xf64>, %y: memref<?xf64>, %t: index, %n: index) {
  // expected-remark @below {{stays on the host: it carries a dependence through #0; the loops in it are candidates}}
  affine.for %s = 0 to %t {
    // expected-remark @below {{runs on the device}}
    affine.for %i = 1 to %n {
      %a = affine.load %x[%i - 1] : memref<?xf64>
      %b = affine.load %x[%i + 1] : memref<?xf64>
      %c = arith.addf %a, %b : f64
      affine.store %c, %y[%i] : memref<?xf64>
    }
    // expected-remark @below {{runs on the device}}
    affine.for %i = 1 to %n {
      %a = affine.load %y[%i] : memref<?xf64>
      affine.store %a, %x[%i] : memref<?xf64>
    }
  }
  return
}

// -----

// A time loop around a pointwise nest: gpu-expose-bands swaps them (one
// launch whose threads each run the time loop) instead of a launch per
// step.
// CHECK-LABEL: func.func @pointwise
// CHECK: gpu.memcpy
// CHECK: affine.for %[[I:.*]] = 0 to
// CHECK-NEXT: affine.for
// CHECK: } {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64}
// expected-remark @below {{device copies:}}
func.func @pointwise(%x: memref<?xf64>, %t: index, %n: index) {
  // expected-remark @below {{interchanged with the loop at line 16, which carries no dependence: its iterations are the threads of one launch, and this loop runs in each thread (swapped back if the nest stays on the host)}}
  affine.for %s = 0 to %t {
    // expected-remark @below {{runs on the device: its iterations are the threads of a 1-D grid; gpu-choice=always}}
    affine.for %i = 0 to %n {
      %a = affine.load %x[%i] : memref<?xf64>
      %b = arith.addf %a, %a : f64
      affine.store %b, %x[%i] : memref<?xf64>
    }
  }
  return
}

// -----

// Host code between device nests of a distributed region: the nest that
// carries a dependence stays on the host between the two device nests.
// Before it, the runtime hears that it reads x and y and writes y
// (weft_cuda_host_access: the device's newer parts of both come back, and
// y becomes newer on the host), so that the second device nest's copy of
// y's flow-in brings the host's values. The message needs no call: the MPI
// runtime makes its own.
// CHECK-LABEL: func.func @host_between
// CHECK-SAME: (%[[X:.*]]: memref<?xf64>, %[[Y:.*]]: memref<?xf64>
// CHECK: weft.gpu.band = 1
// CHECK: gpu.dealloc
// CHECK: %[[PY:.*]] = builtin.unrealized_conversion_cast %[[Y]] : memref<?xf64> to !emitc.ptr<f64>
// CHECK: emitc.call_opaque "weft_cuda_host_access"(%[[PY]]) {args = [0 : index, 1 : i32]}
// CHECK: %[[PX:.*]] = builtin.unrealized_conversion_cast %[[X]] : memref<?xf64> to !emitc.ptr<f64>
// CHECK: emitc.call_opaque "weft_cuda_host_access"(%[[PX]]) {args = [0 : index, 0 : i32]}
// CHECK-NEXT: affine.for
// CHECK-NOT: weft_cuda_host_access
// CHECK: weft.gpu.band = 1
// CHECK-NOT: weft_cuda_host_access
// CHECK: dist.isend
// CHECK: emitc.call_opaque "weft_cuda_release_all"()
// CHECK-NEXT: return
#lo = affine_map<()[s0] -> (s0 + 1)>
#hi = affine_map<()[s0, s1] -> (s0 - 1, s1)>
func.func @host_between(%x: memref<?xf64>, %y: memref<?xf64>, %t: index, %n: index) {
  %r = dist.rank
  %p = dist.num_ranks
  %c0 = arith.constant 0 : index
  %lb, %ub, %st = dist.local_bounds %c0 to %n at %r of %p by #dist.dim<block on 0>
  // expected-remark @below {{stays on the host: it holds dist.isend}}
  affine.for %s = 0 to %t {
    // expected-remark @below {{runs on the device}}
    // expected-remark @below {{device copies}}
    affine.for %i = #lo()[%lb] to min #hi()[%n, %ub] {
      %a = affine.load %x[%i] : memref<?xf64>
      affine.store %a, %y[%i] : memref<?xf64>
    }
    // expected-remark @below {{stays on the host: it carries a dependence}}
    affine.for %i = #lo()[%lb] to min #hi()[%n, %ub] {
      %a = affine.load %y[%i - 1] : memref<?xf64>
      %b = affine.load %x[%i] : memref<?xf64>
      %v = arith.addf %a, %b : f64
      affine.store %v, %y[%i] : memref<?xf64>
    }
    // expected-remark @below {{runs on the device}}
    // expected-remark @below {{device copies}}
    affine.for %i = #lo()[%lb] to min #hi()[%n, %ub] {
      %a = affine.load %y[%i] : memref<?xf64>
      affine.store %a, %x[%i] : memref<?xf64>
    }
    dist.isend %x elements "[hi] -> { X[i] : i = hi - 1 }" (%ub) to %r tag 0 : memref<?xf64>
    dist.wait_all
  }
  return
}
