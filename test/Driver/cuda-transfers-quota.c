// RUN: weft compile --target=cuda --report %S/../E2E/seq/steps.c -o %t.cu 2>&1 | FileCheck %s
// steps.c's strided loops make sets whose bounding boxes ISL cannot find
// within the device transfers' share of the quota, a quarter (5M
// operations): the nests stay on the host, correct, in about a second
// instead of five at the whole quota (docs/cuda.md, "Data").
// CHECK: steps.c:27:3: remark: stays on the host: its data cannot be bounded (device transfers exceeded its quota of 5000000 ISL operations)
// CHECK: steps.c:44:3: remark: stays on the host: its data cannot be bounded (device transfers exceeded its quota of 5000000 ISL operations)
// RUN: not grep -q '__global__ void weft_kernel_steps' %t.cu
