// RUN: weft-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(dist-interchange-inner{report=1})' | FileCheck %s
// (A remark's "line N" counts from the start of its split.)

// 2mm's first product: the innermost loop over k adds into tmp[i][j] (a
// chain) and walks a column of B; one of its 3 distinct accesses walks
// consecutive elements along k (A), 2 along j (tmp, B). The loop
// over j is distributed around it (the zeroing first) and the two are
// swapped.
// CHECK-LABEL: func.func @product(
// CHECK:         affine.for %[[I:.+]] = 0 to 64 {
// CHECK-NEXT:      affine.for %[[J0:.+]] = 0 to 48 {
// CHECK-NEXT:        affine.store %{{.+}}, %{{.+}}[%[[I]], %[[J0]]]
// CHECK-NEXT:      }
// CHECK-NEXT:      affine.for %[[K:.+]] = 0 to 32 {
// CHECK-NEXT:        affine.for %[[J:.+]] = 0 to 48 {
// CHECK-NEXT:          affine.load %{{.+}}[%[[I]], %[[J]]]
// CHECK-NEXT:          affine.load %{{.+}}[%[[I]], %[[K]]]
// CHECK-NEXT:          affine.load %{{.+}}[%[[K]], %[[J]]]
// CHECK:               affine.store %{{.+}}, %{{.+}}[%[[I]], %[[J]]]
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
func.func @product(%tmp: memref<64x48xf64>, %a: memref<64x32xf64>,
                   %b: memref<32x48xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 48 {
      affine.store %zero, %tmp[%i, %j] : memref<64x48xf64>
      // expected-remark @below {{interchanged with the loop at line 27 around it (distributed around it first): the innermost loop walks consecutive elements in 2 of its distinct accesses, not 1, and carries no dependence}}
      affine.for %k = 0 to 32 {
        %t = affine.load %tmp[%i, %j] : memref<64x48xf64>
        %x = affine.load %a[%i, %k] : memref<64x32xf64>
        %y = affine.load %b[%k, %j] : memref<32x48xf64>
        %p = arith.mulf %x, %y : f64
        %s = arith.addf %t, %p : f64
        affine.store %s, %tmp[%i, %j] : memref<64x48xf64>
      }
    }
  }
  return
}

// -----

// A unit's loop does not move: here the loop over t carries a flow
// dependence (a[t - 1]) around the parallel loop over j, so each loop over
// j is a unit dist-partition decides on (Units.h), and swapped inside the
// loop over k, which carries the sums, it would give the partitioner the
// sums to split instead. Holding only the loop over k, it is marked for
// dist-interchange-local, which swaps the two in each rank's part.
// CHECK-LABEL: func.func @unit_itself(
// CHECK:         affine.for %{{.+}} = 1 to 64 {
// CHECK-NEXT:      affine.for %[[J:.+]] = 0 to 48 {
// CHECK-NEXT:        affine.for %{{.+}} = 0 to 32 {
// CHECK:             }
// CHECK-NEXT:      } {dist.interchange}
// CHECK-NEXT:    }
func.func @unit_itself(%a: memref<64x48xf64>, %b: memref<32x48xf64>) {
  affine.for %t = 1 to 64 {
    affine.for %j = 0 to 48 {
      affine.for %k = 0 to 32 {
        %v = affine.load %a[%t, %j] : memref<64x48xf64>
        %w = affine.load %a[%t - 1, %j] : memref<64x48xf64>
        %y = affine.load %b[%k, %j] : memref<32x48xf64>
        %p = arith.mulf %w, %y : f64
        %s = arith.addf %v, %p : f64
        affine.store %s, %a[%t, %j] : memref<64x48xf64>
      }
    }
  }
  return
}

// -----

