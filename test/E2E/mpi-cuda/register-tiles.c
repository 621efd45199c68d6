// --target=mpi-cuda: the products of ../seq/register-tiles.c, whose threads
// each compute several elements of a rank's block of rows (register tiles;
// the sizes are parameters, so the cost model chooses them for the nominal
// size), at 37 x 23 x 41 and at 70 x 131 x 33; the same output as the
// sequential program, bit for bit, on 2 and 3 ranks (CPU emulation of CUDA).
// REQUIRES: mpicc, mpirun, g++
// RUN: WEFT_TARGET=mpi-cuda bash %S/../run-mpi.sh %S/../seq/register-tiles.c %t 2 3
// RUN: WEFT_TARGET=mpi-cuda WEFT_DEFINES="-DNI=70 -DNJ=131 -DNK=33" bash %S/../run-mpi.sh %S/../seq/register-tiles.c %t.odd 3
// RUN: weft compile --target=mpi-cuda --report %S/../seq/register-tiles.c -o %t.cu 2>&1 | FileCheck %s
// CHECK: remark: the loop is tiled by {{[0-9]+}} in shared memory, each thread computing {{[0-9]+}} x {{[0-9]+}} elements in registers
