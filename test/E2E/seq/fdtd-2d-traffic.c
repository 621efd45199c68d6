// --target=cuda with the cost model's choice moves across the bus only what
// the flow needs (CPU emulation of CUDA, bytes counted by the runtime under
// WEFT_STATS): fdtd-2d.c's time step, sizes unknown at compile time (taken
// as 4096), whose four nests gpu-select-nests places together. Alone, the
// nest that writes row 0 of ey would stay on the host, and ey would move in
// and out around each launch of the sweeps that use it, every step. Placed
// together, all four run on the device and each array moves once:
// * host to device, the boxes of the flow-in elements: fict (TMAX), ey's
//   rows 1..NX-1 (row 0 is written before it is read), ex and hz whole
//   (ex's column 0 and hz's last row and column are read, never written),
//   in 4 copies;
// * device to host, the boxes of what the region writes: ey whole, ex's
//   columns 1..NY-1, hz's first NX-1 rows and NY-1 columns, in 3 copies.
// The same with 3 times as many steps: only fict grows.
// REQUIRES: g++
// RUN: WEFT_TARGET=cuda WEFT_GPU_CHOICE=cost bash %S/../run-seq.sh %S/fdtd-2d.c %t
// RUN: env WEFT_STATS=1 OMP_NUM_THREADS=1 %t.weft.exe 2>%t.stats >/dev/null
// RUN: WEFT_TARGET=cuda WEFT_GPU_CHOICE=cost bash %S/../run-seq.sh %S/fdtd-2d.c %t.long -DTMAX=33
// RUN: env WEFT_STATS=1 OMP_NUM_THREADS=1 %t.long.weft.exe 2>%t.long.stats >/dev/null
// RUN: NX=29; NY=37; for T in 11 33; do \
// RUN:   echo "CHECK: host to device $(( 8 * (T + (NX - 1) * NY + 2 * NX * NY) )) bytes in 4 copies, device to host $(( 8 * (NX * NY + NX * (NY - 1) + (NX - 1) * (NY - 1)) )) bytes in 3 copies" >%t.$T.expected; done
// RUN: FileCheck %t.11.expected --input-file %t.stats
// RUN: FileCheck %t.33.expected --input-file %t.long.stats