// Around them a loop that only adds up (into s, a reduction the
// partitioner may split): that loop is the unit, and the loops inside it
// swap.
// CHECK-LABEL: func.func @reduction_around(
// CHECK:         affine.for %{{.+}} = 0 to 64 {
// CHECK-NEXT:      affine.for %{{.+}} = 0 to 32 {
// CHECK-NEXT:        affine.for %{{.+}} = 0 to 48 {
func.func @reduction_around(%s: memref<48xf64>, %b: memref<32x48xf64>) {
  affine.for %t = 0 to 64 {
    affine.for %j = 0 to 48 {
      // expected-remark @below {{interchanged with the loop at line 12 around it: the innermost loop walks consecutive elements in 2 of its distinct accesses, not 0}}
      affine.for %k = 0 to 32 {
        %v = affine.load %s[%j] : memref<48xf64>
        %y = affine.load %b[%k, %j] : memref<32x48xf64>
        %w = arith.addf %v, %y : f64
        affine.store %w, %s[%j] : memref<48xf64>
      }
    }
  }
  return
}

// -----

// Sums along rows (atax's, mvt's first): y[i][j], loaded and stored, is
// one access that walks consecutive elements along j, as A[i][j][k] does
// along k: the sums stay along the rows of A.
// CHECK-LABEL: func.func @row_sums(
// CHECK:         affine.for %[[J:.+]] = 0 to 48 {
// CHECK-NEXT:      affine.for %[[K:.+]] = 0 to 32 {
// CHECK-NEXT:        affine.load %{{.+}}[%{{.+}}, %[[J]]]
// CHECK-NEXT:        affine.load %{{.+}}[%{{.+}}, %[[J]], %[[K]]]
func.func @row_sums(%y: memref<64x48xf64>, %a: memref<64x48x32xf64>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 48 {
      affine.for %k = 0 to 32 {
        %v = affine.load %y[%i, %j] : memref<64x48xf64>
        %x = affine.load %a[%i, %j, %k] : memref<64x48x32xf64>
        %w = arith.addf %v, %x : f64
        affine.store %w, %y[%i, %j] : memref<64x48xf64>
      }
    }
  }
  return
}

// -----

// Bounds of the inner loop that use the outer one's iterator (a triangle):
// no swap.
// CHECK-LABEL: func.func @triangle(
// CHECK:         affine.for %[[J:.+]] = 0 to 48 {
// CHECK-NEXT:      affine.for %{{.+}} = 0 to #map(%[[J]]) {
func.func @triangle(%tmp: memref<64x48xf64>, %b: memref<48x48xf64>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 48 {
      affine.for %k = 0 to affine_map<(d0) -> (d0)>(%j) {
        %t = affine.load %tmp[%i, %j] : memref<64x48xf64>
        %y = affine.load %b[%k, %j] : memref<48x48xf64>
        %s = arith.addf %t, %y : f64
        affine.store %s, %tmp[%i, %j] : memref<64x48xf64>
      }
    }
  }
  return
}

// -----

// The loop over j carries a dependence itself (c[i][k][j] reads what
// iteration j - 1 wrote): moved innermost it would carry it there. No swap.
// CHECK-LABEL: func.func @outer_carries(
// CHECK:         affine.for %[[J:.+]] = 1 to 48 {
// CHECK-NEXT:      affine.for %[[K:.+]] = 0 to 32 {
func.func @outer_carries(%c: memref<64x32x48xf64>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 1 to 48 {
      affine.for %k = 0 to 32 {
        %v = affine.load %c[%i, %k, %j - 1] : memref<64x32x48xf64>
        affine.store %v, %c[%i, %k, %j] : memref<64x32x48xf64>
      }
    }
  }
  return
}

// -----

// A value computed before the inner loop and used in it: the loop over j
// cannot be cut between them, so nothing moves.
// CHECK-LABEL: func.func @value_crosses(
// CHECK:         affine.for %[[J:.+]] = 0 to 48 {
// CHECK-NEXT:      affine.load
// CHECK-NEXT:      affine.for %{{.+}} = 0 to 32 {
func.func @value_crosses(%tmp: memref<64x48xf64>, %b: memref<32x48xf64>,
                         %x: memref<48xf64>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 48 {
      %scale = affine.load %x[%j] : memref<48xf64>
      affine.for %k = 0 to 32 {
        %t = affine.load %tmp[%i, %j] : memref<64x48xf64>
        %y = affine.load %b[%k, %j] : memref<32x48xf64>
        %p = arith.mulf %scale, %y : f64
        %s = arith.addf %t, %p : f64
        affine.store %s, %tmp[%i, %j] : memref<64x48xf64>
      }
    }
  }
  return
}

