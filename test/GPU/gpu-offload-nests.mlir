// RUN: weft-opt %s --gpu-offload-nests='report=1 gpu-choice=always' -split-input-file -verify-diagnostics | FileCheck %s

// A distributed region: each rank updates its block of y from x in a time
// loop and sends its last element to the next rank. The update is a static
// nest of its own (its bounds, the rank's block, are symbols): it runs on
// the device, with the box it reads of x (the block and its halo) copied in
// before it and the box it writes of y copied back after it, inside the time
// loop. The message is sent from the host array, which keeps y's values
// between nests.
// CHECK-LABEL: func.func @halo
// CHECK-SAME: (%[[X:.*]]: memref<?xf64>, %[[Y:.*]]: memref<?xf64>, %[[T:.*]]: index, %[[N:.*]]: index)
// CHECK: dist.local_bounds
// CHECK: affine.for
// CHECK: %[[DX:.*]] = gpu.alloc
// CHECK: %[[DY:.*]] = gpu.alloc
// CHECK: memref.subview %[[X]]
// CHECK: gpu.memcpy
// CHECK: affine.for
// CHECK: affine.load %[[DX]]
// CHECK: affine.store %{{.*}}, %[[DY]]
// CHECK: weft.gpu.band = 1
// CHECK: memref.subview %[[Y]]
// CHECK: gpu.memcpy
// CHECK: gpu.dealloc %[[DX]]
// CHECK: gpu.dealloc %[[DY]]
// CHECK-NOT: weft.gpu
// CHECK: dist.isend %[[Y]] elements
// CHECK: dist.wait_all
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
    // expected-remark @below {{device copies: #0 goes in before the first kernel (the box of its flow-in elements), is not copied back; #1 is not copied in, comes back after the last (its live-out elements)}}
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
func.func @whole(%x: memref<?xf64>, %t: index, %n: index) {
  // expected-remark @below {{stays on the host: it carries a dependence through #0; the loops in it are candidates}}
  affine.for %s = 0 to %t {
    // expected-remark @below {{runs on the device}}
    affine.for %i = 0 to %n {
      %a = affine.load %x[%i] : memref<?xf64>
      %b = arith.addf %a, %a : f64
      affine.store %b, %x[%i] : memref<?xf64>
    }
  }
  return
}
