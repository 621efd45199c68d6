// RUN: weft-opt %s --test-flow-dependences -split-input-file -verify-diagnostics -o /dev/null
// RUN: weft-opt %s --test-flow-dependences="max-isl-ops=40" -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUOTA

// Exact flow dependences (ISL compute_flow), the loops that carry them, and
// which loops are parallel (no flow, anti or output dependence carried).

// Jacobi 1-D: the time loop carries the dependences between the sweeps, the
// space loops carry none.
// expected-remark @+1 {{6 statements}}
func.func @jacobi1d(%x: memref<100xf64>, %y: memref<100xf64>, %tsteps: index, %n: index) {
  // expected-remark @+1 {{carries a flow dependence, not parallel}}
  affine.for %t = 0 to %tsteps {
    // expected-remark @+1 {{carries no flow dependence, parallel}}
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %a = affine.load %x[%i - 1] : memref<100xf64>
      %b = affine.load %x[%i] : memref<100xf64>
      %c = affine.load %x[%i + 1] : memref<100xf64>
      %s = arith.addf %a, %b : f64
      %r = arith.addf %s, %c : f64
      affine.store %r, %y[%i] : memref<100xf64>
    }
    // expected-remark @+1 {{carries no flow dependence, parallel}}
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %v = affine.load %y[%i] : memref<100xf64>
      affine.store %v, %x[%i] : memref<100xf64>
    }
  }
  return
}

// -----

// Matrix product: only the k loop carries a dependence, and only through
// the update C[i][j] += ...: a reduction.
// expected-remark @+1 {{4 statements}}
func.func @gemm(%A: memref<?x64xf64>, %B: memref<?x64xf64>, %C: memref<?x64xf64>, %n: index) {
  // expected-remark @+1 {{carries no flow dependence, parallel}}
  affine.for %i = 0 to %n {
    // expected-remark @+1 {{carries no flow dependence, parallel}}
    affine.for %j = 0 to 64 {
      // expected-remark @+1 {{carries a flow dependence, not parallel, reduction (add)}}
      affine.for %k = 0 to 64 {
        %c = affine.load %C[%i, %j] : memref<?x64xf64>
        %a = affine.load %A[%i, %k] : memref<?x64xf64>
        %b = affine.load %B[%k, %j] : memref<?x64xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %c, %p : f64
        affine.store %s, %C[%i, %j] : memref<?x64xf64>
      }
    }
  }
  return
}

// -----

// A value written at i and read at i + 2 (a reversed loop, through an
// affine.apply) is carried; a stepped copy and an if in the loop are exact
// too.
// expected-remark @+1 {{6 statements}}
func.func @reversed(%x: memref<100xf64>, %y: memref<100xf64>, %n: index) {
  // expected-remark @+1 {{carries a flow dependence, not parallel}}
  affine.for %k = 0 to affine_map<()[s0] -> (s0 - 2)>()[%n] {
    %i = affine.apply affine_map<(d0)[s0] -> (s0 - d0 - 3)>(%k)[%n]
    %a = affine.load %x[%i + 2] : memref<100xf64>
    affine.store %a, %x[%i] : memref<100xf64>
  }
  // expected-remark @+1 {{carries no flow dependence, parallel}}
  affine.for %i = 0 to %n step 2 {
    affine.if affine_set<(d0) : (d0 - 10 >= 0)>(%i) {
      %v = affine.load %x[%i] : memref<100xf64>
      affine.store %v, %y[%i] : memref<100xf64>
    } else {
      %w = affine.load %y[%i + 1] : memref<100xf64>
      affine.store %w, %y[%i] : memref<100xf64>
    }
  }
  return
}

// -----

// Reading the next element before it is overwritten is an anti dependence:
// no flow dependence, but the loop is not parallel. Overwriting one element
// in every iteration is an output dependence.
// expected-remark @+1 {{4 statements}}
func.func @anti_output(%x: memref<100xf64>, %s: memref<1xf64>, %n: index) {
  // expected-remark @+1 {{carries no flow dependence, not parallel}}
  affine.for %i = 0 to 99 {
    %v = affine.load %x[%i + 1] : memref<100xf64>
    affine.store %v, %x[%i] : memref<100xf64>
  }
  // expected-remark @+1 {{carries no flow dependence, not parallel}}
  affine.for %i = 0 to %n {
    %v = affine.load %x[%i] : memref<100xf64>
    affine.store %v, %s[0] : memref<1xf64>
  }
  return
}

// -----

// A dot product and a maximum into one element are reductions; a prefix sum
// (reads the previous element, not the one it updates) is not.
// expected-remark @+1 {{9 statements}}
func.func @reductions(%x: memref<100xf64>, %y: memref<100xf64>, %s: memref<2xf64>, %n: index) {
  // expected-remark @+1 {{carries a flow dependence, not parallel, reduction (add, max)}}
  affine.for %i = 0 to %n {
    %a = affine.load %x[%i] : memref<100xf64>
    %b = affine.load %y[%i] : memref<100xf64>
    %p = arith.mulf %a, %b : f64
    %acc = affine.load %s[0] : memref<2xf64>
    %sum = arith.addf %acc, %p : f64
    affine.store %sum, %s[0] : memref<2xf64>
    %m = affine.load %s[1] : memref<2xf64>
    %mx = arith.maxnumf %m, %a : f64
    affine.store %mx, %s[1] : memref<2xf64>
  }
  // expected-remark @+1 {{carries a flow dependence, not parallel}}
  affine.for %i = 1 to 100 {
    %prev = affine.load %x[%i - 1] : memref<100xf64>
    %cur = affine.load %x[%i] : memref<100xf64>
    %sum = arith.addf %prev, %cur : f64
    affine.store %sum, %x[%i] : memref<100xf64>
  }
  return
}

// -----

// Non-affine accesses are outside the model: reported, not approximated.
func.func @not_affine(%x: memref<100xf64>, %n: index) {
  affine.for %i = 0 to %n {
    // expected-remark @+1 {{not a static control part: a subscript is not an affine function of the loop iterators and parameters ('memref.load')}}
    %v = memref.load %x[%i] : memref<100xf64>
    affine.store %v, %x[%i] : memref<100xf64>
  }
  return
}

// QUOTA: error: polyhedral analysis exceeded its quota of 40 ISL operations