// -----

// Arguments that may overlap (no restrict, not checked disjoint): their
// dependences are not the model's, so the region as written stays.
// CHECK-LABEL: func.func @may_alias(
// CHECK:         affine.for %[[J:.+]] = 0 to 48 {
// CHECK-NEXT:      affine.for %{{.+}} = 0 to 32 {
func.func @may_alias(%tmp: memref<64x48xf64> {weft.may_alias},
                     %b: memref<32x48xf64> {weft.may_alias}) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 48 {
      affine.for %k = 0 to 32 {
        %t = affine.load %tmp[%i, %j] : memref<64x48xf64>
        %y = affine.load %b[%k, %j] : memref<32x48xf64>
        %s = arith.addf %t, %y : f64
        affine.store %s, %tmp[%i, %j] : memref<64x48xf64>
      }
    }
  }
  return
}

// -----

// The same arguments checked disjoint at entry (dist.args_disjoint, the
// forms dist-alias-check calls only then) may be reordered.
// CHECK-LABEL: func.func @checked_disjoint(
// CHECK:         affine.for %[[K:.+]] = 0 to 32 {
// CHECK-NEXT:      affine.for %{{.+}} = 0 to 48 {
func.func @checked_disjoint(%tmp: memref<64x48xf64> {weft.may_alias},
                            %b: memref<32x48xf64> {weft.may_alias})
    attributes {dist.args_disjoint} {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 48 {
      // expected-remark @below {{interchanged with the loop at line 12 around it: the innermost loop walks consecutive elements in 2 of its distinct accesses, not 0, and carries no dependence}}
      affine.for %k = 0 to 32 {
        %t = affine.load %tmp[%i, %j] : memref<64x48xf64>
        %y = affine.load %b[%k, %j] : memref<32x48xf64>
        %s = arith.addf %t, %y : f64
        affine.store %s, %tmp[%i, %j] : memref<64x48xf64>
      }
    }
  }
  return
}

// -----

// A nest whose distribution the source pins over 2 loops (dist.layout:
// `#pragma weft distribute(i: block, j: block)`) keeps them; one pinned
// over the outer loop alone (the others replicated) still gets the swap
// below it, and its pin loses the entry of the loop distributed around the
// swap.
// CHECK-LABEL: func.func @pinned(
// CHECK:         affine.for %[[J:.+]] = 0 to 48 {
// CHECK-NEXT:      affine.for %{{.+}} = 0 to 32 {
// CHECK-LABEL: func.func @pinned_outer(
// CHECK:         affine.for %{{.+}} = 0 to 48 {
// CHECK:         affine.for %[[K:.+]] = 0 to 32 {
// CHECK-NEXT:      affine.for %{{.+}} = 0 to 48 {
// CHECK:         } {dist.layout = #dist.layout<[block on 0], grid = [?]>}
func.func @pinned(%tmp: memref<64x48xf64>, %b: memref<32x48xf64>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 48 {
      affine.for %k = 0 to 32 {
        %t = affine.load %tmp[%i, %j] : memref<64x48xf64>
        %y = affine.load %b[%k, %j] : memref<32x48xf64>
        %s = arith.addf %t, %y : f64
        affine.store %s, %tmp[%i, %j] : memref<64x48xf64>
      }
    }
  } {dist.layout = #dist.layout<[block on 0, block on 1], grid = [?, ?]>}
  return
}
func.func @pinned_outer(%tmp: memref<64x48xf64>, %b: memref<32x48xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 48 {
      affine.store %zero, %tmp[%i, %j] : memref<64x48xf64>
      // expected-remark @below {{interchanged with the loop at line 32 around it (distributed around it first)}}
      affine.for %k = 0 to 32 {
        %t = affine.load %tmp[%i, %j] : memref<64x48xf64>
        %y = affine.load %b[%k, %j] : memref<32x48xf64>
        %s = arith.addf %t, %y : f64
        affine.store %s, %tmp[%i, %j] : memref<64x48xf64>
      }
    }
  } {dist.layout = #dist.layout<[block on 0, replicated], grid = [?]>}
  return
}

