// The named pipelines (include/weft/Pipelines/Pipelines.h) are what
// `weft compile` runs: the imported module through weft-opt and the named
// pipeline prints the same region functions as the driver, for each target
// and with options (n = 10^6: at the nominal 4096 the smoothing stays in
// cache and is not distributed). The modules go from tool to tool with their locations,
// which carry the source's positions and names (generic form: induction
// variables' locations too).
//
// RUN: weft compile --target=seq --emit=mlir --mlir-print-debuginfo %s -o %t.mlir
// RUN: weft compile --target=seq %s -o %t.seq.c
// RUN: weft-opt %t.mlir --weft-seq-pipeline --mlir-print-debuginfo --mlir-print-op-generic | weft-translate --emit-c > %t.seq.opt.c
// RUN: sed -n '/^static .*weft_smooth_scop/,/^}/p' %t.seq.c > %t.seq.functions
// RUN: sed -n '/^static .*weft_smooth_scop/,/^}/p' %t.seq.opt.c | diff %t.seq.functions -
//
// RUN: weft compile --size=n=1000000 %s -o %t.mpi.c
// RUN: weft-opt %t.mlir --weft-mpi-pipeline='size=n=1000000' --mlir-print-debuginfo --mlir-print-op-generic | weft-translate --emit-c > %t.mpi.opt.c
// RUN: sed -n '/^static .*weft_smooth_scop/,/^}/p' %t.mpi.c > %t.mpi.functions
// RUN: sed -n '/^static .*weft_smooth_scop/,/^}/p' %t.mpi.opt.c | diff %t.mpi.functions -
// RUN: FileCheck %s --check-prefix=MPI < %t.mpi.functions
//
// RUN: weft compile --live-out=all --grid-dims=1 --ranks=2 --size=n=1000000 %s -o %t.all.c
// RUN: weft-opt %t.mlir --weft-mpi-pipeline='live-out-everywhere=1 grid-dims=1 ranks=2 size=n=1000000' \
// RUN:   --mlir-print-debuginfo --mlir-print-op-generic | weft-translate --emit-c > %t.all.opt.c
// RUN: sed -n '/^static .*weft_smooth_scop/,/^}/p' %t.all.c > %t.all.functions
// RUN: sed -n '/^static .*weft_smooth_scop/,/^}/p' %t.all.opt.c | diff %t.all.functions -
//
// weft-distribute-pipeline is what --target=mpi --emit=mlir prints.
// RUN: weft compile --emit=mlir --size=n=1000000 %s -o %t.dist.mlir
// RUN: weft-opt %t.mlir --weft-distribute-pipeline='size=n=1000000' | FileCheck %s --check-prefix=DIST
// RUN: FileCheck %s --check-prefix=DIST < %t.dist.mlir
//
// The options reach the passes: report=1 explains each decision.
// RUN: weft-opt %t.mlir --weft-distribute-pipeline='report=1 size=n=1000000' -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REPORT
// RUN: not weft-opt %t.mlir --weft-mpi-pipeline='no-such-option=1' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD

// MPI: weft_smooth_scop0_sequential(
// MPI: weft_smooth_scop0_distributed(
// MPI: weft_rt_isend
// MPI: weft_smooth_scop0(

// DIST: func.func @weft_smooth_scop0_sequential
// DIST: func.func @weft_smooth_scop0_distributed
// DIST: dist.local_bounds
// DIST: dist.isend
// DIST: func.func @weft_smooth_scop0(
// DIST-SAME: dist.alias_check

// REPORT: remark: distributed: blocks of its iterations on each rank
// REPORT: remark: sent after this unit

// BAD: no-such-option

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
