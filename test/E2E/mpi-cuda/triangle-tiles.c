// --target=mpi-cuda: the triangles of ../seq/triangle-tiles.c (37 x 37 over
// k < 41), each rank's block of rows computed by kernels whose k loop is
// staged in shared-memory tiles where every row and column of the rank's
// box holds an element (syrk's j <= i, covariance's j >= i); the same
// output as the sequential program on 1, 2 and 4 ranks (CPU emulation of
// CUDA), and at 19 x 19 on 3 ranks.
// REQUIRES: mpicc, mpirun, g++
// RUN: WEFT_TARGET=mpi-cuda bash %S/../run-mpi.sh %S/../seq/triangle-tiles.c %t 1 2 4
// RUN: WEFT_TARGET=mpi-cuda WEFT_DEFINES="-DN=19 -DM=7" bash %S/../run-mpi.sh %S/../seq/triangle-tiles.c %t.odd 3
// RUN: weft compile --target=mpi-cuda --report %S/../seq/triangle-tiles.c -o %t.cu 2>&1 | FileCheck %s
// CHECK: triangle-tiles.c:45:7: remark: the loop is tiled by {{[0-9]+}} in shared memory
// CHECK: triangle-tiles.c:52:7: remark: the loop is tiled by {{[0-9]+}} in shared memory