// -----

// mvt's second product, a loop of the function's body (a unit) whose only
// op is the loop over j walking a column of A (x[i], loaded and stored,
// and A[j][i] walk consecutive elements along i; y[j] along j): marked.
// CHECK-LABEL: func.func @transposed_sums(
// CHECK:         affine.for %[[I:.+]] = 0 to 64 {
// CHECK-NEXT:      affine.for %[[J:.+]] = 0 to 48 {
// CHECK:           }
// CHECK-NEXT:    } {dist.interchange}
func.func @transposed_sums(%x: memref<64xf64>, %a: memref<48x64xf64>,
                           %y: memref<48xf64>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 48 {
      %v = affine.load %x[%i] : memref<64xf64>
      %w = affine.load %a[%j, %i] : memref<48x64xf64>
      %z = affine.load %y[%j] : memref<48xf64>
      %p = arith.mulf %w, %z : f64
      %s = arith.addf %v, %p : f64
      affine.store %s, %x[%i] : memref<64xf64>
    }
  }
  return
}

// -----

// The same loop holding more than the loop over j (the sum's start): the
// loop over i is distributed around it (two units), and the copy that
// holds the loop over j alone is marked.
// CHECK-LABEL: func.func @unit_holds_more(
// CHECK:         affine.for %[[I0:.+]] = 0 to 64 {
// CHECK-NEXT:      affine.store %{{.+}}, %{{.+}}[%[[I0]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    affine.for %[[I:.+]] = 0 to 64 {
// CHECK-NEXT:      affine.for %[[J:.+]] = 0 to 48 {
// CHECK:           }
// CHECK-NEXT:    } {dist.interchange}
func.func @unit_holds_more(%x: memref<64xf64>, %a: memref<48x64xf64>,
                           %y: memref<48xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 64 {
    affine.store %zero, %x[%i] : memref<64xf64>
    affine.for %j = 0 to 48 {
      %v = affine.load %x[%i] : memref<64xf64>
      %w = affine.load %a[%j, %i] : memref<48x64xf64>
      %z = affine.load %y[%j] : memref<48xf64>
      %p = arith.mulf %w, %z : f64
      %s = arith.addf %v, %p : f64
      affine.store %s, %x[%i] : memref<64xf64>
    }
  }
  return
}

// -----

// A unit's loop that carries a dependence itself (b[i - 1][j]): innermost,
// it would carry it there; not marked.
// CHECK-LABEL: func.func @unit_carries(
// CHECK-NOT:     dist.interchange
// CHECK:         return
func.func @unit_carries(%b: memref<48x64xf64>) {
  affine.for %i = 1 to 64 {
    affine.for %j = 0 to 48 {
      %v = affine.load %b[%j, %i - 1] : memref<48x64xf64>
      affine.store %v, %b[%j, %i] : memref<48x64xf64>
    }
  }
  return
}

// -----

