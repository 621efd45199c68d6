// --target=mpi-cuda moves across the bus only what the flow needs (CPU
// emulation of CUDA, bytes counted by the runtime under WEFT_STATS):
// jacobi-2d at N = 23, TSTEPS = 5 on 2 ranks, each owning a block of the
// N - 2 interior rows (b0 + b1 = N - 2), all interior columns.
// Host to device, in elements:
// * step 1, first nest: the box of A it reads, its block and a row on each
//   side, whole rows: sum (b + 2) * N = N * (N + 2);
// * step 1, second nest: the same box of B less the block the first nest
//   wrote on the device: N * (N + 2) - (N - 2)^2;
// * each later step: the halo row of A and of B each rank received, N - 2
//   elements each: 2 ranks * 2 * (N - 2) per step.
// Device to host: each step, the boundary row of B and of A each rank
// sends (2 * 2 * (N - 2)), then once, what the device wrote and has not
// sent since (both blocks, less the rows sent in the last step), for the
// gather to rank 0 and the region's end: 2 * (N - 2)^2 - 4 * (N - 2).
// Moving whole blocks at every step would send T * 2 * N * (N + 2)
// elements in.
// REQUIRES: mpicc, mpirun, g++
// RUN: WEFT_DEFINES="-DN=23 -DTSTEPS=5" WEFT_TARGET=mpi-cuda bash %S/../run-mpi.sh %S/../seq/jacobi-2d.c %t 2
// RUN: env WEFT_STATS=1 WEFT_CUDA_AWARE_MPI=0 OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
// RUN:   OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none \
// RUN:   mpirun --oversubscribe -np 2 %t.mpi 2>%t.stats >/dev/null
// RUN: N=23; T=5; \
// RUN:   echo "CHECK: host to device $(( 8 * (2 * N * (N + 2) - (N - 2) * (N - 2) + 4 * (T - 1) * (N - 2)) )) bytes in {{[0-9]+}} copies, device to host $(( 8 * (4 * T * (N - 2) + 2 * (N - 2) * (N - 2) - 4 * (N - 2)) )) bytes in {{[0-9]+}} copies" >%t.expected
// RUN: FileCheck %t.expected --input-file %t.stats
