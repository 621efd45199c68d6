// RUN: weft-opt %s --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(dist-partition{nominal-size=1000000},func.func(dist-materialize{report=1}),canonicalize)' \
// RUN:   | FileCheck %s
// RUN: weft-opt %s \
// RUN:   --pass-pipeline='builtin.module(dist-partition{nominal-size=1000000},func.func(dist-materialize{live-out-everywhere=1}))' \
// RUN:   | FileCheck %s --check-prefix=EVERYWHERE

// Jacobi 1-D, at a nominal n of 10^6 (at the default 4096 both arrays
// stay in cache and the partitioner keeps the sweeps replicated): each
// sweep runs the rank's block. Right after a sweep, each
// rank sends what it wrote to the ranks that read it later (ISL's exact
// flow sets): after the second sweep of a step, one element of A to each
// neighbour block (needed by the next step), and at the last step the
// owned values of A to rank 0 (rq = 0); the first sweep's B is read only by
// its own rank, so only the last step's B goes, to rank 0.

// expected-remark @below {{read from before the region (from rank 0 when other ranks' copies are outdated): value: [p0, p1] -> { M0[i0] : p0 > 0 and 0 <= i0 < p1 and (i0 <= -3 + p1 or i0 >= 2) };}}
func.func @jacobi(%a: memref<?xf64>, %b: memref<?xf64>, %t: index, %n: index) {
  affine.for %s = 0 to %t {
    // expected-remark @below {{sent after this unit (what other ranks read later, or keep after the region): value: [rlo0, rhi0, slo0, shi0, e0, rq, p0, p1] -> { M1[i0] : rq = 0 and p0 = 1 + e0 and e0 >= 0 and i0 >= slo0 and 0 < i0 <= -2 + p1 and i0 < shi0 and (shi0 <= rlo0 or slo0 >= rhi0) };}}
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %x = affine.load %a[%i - 1] : memref<?xf64>
      %y = affine.load %a[%i + 1] : memref<?xf64>
      %z = arith.addf %x, %y : f64
      affine.store %z, %b[%i] : memref<?xf64>
    }
    // expected-remark @below {{sent after this unit (what other ranks read later, or keep after the region): value: [rlo0, rhi0, slo0, shi0, e0, rq, p0, p1] -> { M0[i0] : rq = 0 and p0 = 1 + e0 and e0 >= 0 and i0 >= slo0 and 0 < i0 <= -2 + p1 and i0 < shi0 and (shi0 <= rlo0 or slo0 >= rhi0); M0[-1 + rlo0] : shi0 = rlo0 and rlo0 >= 2 and rhi0 > rlo0 and slo0 < rlo0 and e0 >= 0 and p0 >= 2 + e0 and p1 >= 2 + rlo0; M0[rhi0] : slo0 = rhi0 and rhi0 > rlo0 and rhi0 >= 2 and shi0 > rhi0 and e0 >= 0 and p0 >= 2 + e0 and p1 >= 2 + rhi0 };}}
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %x = affine.load %b[%i] : memref<?xf64>
      affine.store %x, %a[%i] : memref<?xf64>
    }
  }
  return
}

// CHECK-DAG: #[[LB:.*]] = affine_map<()[s0] -> (1, s0)>
// CHECK-DAG: #[[UB:.*]] = affine_map<()[s0, s1] -> (s0 - 1, s1)>
// CHECK-LABEL: func.func @jacobi
// CHECK:      %[[ME:.*]] = dist.rank
// CHECK:      %[[NP:.*]] = dist.num_ranks
// CHECK:      %[[LO:.*]], %[[HI:.*]], %{{.*}} = dist.local_bounds %{{.*}} to %{{.*}} at %[[ME]] of %[[NP]] by #dist.dim<block on 0>
// After an earlier region, rank 0 broadcasts what is read before written:
// the set's elements, at the values of its parameters.
// CHECK:      %[[STALE:.*]] = dist.replicas_stale
// CHECK:      scf.if %[[STALE]]
// CHECK:        dist.broadcast %arg0 elements "[p0, p1] -> { M0[i0] : p0 > 0 and 0 <= i0 < p1 and (i0 <= -3 + p1 or i0 >= 2) }" (%arg2, %arg3) root
// CHECK:      affine.for %[[T:.*]] = 0
// The first sweep runs the rank's block, then sends every other rank the
// set's elements with this rank as the sender (its block: slo0, shi0) and
// receives them with this rank as the receiver (rlo0, rhi0, rq), then waits.
// CHECK:        affine.for %{{.*}} = max #[[LB]]()[%[[LO]]] to min #[[UB]]()[%arg3, %[[HI]]]
// CHECK:        scf.for %[[PEER:.*]] = %{{.*}} to %[[NP]]
// CHECK:          arith.cmpi ne, %[[PEER]], %[[ME]]
// CHECK:          %[[PLO:.*]], %[[PHI:.*]], %{{.*}} = dist.local_bounds %{{.*}} to %{{.*}} at %[[PEER]] of %[[NP]]
// CHECK:          dist.isend %arg1 elements "[rlo0, rhi0, slo0, shi0, e0, rq, p0, p1] -> { M1[i0] : {{.*}} }" (%[[PLO]], %[[PHI]], %[[LO]], %[[HI]], %[[T]], %[[PEER]], %arg2, %arg3) to %[[PEER]] tag 0
// CHECK:          dist.irecv %arg1 elements "[rlo0, rhi0, slo0, shi0, e0, rq, p0, p1] -> { M1[i0] : {{.*}} }" (%[[LO]], %[[HI]], %[[PLO]], %[[PHI]], %[[T]], %[[ME]], %arg2, %arg3) from %[[PEER]] tag 0
// CHECK:        dist.wait_all
// The second sweep, then its messages (halos of A and, at the end, A).
// CHECK:        affine.for %{{.*}} = max #[[LB]]()[%[[LO]]] to min #[[UB]]()[%arg3, %[[HI]]]
// CHECK:        dist.isend %arg0 elements "{{.*}} M0[-1 + rlo0] : {{.*}}"
// CHECK:        dist.irecv %arg0
// CHECK:        dist.wait_all
// Only rank 0 holds every live-out value afterwards.
// CHECK:      dist.set_replicas_stale
// CHECK-NEXT: return

// EVERYWHERE-LABEL: func.func @jacobi
// EVERYWHERE-NOT: dist.set_replicas_stale
// EVERYWHERE: return