// deriche's column pass: each iteration of the loop over j sets the
// scalars ym1 and ym2 (arguments no code after the region reads) before
// the loop over i, which walks a column and carries its chain through
// them. Kept in arrays indexed by j, each column's chain is its own: the
// loop over j is distributed (the settings first) and the loop holding
// the loop over i alone is marked.
// CHECK-LABEL: func.func @column_chain(
// CHECK:         %[[N:.+]] = affine.max #{{.+}}()
// CHECK-NEXT:    %[[YM1:.+]] = memref.alloc(%[[N]]) : memref<?xf64>
// CHECK-NEXT:    %[[YM2:.+]] = memref.alloc(%[[N]]) : memref<?xf64>
// CHECK-NEXT:    affine.for %[[J0:.+]] = 0 to 48 {
// CHECK-NEXT:      affine.store %{{.+}}, %[[YM1]][%[[J0]]]
// CHECK-NEXT:      affine.store %{{.+}}, %[[YM2]][%[[J0]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    affine.for %[[J:.+]] = 0 to 48 {
// CHECK-NEXT:      affine.for %[[I:.+]] = 0 to 64 {
// CHECK:             affine.load %[[YM1]][%[[J]]]
// CHECK:             affine.load %[[YM2]][%[[J]]]
// CHECK:             affine.store %{{.+}}, %[[YM2]][%[[J]]]
// CHECK:             affine.store %{{.+}}, %[[YM1]][%[[J]]]
// CHECK-NEXT:      }
// CHECK-NEXT:    } {dist.interchange}
// CHECK-NEXT:    memref.dealloc %[[YM1]]
// CHECK-NEXT:    memref.dealloc %[[YM2]]
func.func @column_chain(%y: memref<64x48xf64>, %x: memref<64x48xf64>,
                        %ym1: memref<f64> {weft.region_only},
                        %ym2: memref<f64> {weft.region_only}) {
  %zero = arith.constant 0.0 : f64
  %half = arith.constant 0.5 : f64
  // expected-remark @below {{kept argument 2, argument 3 in arrays, one element per iteration of the loop at line 33, which sets them first: the loop in it may move around it}}
  affine.for %j = 0 to 48 {
    affine.store %zero, %ym1[] : memref<f64>
    affine.store %zero, %ym2[] : memref<f64>
    affine.for %i = 0 to 64 {
      %v = affine.load %x[%i, %j] : memref<64x48xf64>
      %a = affine.load %ym1[] : memref<f64>
      %b = affine.load %ym2[] : memref<f64>
      %s = arith.addf %a, %b : f64
      %t = arith.mulf %s, %half : f64
      %u = arith.addf %t, %v : f64
      affine.store %u, %y[%i, %j] : memref<64x48xf64>
      affine.store %a, %ym2[] : memref<f64>
      affine.store %u, %ym1[] : memref<f64>
    }
  }
  return
}

// -----

// The same with ym1 read after the region's loop before anything sets it
// (its last value counts): the scalars stay, and nothing moves.
// CHECK-LABEL: func.func @chain_read_after(
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     dist.interchange
// CHECK:         return
func.func @chain_read_after(%y: memref<64x48xf64>, %x: memref<64x48xf64>,
                            %ym1: memref<f64> {weft.region_only},
                            %out: memref<48xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %j = 0 to 48 {
    affine.store %zero, %ym1[] : memref<f64>
    affine.for %i = 0 to 64 {
      %v = affine.load %x[%i, %j] : memref<64x48xf64>
      %a = affine.load %ym1[] : memref<f64>
      %u = arith.addf %a, %v : f64
      affine.store %u, %y[%i, %j] : memref<64x48xf64>
      affine.store %u, %ym1[] : memref<f64>
    }
  }
  %last = affine.load %ym1[] : memref<f64>
  affine.store %last, %out[0] : memref<48xf64>
  return
}

// -----

// A scalar the caller reads after the region (no weft.region_only) keeps
// its last value: it stays, and nothing moves.
// CHECK-LABEL: func.func @chain_live_out(
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     dist.interchange
// CHECK:         return
func.func @chain_live_out(%y: memref<64x48xf64>, %x: memref<64x48xf64>,
                          %ym1: memref<f64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %j = 0 to 48 {
    affine.store %zero, %ym1[] : memref<f64>
    affine.for %i = 0 to 64 {
      %v = affine.load %x[%i, %j] : memref<64x48xf64>
      %a = affine.load %ym1[] : memref<f64>
      %u = arith.addf %a, %v : f64
      affine.store %u, %y[%i, %j] : memref<64x48xf64>
      affine.store %u, %ym1[] : memref<f64>
    }
  }
  return
}

