// --target=mpi-cuda messages of arrays the kernels keep on the device
// (runtime/cuda/hpc/weft_cuda.h, "Messages gathered and scattered on the
// device"), through the CPU emulation of CUDA:
// * grid-2d.c's nests split over 2-D grids of ranks (column halos: many
//   runs of one element) print what the sequential program prints on 4 and
//   6 ranks with and without CUDA-aware MPI (WEFT_CUDA_AWARE_MPI), within
//   rounding (the threads of a row of s[i] += ... combine their sums), and
//   some messages are gathered or scattered on the device;
// * with CUDA-aware MPI the halos of jacobi-2d never cross the bus: the
//   bytes each way are the same for 5 and 9 time steps; without it, 4 more
//   steps move 4 * 2 ranks * 2 arrays * (N - 2) elements more each way.
// REQUIRES: mpicc, mpirun, g++
// RUN: WEFT_RTOL=1e-12 WEFT_CUDA_AWARE_MPI=0 WEFT_TARGET=mpi-cuda bash %S/../run-mpi.sh %S/../mpi/grid-2d.c %t.grid 4 6
// RUN: WEFT_RTOL=1e-12 WEFT_CUDA_AWARE_MPI=1 WEFT_TARGET=mpi-cuda bash %S/../run-mpi.sh %S/../mpi/grid-2d.c %t.grid 4 6
// RUN: env WEFT_STATS=1 WEFT_CUDA_AWARE_MPI=0 OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
// RUN:   mpirun --oversubscribe -np 4 %t.grid.mpi 2>&1 >/dev/null | FileCheck %s --check-prefix=GRID
// RUN: env WEFT_STATS=1 WEFT_CUDA_AWARE_MPI=1 OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
// RUN:   mpirun --oversubscribe -np 4 %t.grid.mpi 2>&1 >/dev/null | FileCheck %s --check-prefix=GRID-AWARE
// GRID: weft: {{[1-9][0-9]*}} messages gathered or scattered on the device{{$}}
// GRID-AWARE: weft: {{[1-9][0-9]*}} messages gathered or scattered on the device (CUDA-aware MPI)
//
// RUN: WEFT_DEFINES="-DN=23 -DTSTEPS=5" WEFT_TARGET=mpi-cuda bash %S/../run-mpi.sh %S/../seq/jacobi-2d.c %t.t5 2
// RUN: WEFT_DEFINES="-DN=23 -DTSTEPS=9" WEFT_TARGET=mpi-cuda bash %S/../run-mpi.sh %S/../seq/jacobi-2d.c %t.t9 2
// RUN: for t in t5 t9; do for aware in 0 1; do \
// RUN:   env WEFT_STATS=1 WEFT_CUDA_AWARE_MPI=$aware OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
// RUN:     mpirun --oversubscribe -np 2 %t.$t.mpi 2>&1 >/dev/null | grep 'host to device' >%t.$t.$aware; done; done
// RUN: cmp %t.t5.1 %t.t9.1
// RUN: N=23; \
// RUN:   set -- $(sed 's/[^0-9 ]//g' %t.t5.0) $(sed 's/[^0-9 ]//g' %t.t9.0); \
// RUN:   test $(( $5 - $1 )) -eq $(( 8 * 4 * 2 * 2 * (N - 2) )) && test $(( $7 - $3 )) -eq $(( 8 * 4 * 2 * 2 * (N - 2) ))
