// RUN: weft-opt %s --gpu-expose-bands=report=1 -split-input-file -verify-diagnostics | FileCheck %s

// gemm as PolyBench writes it: `i` is parallel but its body is two loops,
// and the second is `for k for j` with `k` carrying the reduction. The loop
// is distributed over its body and `k` interchanged with `j`: two 2-D bands
// (the same weft.gpu.parts: placed together), the k loop inside the second;
// `j` is marked weft.gpu.interchanged, so that gpu-select-nests swaps it
// back where the nest stays on the host.
// CHECK-LABEL: func.func @gemm
// CHECK:      affine.for %[[I:.*]] = 0 to %{{.*}} {
// CHECK-NEXT:   affine.for %[[J:.*]] = 0 to 64 {
// CHECK-NEXT:     affine.load %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT:     arith.mulf
// CHECK-NEXT:     affine.store
// CHECK-NEXT:   }
// CHECK-NEXT: } {weft.gpu.parts = [[PARTS:[0-9]+]] : i64}
// CHECK-NEXT: affine.for %[[I2:.*]] = 0 to %{{.*}} {
// CHECK-NEXT:   affine.for %[[J2:.*]] = 0 to 64 {
// CHECK-NEXT:     affine.for %[[K2:.*]] = 0 to 48 {
// CHECK-NEXT:       affine.load %{{.*}}[%[[I2]], %[[J2]]]
// CHECK-NEXT:       affine.load %{{.*}}[%[[I2]], %[[K2]]]
// CHECK:            affine.store %{{.*}}, %{{.*}}[%[[I2]], %[[J2]]]
// CHECK-NEXT:     }
// CHECK-NEXT:   } {weft.gpu.interchanged}
// CHECK-NEXT: } {weft.gpu.parts = [[PARTS]] : i64}
// CHECK-NEXT: return
func.func @gemm(%c: memref<?x64xf64>, %a: memref<?x48xf64>, %b: memref<48x64xf64>, %n: index, %alpha: f64, %beta: f64) {
  // expected-remark @below {{distributed into 2 loops over the parts of its body, so that the loops at line 30, line 36 with it are 2-D bands}}
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 64 {
      %v = affine.load %c[%i, %j] : memref<?x64xf64>
      %w = arith.mulf %v, %beta : f64
      affine.store %w, %c[%i, %j] : memref<?x64xf64>
    }
    // expected-remark @below {{interchanged with the loop at line 37, which carries no dependence and becomes the second grid dimension; this loop runs in each thread (swapped back if the nest stays on the host)}}
    affine.for %k = 0 to 48 {
      affine.for %j = 0 to 64 {
        %v = affine.load %c[%i, %j] : memref<?x64xf64>
        %x = affine.load %a[%i, %k] : memref<?x48xf64>
        %p = arith.mulf %alpha, %x : f64
        %y = affine.load %b[%k, %j] : memref<48x64xf64>
        %q = arith.mulf %p, %y : f64
        %s = arith.addf %v, %q : f64
        affine.store %s, %c[%i, %j] : memref<?x64xf64>
      }
    }
  }
  return
}

// -----

// A nest that is a 2-D band already (2mm's form) and a body without loops:
// nothing to do, nothing said.
// CHECK-LABEL: func.func @band
// CHECK:      affine.for
// CHECK-NEXT:   affine.for
// CHECK-NEXT:     affine.store
// CHECK-NEXT:     affine.for
func.func @band(%c: memref<64x64xf64>, %a: memref<64x64xf64>, %z: f64) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      affine.store %z, %c[%i, %j] : memref<64x64xf64>
      affine.for %k = 0 to 64 {
        %v = affine.load %c[%i, %j] : memref<64x64xf64>
        %x = affine.load %a[%i, %k] : memref<64x64xf64>
        %s = arith.addf %v, %x : f64
        affine.store %s, %c[%i, %j] : memref<64x64xf64>
      }
    }
  }
  affine.for %i = 0 to 64 {
    %v = affine.load %a[%i, 0] : memref<64x64xf64>
    affine.store %v, %c[%i, 0] : memref<64x64xf64>
  }
  return
}

// -----