// -----

// Expanded, the loop over j still carries a dependence through y (row i
// of column j reads column j - 1): the interchange is illegal, and the
// scalar comes back as it was.
// CHECK-LABEL: func.func @chain_across_columns(
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     dist.interchange
// CHECK:         affine.store %{{.+}}, %{{.+}}[] : memref<f64>
// CHECK:         affine.load %{{.+}}[] : memref<f64>
func.func @chain_across_columns(%y: memref<64x48xf64>,
                                %ym1: memref<f64> {weft.region_only}) {
  %zero = arith.constant 0.0 : f64
  affine.for %j = 1 to 48 {
    affine.store %zero, %ym1[] : memref<f64>
    affine.for %i = 0 to 64 {
      %v = affine.load %y[%i, %j - 1] : memref<64x48xf64>
      %a = affine.load %ym1[] : memref<f64>
      %u = arith.addf %a, %v : f64
      affine.store %u, %y[%i, %j] : memref<64x48xf64>
      affine.store %u, %ym1[] : memref<f64>
    }
  }
  return
}

// -----

// A scalar each iteration sets and the loop over i only reads: distributed
// as it is, the settings of every column would run before the first read;
// kept in an array indexed by j, the loop over j is distributed and the
// copy holding the loop over i marked.
// CHECK-LABEL: func.func @set_then_read(
// CHECK:         %[[S:.+]] = memref.alloc(%{{.+}}) : memref<?xf64>
// CHECK-NEXT:    affine.for %[[J0:.+]] = 0 to 48 {
// CHECK-NEXT:      affine.load
// CHECK-NEXT:      affine.store %{{.+}}, %[[S]][%[[J0]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    affine.for %[[J:.+]] = 0 to 48 {
// CHECK-NEXT:      affine.for %{{.+}} = 0 to 64 {
// CHECK-NEXT:        affine.load %[[S]][%[[J]]]
// CHECK:           }
// CHECK-NEXT:    } {dist.interchange}
// CHECK-NEXT:    memref.dealloc %[[S]]
func.func @set_then_read(%y: memref<64x48xf64>, %x: memref<64x48xf64>,
                         %s: memref<f64> {weft.region_only}) {
  // expected-remark @below {{kept argument 2 in arrays, one element per iteration of the loop at line 22, which sets them first: the loop in it may move around it}}
  affine.for %j = 0 to 48 {
    %v = affine.load %x[0, %j] : memref<64x48xf64>
    affine.store %v, %s[] : memref<f64>
    affine.for %i = 0 to 64 {
      %a = affine.load %s[] : memref<f64>
      %w = affine.load %x[%i, %j] : memref<64x48xf64>
      %u = arith.mulf %a, %w : f64
      affine.store %u, %y[%i, %j] : memref<64x48xf64>
    }
  }
  return
}

// -----

