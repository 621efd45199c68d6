// RUN: weft-opt %s --test-device-mapping -split-input-file -verify-diagnostics -o /dev/null

// Which loops may run as independent GPU threads, and the boxes the CUDA
// path moves: flow-in before the region, live-out after it.

// A 1-D stencil: the sweep is thread-parallel; x goes to the device (its
// flow-in; when n is 3 the two elements read are not a box, so their hull
// moves), y comes back (exactly what is written), nothing else moves.
// expected-remark @below {{argument 0: accessed [0, ((p0 <= 2) ? 0 : p0)) (hull), in [0, ((p0 <= 2) ? 0 : p0)) (hull) (more than flow-in), out none}}
// expected-remark @below {{argument 1: accessed [((p0 <= 2) ? 0 : 1), ((p0 <= 2) ? 0 : (p0 - 1))), in none, out [((p0 <= 2) ? 0 : 1), ((p0 <= 2) ? 0 : (p0 - 1)))}}
func.func @stencil(%x: memref<?xf64>, %y: memref<?xf64>, %n: index) {
  // expected-remark @below {{thread-parallel}}
  affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
    %a = affine.load %x[%i - 1] : memref<?xf64>
    %c = affine.load %x[%i + 1] : memref<?xf64>
    %s = arith.addf %a, %c : f64
    affine.store %s, %y[%i] : memref<?xf64>
  }
  return
}

// -----

// A scalar declared in the loop body, or before the loop but written before
// it is read in every iteration, is each thread's own: the loop stays
// thread-parallel. The scalar in the last loop carries a value from one
// iteration to the next, and the accumulator argument one too.
// expected-remark @below {{argument 0: accessed [0, 100), in [0, 100), out none}}
// expected-remark @below {{argument 1: accessed [0, 100), in none, out [0, 100)}}
// expected-remark @below {{argument 2: accessed [0, 1), in [0, 1), out [0, 1)}}
func.func @scalars(%a: memref<100xf64>, %b: memref<100xf64>, %s: memref<1xf64>) {
  // expected-remark @below {{thread-parallel}}
  affine.for %i = 0 to 100 {
    %t = memref.alloca() : memref<f64>
    %v = affine.load %a[%i] : memref<100xf64>
    affine.store %v, %t[] : memref<f64>
    %w = affine.load %t[] : memref<f64>
    affine.store %w, %b[%i] : memref<100xf64>
  }
  %u = memref.alloca() : memref<f64>
  // expected-remark @below {{thread-parallel}}
  affine.for %i = 0 to 100 {
    %v = affine.load %a[%i] : memref<100xf64>
    affine.store %v, %u[] : memref<f64>
    %w = affine.load %u[] : memref<f64>
    affine.store %w, %b[%i] : memref<100xf64>
  }
  %r = memref.alloca() : memref<f64>
  // expected-remark @below {{not thread-parallel: carries a dependence through a local}}
  affine.for %i = 0 to 100 {
    %old = affine.load %r[] : memref<f64>
    %v = affine.load %a[%i] : memref<100xf64>
    %sum = arith.addf %old, %v : f64
    affine.store %sum, %r[] : memref<f64>
    affine.store %old, %b[%i] : memref<100xf64>
  }
  // expected-remark @below {{not thread-parallel: carries a dependence through argument 2}}
  affine.for %i = 0 to 100 {
    %old = affine.load %s[0] : memref<1xf64>
    %v = affine.load %a[%i] : memref<100xf64>
    %sum = arith.addf %old, %v : f64
    affine.store %sum, %s[0] : memref<1xf64>
  }
  return
}

// -----

// Every other element is written: the copy back moves their box, so the
// elements between them go to the device first (the host's values come back).
// expected-remark @below {{argument 0: accessed [0, 19) (hull), in [0, 19) (more than flow-in), out [0, 19) (hull)}}
func.func @strided(%x: memref<20xf64>) {
  // expected-remark @below {{thread-parallel}}
  affine.for %i = 0 to 10 {
    %v = arith.constant 1.0 : f64
    affine.store %v, %x[2 * %i] : memref<20xf64>
  }
  return
}