// A scalar each iteration of `i` writes before the j loop reads it: `i` is
// parallel (each thread has its own), but distribution would let every j
// loop read the last value: the dependence from the read back to the next
// iteration's write forbids the cut.
// CHECK-LABEL: func.func @scalar
// CHECK:      affine.for
// CHECK-NEXT:   affine.load
// CHECK-NEXT:   affine.store
// CHECK-NEXT:   affine.for
func.func @scalar(%c: memref<64x64xf64>, %a: memref<64xf64>) {
  %t = memref.alloca() : memref<f64>
  // expected-remark @below {{not distributed around the loop at line 18: a dependence goes from a later part of its body back to an earlier one}}
  affine.for %i = 0 to 64 {
    %v = affine.load %a[%i] : memref<64xf64>
    affine.store %v, %t[] : memref<f64>
    affine.for %j = 0 to 64 {
      %w = affine.load %t[] : memref<f64>
      affine.store %w, %c[%i, %j] : memref<64x64xf64>
    }
  }
  return
}

// -----

// The same with the value in a register: it cannot cross the cut.
// CHECK-LABEL: func.func @value
// CHECK:      affine.for
// CHECK-NEXT:   affine.load
// CHECK-NEXT:   affine.for
func.func @value(%c: memref<64x64xf64>, %a: memref<64xf64>) {
  // expected-remark @below {{not distributed around the loop at line 12: a value computed in one part of its body is used in another}}
  affine.for %i = 0 to 64 {
    %v = affine.load %a[%i] : memref<64xf64>
    affine.for %j = 0 to 64 {
      affine.store %v, %c[%i, %j] : memref<64x64xf64>
    }
  }
  return
}

// -----

// Interchange: a dependence of distance (1, -1) along (k, j) would be
// reversed; one of distance (1, 1) would not, but `j` would then carry it.
// Neither nest changes.
// CHECK-LABEL: func.func @interchange
// CHECK:      affine.for %{{.*}} = 0 to 16 {
// CHECK-NEXT:   affine.for %{{.*}} = 1 to 16 {
// CHECK-NEXT:     affine.for %{{.*}} = 0 to 15 {
// CHECK:      affine.for %{{.*}} = 0 to 16 {
// CHECK-NEXT:   affine.for %{{.*}} = 1 to 16 {
// CHECK-NEXT:     affine.for %{{.*}} = 1 to 16 {
func.func @interchange(%c: memref<16x16x16xf64>) {
  affine.for %i = 0 to 16 {
    // expected-remark @below {{not interchanged with the loop at line 17: a dependence goes forward along this loop and backward along that one, which the swap would reverse}}
    affine.for %k = 1 to 16 {
      affine.for %j = 0 to 15 {
        %v = affine.load %c[%i, %k - 1, %j + 1] : memref<16x16x16xf64>
        affine.store %v, %c[%i, %k, %j] : memref<16x16x16xf64>
      }
    }
  }
  affine.for %i = 0 to 16 {
    // expected-remark @below {{not interchanged with the loop at line 26: that loop carries a dependence}}
    affine.for %k = 1 to 16 {
      affine.for %j = 1 to 16 {
        %v = affine.load %c[%i, %k - 1, %j - 1] : memref<16x16x16xf64>
        affine.store %v, %c[%i, %k, %j] : memref<16x16x16xf64>
      }
    }
  }
  return
}

// -----

// syrk: the j loops' bounds use `i` (the lower triangle), in one affine
// expression each with step 1, which gpu-select-nests maps as a triangle of
// the band: distributed and interchanged as gemm.
// CHECK-LABEL: func.func @syrk
// CHECK:      affine.for %[[I:.*]] = 0 to 64 {
// CHECK-NEXT:   affine.for %{{.*}} = 0 to #[[TRI:.*]](%[[I]]) {
// CHECK:      affine.for %[[I2:.*]] = 0 to 64 {
// CHECK-NEXT:   affine.for %[[J2:.*]] = 0 to #[[TRI]](%[[I2]]) {
// CHECK-NEXT:     affine.for %[[K2:.*]] = 0 to 32 {
// CHECK-NEXT:       affine.load %{{.*}}[%[[I2]], %[[J2]]]
func.func @syrk(%c: memref<64x64xf64>, %a: memref<64x32xf64>, %beta: f64) {
  // expected-remark @below {{distributed into 2 loops over the parts of its body, so that the loops at line 16, line 22 with it are 2-D bands}}
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      %v = affine.load %c[%i, %j] : memref<64x64xf64>
      %w = arith.mulf %v, %beta : f64
      affine.store %w, %c[%i, %j] : memref<64x64xf64>
    }
    // expected-remark @below {{interchanged with the loop at line 23, which carries no dependence and becomes the second grid dimension; this loop runs in each thread (swapped back if the nest stays on the host)}}
    affine.for %k = 0 to 32 {
      affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
        %v = affine.load %c[%i, %j] : memref<64x64xf64>
        %x = affine.load %a[%i, %k] : memref<64x32xf64>
        %y = affine.load %a[%j, %k] : memref<64x32xf64>
        %p = arith.mulf %x, %y : f64
        %s = arith.addf %v, %p : f64
        affine.store %s, %c[%i, %j] : memref<64x64xf64>
      }
    }
  }
  return
}

