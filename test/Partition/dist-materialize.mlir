// RUN: weft-opt %s --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(dist-partition,func.func(dist-materialize{report=1}),canonicalize)' \
// RUN:   | FileCheck %s
// RUN: weft-opt %s \
// RUN:   --pass-pipeline='builtin.module(dist-partition,func.func(dist-materialize{live-out-everywhere=1}))' \
// RUN:   | FileCheck %s --check-prefix=EVERYWHERE

// Jacobi 1-D: each sweep runs the rank's block. Right after a sweep, each
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
// After an earlier region, rank 0 broadcasts what is read before written.
// CHECK:      %[[STALE:.*]] = dist.replicas_stale
// CHECK:      scf.if %[[STALE]]
// CHECK:        dist.message_buffer 0
// CHECK:        dist.broadcast %{{.*}}[0] [%{{.*}}] root
// CHECK:      affine.for
// The first sweep runs the rank's block, then sends to every other rank,
// then receives, waits and unpacks.
// CHECK:        affine.for %{{.*}} = max #[[LB]]()[%[[LO]]] to min #[[UB]]()[%arg3, %[[HI]]]
// CHECK:        scf.for %[[PEER:.*]] = %{{.*}} to %[[NP]]
// CHECK:          arith.cmpi ne, %[[PEER]], %[[ME]]
// CHECK:          %[[SBUF:.*]] = dist.message_buffer 0, %[[PEER]]
// CHECK:          memref.load %arg1
// CHECK:          memref.store %{{.*}}, %[[SBUF]]
// CHECK:          dist.isend %[[SBUF]][%{{.*}}] to %[[PEER]] tag 0
// CHECK:        scf.for
// CHECK:          dist.message_buffer 1
// CHECK:          dist.irecv
// CHECK:        dist.wait_all
// CHECK:        scf.for
// CHECK:          %[[RBUF:.*]] = dist.message_buffer 1, %{{.*}}, %c0
// CHECK:          memref.load %[[RBUF]]
// CHECK:          memref.store %{{.*}}, %arg1
// The second sweep, then its messages (halos of A and, at the end, A).
// CHECK:        affine.for %{{.*}} = max #[[LB]]()[%[[LO]]] to min #[[UB]]()[%arg3, %[[HI]]]
// CHECK:        dist.isend
// CHECK:        dist.irecv
// CHECK:        dist.wait_all
// CHECK:          memref.store %{{.*}}, %arg0
// Only rank 0 holds every live-out value afterwards.
// CHECK:      dist.set_replicas_stale
// CHECK-NEXT: return

// EVERYWHERE-LABEL: func.func @jacobi
// EVERYWHERE-NOT: dist.set_replicas_stale
// EVERYWHERE: return
