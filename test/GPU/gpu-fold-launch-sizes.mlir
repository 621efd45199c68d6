// RUN: weft-opt %s --convert-parallel-loops-to-gpu --gpu-fold-launch-sizes | FileCheck %s
// RUN: weft-opt %s --convert-parallel-loops-to-gpu | FileCheck %s --check-prefix=UNFOLDED

// gpu-map-loops' form: a loop over ceil(n / 256) blocks from 0 by 1, around
// one over 256 threads. convert-parallel-loops-to-gpu sizes the launch as
// `(ub - 0) ceildiv 1` of each (affine.apply with the bound and step as
// symbols); folded, the launch takes the block count itself and 256. An
// affine.apply in the kernel's body is left alone.
// CHECK-LABEL: func.func @blocks
// CHECK-SAME: (%[[A:.*]]: memref<?xf64>, %[[N:.*]]: index)
// CHECK: %[[BLOCKS:.*]] = arith.ceildivsi %[[N]], %c256
// CHECK-NOT: affine.apply
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[BLOCKS]], %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c256{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
// CHECK: affine.apply #{{.*}}(%{{.*}})[%{{.*}}]
// UNFOLDED: affine.apply #{{.*}}(%{{.*}})[%c0{{.*}}, %c1{{.*}}]
func.func @blocks(%a: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %blocks = arith.ceildivsi %n, %c256 : index
  scf.parallel (%b) = (%c0) to (%blocks) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c256) step (%c1) {
      %i = affine.apply affine_map<(d0)[s0] -> (d0 * 256 + s0)>(%b)[%t]
      %inside = arith.cmpi slt, %i, %n : index
      scf.if %inside {
        %zero = arith.constant 0.0 : f64
        memref.store %zero, %a[%i] : memref<?xf64>
      }
      scf.reduce
    } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}