// gramschmidt's projections: a unit's loop holding two loops that walk
// column j. It is distributed into the zeroing and a loop for each loop
// over i, and both copies holding a loop over i are marked.
// CHECK-LABEL: func.func @unit_holds_two_loops(
// CHECK:         affine.for %[[J0:.+]] = 0 to 48 {
// CHECK-NEXT:      affine.store %{{.+}}, %{{.+}}[%[[J0]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    affine.for %{{.+}} = 0 to 48 {
// CHECK-NEXT:      affine.for %{{.+}} = 0 to 64 {
// CHECK:             arith.addf
// CHECK:           }
// CHECK-NEXT:    } {dist.interchange}
// CHECK-NEXT:    affine.for %{{.+}} = 0 to 48 {
// CHECK-NEXT:      affine.for %{{.+}} = 0 to 64 {
// CHECK:             arith.subf
// CHECK:           }
// CHECK-NEXT:    } {dist.interchange}
// CHECK-NEXT:    return
func.func @unit_holds_two_loops(%r: memref<48xf64>, %q: memref<64xf64>,
                                %g: memref<64x48xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %j = 0 to 48 {
    affine.store %zero, %r[%j] : memref<48xf64>
    affine.for %i = 0 to 64 {
      %a = affine.load %r[%j] : memref<48xf64>
      %b = affine.load %q[%i] : memref<64xf64>
      %c = affine.load %g[%i, %j] : memref<64x48xf64>
      %p = arith.mulf %b, %c : f64
      %s = arith.addf %a, %p : f64
      affine.store %s, %r[%j] : memref<48xf64>
    }
    affine.for %i = 0 to 64 {
      %a = affine.load %g[%i, %j] : memref<64x48xf64>
      %b = affine.load %q[%i] : memref<64xf64>
      %c = affine.load %r[%j] : memref<48xf64>
      %p = arith.mulf %b, %c : f64
      %s = arith.subf %a, %p : f64
      affine.store %s, %g[%i, %j] : memref<64x48xf64>
    }
  }
  return
}

// -----

// correlation's means: ops after the sum (the division) go to a copy of
// the loop of their own, as the zeroing before it does.
// CHECK-LABEL: func.func @unit_ops_after(
// CHECK:         affine.for %{{.+}} = 0 to 48 {
// CHECK-NEXT:      affine.store
// CHECK-NEXT:    }
// CHECK-NEXT:    affine.for %{{.+}} = 0 to 48 {
// CHECK-NEXT:      affine.for %{{.+}} = 0 to 64 {
// CHECK:           }
// CHECK-NEXT:    } {dist.interchange}
// CHECK-NEXT:    affine.for %{{.+}} = 0 to 48 {
// CHECK-NEXT:      affine.load
// CHECK-NEXT:      arith.divf
// CHECK-NEXT:      affine.store
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @unit_ops_after(%m: memref<48xf64>, %d: memref<64x48xf64>) {
  %zero = arith.constant 0.0 : f64
  %n = arith.constant 64.0 : f64
  affine.for %j = 0 to 48 {
    affine.store %zero, %m[%j] : memref<48xf64>
    affine.for %i = 0 to 64 {
      %a = affine.load %m[%j] : memref<48xf64>
      %b = affine.load %d[%i, %j] : memref<64x48xf64>
      %s = arith.addf %a, %b : f64
      affine.store %s, %m[%j] : memref<48xf64>
    }
    %t = affine.load %m[%j] : memref<48xf64>
    %u = arith.divf %t, %n : f64
    affine.store %u, %m[%j] : memref<48xf64>
  }
  return
}

// -----