// -----

// Bounds that use `i` through a min: not a triangle gpu-select-nests maps,
// so nothing changes.
// CHECK-LABEL: func.func @clipped
// CHECK:      affine.for
// CHECK-NEXT:   affine.for
// CHECK:        affine.for
// CHECK-NEXT:     affine.for
func.func @clipped(%c: memref<64x64xf64>, %a: memref<64x32xf64>, %beta: f64) {
  // expected-remark @below {{no 2-D band exposed: the loops at line 13, line 19 have bounds that use this loop's iterator in a form gpu-select-nests does not map (a min, a max, a step other than 1, or two iterators)}}
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to min affine_map<(d0) -> (d0 + 1, 48)>(%i) {
      %v = affine.load %c[%i, %j] : memref<64x64xf64>
      %w = arith.mulf %v, %beta : f64
      affine.store %w, %c[%i, %j] : memref<64x64xf64>
    }
    affine.for %k = 0 to 32 {
      affine.for %j = 0 to min affine_map<(d0) -> (d0 + 1, 48)>(%i) {
        %v = affine.load %c[%i, %j] : memref<64x64xf64>
        %x = affine.load %a[%i, %k] : memref<64x32xf64>
        %y = affine.load %a[%j, %k] : memref<64x32xf64>
        %p = arith.mulf %x, %y : f64
        %s = arith.addf %v, %p : f64
        affine.store %s, %c[%i, %j] : memref<64x64xf64>
      }
    }
  }
  return
}

// -----

