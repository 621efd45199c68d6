// RUN: weft-opt %s --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(dist-partition,func.func(dist-materialize{report=1}),canonicalize)' \
// RUN:   | FileCheck %s
// RUN: weft-opt %s \
// RUN:   --pass-pipeline='builtin.module(dist-partition,func.func(dist-materialize{live-out-everywhere=1}))' \
// RUN:   | FileCheck %s --check-prefix=EVERYWHERE

// Jacobi 1-D: each sweep runs the rank's block; before the first sweep of
// a step each rank gets exactly one element from each neighbour block that
// the second sweep of the previous step wrote (ISL's exact flow sets); the
// second sweep reads only what its own rank wrote, so nothing is sent
// before it. After the region the owned values go to rank 0.

// expected-remark @below {{read from before the region (from rank 0 when other ranks' copies are outdated): value: [p0, p1] -> { M0[i0] : p0 > 0 and 0 <= i0 < p1 and (i0 <= -3 + p1 or i0 >= 2) };}}
// expected-remark @below {{live after the region: value: [slo0, shi0, p0, p1] -> { M0[i0] : p0 > 0 and i0 >= slo0 and 0 < i0 <= -2 + p1 and i0 < shi0 }; value: [slo0, shi0, p0, p1] -> { M1[i0] : p0 > 0 and i0 >= slo0 and 0 < i0 <= -2 + p1 and i0 < shi0 };}}
func.func @jacobi(%a: memref<?xf64>, %b: memref<?xf64>, %t: index, %n: index) {
  affine.for %s = 0 to %t {
    // expected-remark @below {{received before this unit: value: [rlo, rhi, slo0, shi0, e0, p0, p1] -> { M0[rhi] : slo0 = rhi and rhi > rlo and rhi >= 2 and shi0 > rhi and e0 > 0 and p0 > e0 and p1 >= 2 + rhi; M0[-1 + rlo] : shi0 = rlo and rlo >= 2 and rhi > rlo and slo0 < rlo and e0 > 0 and p0 > e0 and p1 >= 2 + rlo };}}
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %x = affine.load %a[%i - 1] : memref<?xf64>
      %y = affine.load %a[%i + 1] : memref<?xf64>
      %z = arith.addf %x, %y : f64
      affine.store %z, %b[%i] : memref<?xf64>
    }
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
// Before the first sweep: sends to every other rank, then receives.
// CHECK:        scf.for %[[PEER:.*]] = %{{.*}} to %[[NP]]
// CHECK:          arith.cmpi ne, %[[PEER]], %[[ME]]
// CHECK:          %[[SBUF:.*]] = dist.message_buffer 0, %[[PEER]]
// CHECK:          memref.load %arg0
// CHECK:          memref.store %{{.*}}, %[[SBUF]]
// CHECK:          dist.isend %[[SBUF]][%{{.*}}] to %[[PEER]] tag 0
// CHECK:        scf.for
// CHECK:          dist.message_buffer 1
// CHECK:          dist.irecv
// CHECK:        dist.wait_all
// CHECK:        scf.for
// CHECK:          %[[RBUF:.*]] = dist.message_buffer 1, %{{.*}}, %c0
// CHECK:          memref.load %[[RBUF]]
// CHECK:          memref.store %{{.*}}, %arg0
// The sweeps run the rank's block only; nothing is sent between them.
// CHECK:        affine.for %{{.*}} = max #[[LB]]()[%[[LO]]] to min #[[UB]]()[%arg3, %[[HI]]]
// CHECK-NOT:    dist.isend
// CHECK:        affine.for %{{.*}} = max #[[LB]]()
// Live-out values: every rank but 0 sends, rank 0 receives and unpacks.
// CHECK:      dist.isend %{{.*}} to %c0
// CHECK:      dist.irecv
// CHECK:      dist.wait_all
// CHECK:      dist.set_replicas_stale
// CHECK-NEXT: return

// EVERYWHERE-LABEL: func.func @jacobi
// EVERYWHERE-NOT: dist.set_replicas_stale
// EVERYWHERE: return
