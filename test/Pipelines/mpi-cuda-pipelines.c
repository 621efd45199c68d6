// weft-mpi-kernels-pipeline and weft-mpi-cuda-pipeline (include/weft/
// Pipelines/Pipelines.h) are what `weft compile --target=mpi-cuda` runs:
// through weft-opt they print the same kernels and host functions as the
// driver. n is 10^6 (--size): at the nominal 4096 the smoothing stays in
// one core's cache and the partitioner keeps it on every rank.
//
// RUN: weft compile --target=seq --emit=mlir --mlir-print-debuginfo %s -o %t.mlir
// RUN: weft compile --target=mpi-cuda --gpu-choice=always --size=n=1000000 %s -o %t.cu
// RUN: weft-opt %t.mlir --weft-mpi-cuda-pipeline='gpu-choice=always size=n=1000000' --mlir-print-debuginfo --mlir-print-op-generic | weft-translate --emit-c > %t.opt.cu
// RUN: sed -n '/^static .*weft_smooth_scop/,/^}/p' %t.cu | sed 's/at line [0-9]*/at line N/' > %t.functions
// RUN: sed -n '/^static .*weft_smooth_scop/,/^}/p' %t.opt.cu | sed 's/at line [0-9]*/at line N/' | diff %t.functions -
// RUN: FileCheck %s --check-prefix=CUDA < %t.functions
//
// weft-mpi-kernels-pipeline is what --target=mpi-cuda --emit=mlir prints.
// RUN: weft compile --target=mpi-cuda --gpu-choice=always --size=n=1000000 --emit=mlir %s -o %t.kernels.mlir
// RUN: weft-opt %t.mlir --weft-mpi-kernels-pipeline='gpu-choice=always size=n=1000000' | FileCheck %s --check-prefix=KERNELS
// RUN: FileCheck %s --check-prefix=KERNELS < %t.kernels.mlir
//
// The kernels are the subject: every nest that may run on the device does
// (gpu-choice=always); by default, the cost model keeps these small 1-D
// nests on the host (COST).
// RUN: weft-opt %t.mlir --weft-mpi-kernels-pipeline='report=1 size=n=1000000' -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COST
//
// The report option reaches the passes.
// RUN: weft-opt %t.mlir --weft-mpi-kernels-pipeline='report=1 gpu-choice=always size=n=1000000' -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REPORT

// CUDA: static __global__ void weft_smooth_scop0_distributed_kernel(
// CUDA: static __global__ void weft_smooth_scop0_distributed_kernel_0(
// CUDA: static WEFT_RT_REGION void weft_smooth_scop0_distributed(
// CUDA: WEFT_CUDA_LAUNCH(weft_smooth_scop0_distributed_kernel,
// CUDA: weft_rt_isend_elements(
// CUDA: WEFT_CUDA_LAUNCH(weft_smooth_scop0_distributed_kernel_0,
// CUDA: static void weft_smooth_scop0(
// CUDA: weft_rt_ranges_overlap(

// KERNELS: func.func @weft_smooth_scop0_distributed
// KERNELS: dist.local_bounds
// KERNELS: gpu.alloc
// KERNELS: gpu.launch_func @weft_smooth_scop0_distributed_kernel::@weft_smooth_scop0_distributed_kernel
// KERNELS: dist.isend
// KERNELS: gpu.module @weft_smooth_scop0_distributed_kernel
// KERNELS: gpu.func @weft_smooth_scop0_distributed_kernel

// COST: remark: stays on the host: predicted {{.*}} us on the CPU against {{.*}} us on the device (kernels {{.*}}, 1 launch 5 us, copies {{.*}}) (n=1000000 from --size; the first rank's block at 4 ranks)

// REPORT: remark: distributed: blocks of its iterations on each rank
// REPORT: remark: runs on the device: its iterations are the threads of a 1-D grid
// REPORT: remark: device copies:

void smooth(int steps, int n, double *a, double *b) {
  int t, i;
#pragma scop
  for (t = 0; t < steps; t++) {
    for (i = 1; i < n - 1; i++)
      b[i] = 0.25 * (a[i - 1] + 2.0 * a[i] + a[i + 1]);
    for (i = 1; i < n - 1; i++)
      a[i] = b[i];
  }
#pragma endscop
}