// ludcmp's rows of U, inside the loop over i that carries the
// factorisation: w, set first in each iteration of the loop over j (which
// starts at i) and stored after the sum, becomes an array made and freed
// around that loop in each iteration of i, indexed by j - i; the loop over
// j is distributed (setting, sum, store) and the sum's copy marked.
// CHECK-LABEL: func.func @scalar_in_outer_loop(
// CHECK:         affine.for %[[I:.+]] = 0 to 64 {
// CHECK-NEXT:      %[[N:.+]] = affine.max #{{.+}}(%[[I]])
// CHECK-NEXT:      %[[W:.+]] = memref.alloc(%[[N]]) : memref<?xf64>
// CHECK-NEXT:      affine.for %[[J0:.+]] = #{{.+}}(%[[I]]) to 64 {
// CHECK-NEXT:        affine.load
// CHECK-NEXT:        affine.store %{{.+}}, %[[W]][%[[J0]] - %[[I]]]
// CHECK-NEXT:      }
// CHECK-NEXT:      affine.for %[[J:.+]] = #{{.+}}(%[[I]]) to 64 {
// CHECK-NEXT:        affine.for %{{.+}} = 0 to #{{.+}}(%[[I]]) {
// CHECK-NEXT:          affine.load %[[W]][%[[J]] - %[[I]]]
// CHECK:             }
// CHECK-NEXT:      } {dist.interchange}
// CHECK-NEXT:      affine.for %[[J1:.+]] = #{{.+}}(%[[I]]) to 64 {
// CHECK-NEXT:        affine.load %[[W]][%[[J1]] - %[[I]]]
// CHECK-NEXT:        affine.store
// CHECK-NEXT:      }
// CHECK-NEXT:      memref.dealloc %[[W]]
// CHECK-NEXT:    }
func.func @scalar_in_outer_loop(%u: memref<64x64xf64>,
                                %w: memref<f64> {weft.region_only}) {
  affine.for %i = 0 to 64 {
    // expected-remark @below {{kept argument 1 in arrays, one element per iteration of the loop at line 31, which sets them first: the loop in it may move around it}}
    affine.for %j = affine_map<(d0) -> (d0)>(%i) to 64 {
      %v = affine.load %u[%i, %j] : memref<64x64xf64>
      affine.store %v, %w[] : memref<f64>
      affine.for %k = 0 to affine_map<(d0) -> (d0)>(%i) {
        %a = affine.load %w[] : memref<f64>
        %b = affine.load %u[%i, %k] : memref<64x64xf64>
        %c = affine.load %u[%k, %j] : memref<64x64xf64>
        %p = arith.mulf %b, %c : f64
        %s = arith.subf %a, %p : f64
        affine.store %s, %w[] : memref<f64>
      }
      %r = affine.load %w[] : memref<f64>
      affine.store %r, %u[%i, %j] : memref<64x64xf64>
    }
  }
  return
}

// -----

// The same with w read at the start of each iteration of the loop over i,
// before anything sets it: the last value the loop over j left counts, so
// w stays a scalar, and the sum through it stays inside the loop over j.
// CHECK-LABEL: func.func @scalar_read_next_iteration(
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     dist.interchange
// CHECK:         return
func.func @scalar_read_next_iteration(%u: memref<64x64xf64>,
                                      %out: memref<64xf64>,
                                      %w: memref<f64> {weft.region_only}) {
  affine.for %i = 0 to 64 {
    %last = affine.load %w[] : memref<f64>
    affine.store %last, %out[%i] : memref<64xf64>
    affine.for %j = affine_map<(d0) -> (d0)>(%i) to 64 {
      %v = affine.load %u[%i, %j] : memref<64x64xf64>
      affine.store %v, %w[] : memref<f64>
      affine.for %k = 0 to affine_map<(d0) -> (d0)>(%i) {
        %a = affine.load %w[] : memref<f64>
        %b = affine.load %u[%i, %k] : memref<64x64xf64>
        %c = affine.load %u[%k, %j] : memref<64x64xf64>
        %p = arith.mulf %b, %c : f64
        %s = arith.subf %a, %p : f64
        affine.store %s, %w[] : memref<f64>
      }
      %r = affine.load %w[] : memref<f64>
      affine.store %r, %u[%i, %j] : memref<64x64xf64>
    }
  }
  return
}

// -----

// deriche's row pass: the chain through ym1 walks a row already. Kept in
// an array indexed by i, ym1 would walk consecutive elements along i, but
// y and x would then jump along the inner loop: nothing moves, and ym1
// stays a scalar.
// CHECK-LABEL: func.func @row_chain_stays(
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     dist.interchange
// CHECK:         return
func.func @row_chain_stays(%y: memref<64x48xf64>, %x: memref<64x48xf64>,
                           %ym1: memref<f64> {weft.region_only}) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 64 {
    affine.store %zero, %ym1[] : memref<f64>
    affine.for %j = 0 to 48 {
      %v = affine.load %x[%i, %j] : memref<64x48xf64>
      %a = affine.load %ym1[] : memref<f64>
      %u = arith.addf %a, %v : f64
      affine.store %u, %y[%i, %j] : memref<64x48xf64>
      affine.store %u, %ym1[] : memref<f64>
    }
  }
  return
}