// atax as PolyBench writes it: `i` carries the updates of y, and its second
// inner loop is parallel. The loop is distributed (tmp's statements, then
// y's loop) and y's loop interchanged with it: `for j for i`, one grid over
// j (marked weft.gpu.interchanged for gpu-select-nests) instead of one
// launch per i. The part left behind carries nothing now, and is
// distributed again: tmp's row reduction is a 2-D band of its own.
// CHECK-LABEL: func.func @atax
// CHECK:      affine.for %[[I:.*]] = 0 to %{{.*}} {
// CHECK-NEXT:   affine.store %{{.*}}, %{{.*}}[%[[I]]]
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %[[I1:.*]] = 0 to %{{.*}} {
// CHECK-NEXT:   affine.for %[[J:.*]] = 0 to %{{.*}} {
// CHECK:        }
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %[[J2:.*]] = 0 to %{{.*}} {
// CHECK-NEXT:   affine.for %[[I2:.*]] = 0 to %{{.*}} {
// CHECK-NEXT:     affine.load %{{.*}}[%[[J2]]]
// CHECK-NEXT:     affine.load %{{.*}}[%[[I2]], %[[J2]]]
// CHECK:          affine.store %{{.*}}, %{{.*}}[%[[J2]]]
// CHECK-NEXT:   }
// CHECK-NEXT: } {weft.gpu.interchanged}
// CHECK-NEXT: return
func.func @atax(%a: memref<?x?xf64>, %x: memref<?xf64>, %y: memref<?xf64>,
                %tmp: memref<?xf64>, %m: index, %n: index, %zero: f64) {
  // expected-remark @below {{distributed into 2 loops over the parts of its body, so that the loop at line 40 can be interchanged with it}}
  // expected-remark @below {{interchanged with the loop at line 40, which carries no dependence: its iterations are the threads of one launch, and this loop runs in each thread (swapped back if the nest stays on the host)}}
  // expected-remark @below {{distributed into 2 loops over the parts of its body, so that the loop at line 32 with it is a 2-D band}}
  affine.for %i = 0 to %m {
    affine.store %zero, %tmp[%i] : memref<?xf64>
    affine.for %j = 0 to %n {
      %t = affine.load %tmp[%i] : memref<?xf64>
      %v = affine.load %a[%i, %j] : memref<?x?xf64>
      %w = affine.load %x[%j] : memref<?xf64>
      %p = arith.mulf %v, %w : f64
      %s = arith.addf %t, %p : f64
      affine.store %s, %tmp[%i] : memref<?xf64>
    }
    affine.for %j = 0 to %n {
      %u = affine.load %y[%j] : memref<?xf64>
      %v = affine.load %a[%i, %j] : memref<?x?xf64>
      %t = affine.load %tmp[%i] : memref<?xf64>
      %p = arith.mulf %v, %t : f64
      %s = arith.addf %u, %p : f64
      affine.store %s, %y[%j] : memref<?xf64>
    }
  }
  return
}

// -----

// A time loop around a stencil: swapping it with the space loop would
// reverse a dependence (forward in t, backward in i), and the two parts
// cannot be split. Nothing changes, nothing is said.
// CHECK-LABEL: func.func @stencil
// CHECK:      affine.for %{{.*}} = 0 to %{{.*}} {
// CHECK-NEXT:   affine.for
// CHECK-NOT: weft.gpu.interchanged
// CHECK: return
func.func @stencil(%a: memref<?xf64>, %b: memref<?xf64>, %t: index, %n: index) {
  affine.for %s = 0 to %t {
    affine.for %i = 1 to %n {
      %l = affine.load %a[%i - 1] : memref<?xf64>
      %r = affine.load %a[%i + 1] : memref<?xf64>
      %v = arith.addf %l, %r : f64
      affine.store %v, %b[%i] : memref<?xf64>
    }
    affine.for %i = 1 to %n {
      %v = affine.load %b[%i] : memref<?xf64>
      affine.store %v, %a[%i] : memref<?xf64>
    }
  }
  return
}

// -----

// bicg as PolyBench writes it: `i` carries the sums of s, and its inner
// loop carries q[i]'s sum but holds s's update, which alone would not. The
// inner loop is distributed over its two statements, then `i` over its
// parts, and s's part interchanged with it: one grid over j; q's part keeps
// its order (a grid over i for gpu-select-nests).
// CHECK-LABEL: func.func @bicg
// CHECK:      affine.for %[[I:.*]] = 0 to %{{.*}} {
// CHECK-NEXT:   affine.store %{{.*}}, %{{.*}}[%[[I]]]
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to %{{.*}} {
// CHECK-NEXT:   affine.for %[[I2:.*]] = 0 to %{{.*}} {
// CHECK-NEXT:     affine.load %{{.*}}[%[[J]]]
// CHECK-NEXT:     affine.load %{{.*}}[%[[I2]]]
// CHECK-NEXT:     affine.load %{{.*}}[%[[I2]], %[[J]]]
// CHECK:          affine.store %{{.*}}, %{{.*}}[%[[J]]]
// CHECK-NEXT:   }
// CHECK-NEXT: } {weft.gpu.interchanged}
// CHECK-NEXT: affine.for %[[I3:.*]] = 0 to %{{.*}} {
// CHECK-NEXT:   affine.for %[[J3:.*]] = 0 to %{{.*}} {
// CHECK-NEXT:     affine.load %{{.*}}[%[[I3]]]
// CHECK:          affine.store %{{.*}}, %{{.*}}[%[[I3]]]
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @bicg(%a: memref<?x?xf64>, %s: memref<?xf64>, %q: memref<?xf64>,
                %p: memref<?xf64>, %r: memref<?xf64>, %m: index, %n: index,
                %zero: f64) {
  // expected-remark @below {{distributed into 3 loops over the parts of its body, so that the loop at line 35 can be interchanged with it}}
  // expected-remark @below {{interchanged with the loop at line 35, which carries no dependence: its iterations are the threads of one launch, and this loop runs in each thread (swapped back if the nest stays on the host)}}
  affine.for %i = 0 to %n {
    affine.store %zero, %q[%i] : memref<?xf64>
    // expected-remark @below {{distributed into 2 loops over the parts of its body, so that the statement at line 41 can be interchanged with the loop at line 32}}
    affine.for %j = 0 to %m {
      %s0 = affine.load %s[%j] : memref<?xf64>
      %ri = affine.load %r[%i] : memref<?xf64>
      %a0 = affine.load %a[%i, %j] : memref<?x?xf64>
      %sp = arith.mulf %ri, %a0 : f64
      %s1 = arith.addf %s0, %sp : f64
      affine.store %s1, %s[%j] : memref<?xf64>
      %q0 = affine.load %q[%i] : memref<?xf64>
      %a1 = affine.load %a[%i, %j] : memref<?x?xf64>
      %pj = affine.load %p[%j] : memref<?xf64>
      %qp = arith.mulf %a1, %pj : f64
      %q1 = arith.addf %q0, %qp : f64
      affine.store %q1, %q[%i] : memref<?xf64>
    }
  }
  return
}

// -----

// The sum feeds the update in the same iteration of j, and the update's
// read of c[i] comes before the sum's next write: a dependence goes from
// the second statement back to the first, so the inner loop is not split,
// and nothing else changes.
// CHECK-LABEL: func.func @feedback
// CHECK:      affine.for %[[I:.*]] = 0 to %{{.*}} {
// CHECK-NEXT:   affine.for %[[J:.*]] = 0 to %{{.*}} {
// CHECK:          affine.store %{{.*}}, %{{.*}}[%[[I]]]
// CHECK:          affine.store %{{.*}}, %{{.*}}[%[[J]]]
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @feedback(%a: memref<?x?xf64>, %c: memref<?xf64>, %d: memref<?xf64>,
                    %m: index, %n: index, %k: f64) {
  affine.for %i = 0 to %m {
    affine.for %j = 0 to %n {
      %c0 = affine.load %c[%i] : memref<?xf64>
      %a0 = affine.load %a[%i, %j] : memref<?x?xf64>
      %d0 = affine.load %d[%j] : memref<?xf64>
      %cp = arith.mulf %a0, %d0 : f64
      %c1 = arith.addf %c0, %cp : f64
      affine.store %c1, %c[%i] : memref<?xf64>
      %d1 = affine.load %d[%j] : memref<?xf64>
      %c2 = affine.load %c[%i] : memref<?xf64>
      %dk = arith.mulf %k, %c2 : f64
      %d2 = arith.addf %d1, %dk : f64
      affine.store %d2, %d[%j] : memref<?xf64>
    }
  }
  return
}

// -----

// A split inside a split: in a time loop, `i` holds a statement and a `j`
// loop of three statements, only the first parallel along `j`. The first
// round splits `j` (its first statement can move out of `i`); `t`'s split
// of `i`, asked about the same IR, waits for the next round (it would cut
// the body `j`'s split has changed). The next round moves the first
// statement's loop out of `i`; each statement is left in one loop.
// CHECK-LABEL: func.func @nested_splits
// CHECK:      affine.for %{{.*}} = 0 to %{{.*}} {
// CHECK-NEXT:   affine.for %[[I:.*]] = 0 to %{{.*}} {
// CHECK-NEXT:     affine.store %{{.*}}, %{{.*}}[%[[I]]]
// CHECK-NEXT:   }
// CHECK-NEXT:   affine.for %[[J:.*]] = 0 to %{{.*}} {
// CHECK-NEXT:     affine.for %[[I2:.*]] = 0 to %{{.*}} {
// CHECK:            affine.store %{{.*}}, %[[C:.*]][%[[J]]]
// CHECK-NEXT:     }
// CHECK-NEXT:   } {weft.gpu.interchanged}
// CHECK-NEXT:   affine.for %[[I3:.*]] = 0 to %{{.*}} {
// CHECK-NEXT:     affine.for %[[J3:.*]] = 0 to %{{.*}} {
// CHECK:            affine.store %{{.*}}, %[[B:.*]][%[[I3]]]
// CHECK:            affine.store %{{.*}}, %[[D:.*]][%[[I3]]]
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @nested_splits(%q: memref<?xf64>, %a: memref<?xf64>, %b: memref<?xf64>,
                         %c: memref<?xf64>, %d: memref<?xf64>, %A: memref<?x?xf64>,
                         %steps: index, %m: index, %n: index, %zero: f64, %half: f64) {
  affine.for %t = 0 to %steps {
    // expected-remark @below {{distributed into 3 loops over the parts of its body, so that the loop at line 36 can be interchanged with it}}
    // expected-remark @below {{interchanged with the loop at line 36, which carries no dependence}}
    affine.for %i = 0 to %m {
      affine.store %zero, %q[%i] : memref<?xf64>
      // expected-remark @below {{distributed into 2 loops over the parts of its body, so that the statement at line 41 can be interchanged with the loop at line 33}}
      affine.for %j = 0 to %n {
        %a0 = affine.load %a[%i] : memref<?xf64>
        %h = arith.mulf %a0, %half : f64
        %e = affine.load %A[%i, %j] : memref<?x?xf64>
        %c0 = arith.addf %h, %e : f64
        affine.store %c0, %c[%j] : memref<?xf64>
        %b0 = affine.load %b[%i] : memref<?xf64>
        %a1 = affine.load %a[%i] : memref<?xf64>
        %a2 = arith.mulf %a1, %a1 : f64
        %b1 = arith.addf %b0, %a2 : f64
        affine.store %b1, %b[%i] : memref<?xf64>
        %b2 = affine.load %b[%j + 1] : memref<?xf64>
        %b3 = arith.mulf %b2, %half : f64
        %d0 = affine.load %d[%j] : memref<?xf64>
        %d1 = arith.addf %b3, %d0 : f64
        affine.store %d1, %d[%i] : memref<?xf64>
      }
    }
  }
  return
}
